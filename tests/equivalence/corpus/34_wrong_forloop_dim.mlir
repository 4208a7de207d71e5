// Column sums of 2-column halves: the grid should split rows and the loop walk columns;
// here the loop walks rows and the grid splits columns.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %r = kernel.reduce_sum %x dim 1 size 2 : tensor<4x4xf32> -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %r = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<4x4xf32>) -> tensor<4x2xf32> {
  ^bb0(%gx: tensor<4x4xf32>):
    %acc = block.for_loop : tensor<2x2xf32> {
      %xt = block.input %gx imap [1, -1, -1] forloop_dim 0 : tensor<4x4xf32> -> tensor<2x2xf32>
      %a = block.accum_sum %xt : tensor<2x2xf32> -> tensor<2x2xf32>
      block.yield %a : tensor<2x2xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<2x2xf32> -> tensor<4x2xf32>
    block.return %o : tensor<4x2xf32>
  }
  func.return %r : tensor<4x2xf32>
}
