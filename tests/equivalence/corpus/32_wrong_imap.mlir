// exp(x) on a 2 x 2 grid whose input iterator swaps the grid dims: every block reads the
// transposed block's tile.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = kernel.graph(%x) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%gx: tensor<4x4xf32>):
    %acc = block.for_loop : tensor<2x2xf32> {
      %xt = block.input %gx imap [1, 0, -1] : tensor<4x4xf32> -> tensor<2x2xf32>
      %a = block.accum_sum %xt : tensor<2x2xf32> -> tensor<2x2xf32>
      block.yield %a : tensor<2x2xf32>
    }
    %e = block.exp %acc : tensor<2x2xf32> -> tensor<2x2xf32>
    %o = block.output %e omap [0, 1, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    block.return %o : tensor<4x4xf32>
  }
  func.return %r : tensor<4x4xf32>
}
