// Softmax whose row sums come from a μGraph: two blocks of 2 rows, the loop walks the
// 16 columns in 4 steps and accumulates exp over the last dim.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = kernel.exp %x : tensor<4x16xf32> -> tensor<4x16xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}
func.func @candidate(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %z = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x16xf32>) -> tensor<4x1xf32> {
  ^bb0(%gx: tensor<4x16xf32>):
    %acc = block.for_loop : tensor<2x1xf32> {
      %xt = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %et = block.exp %xt : tensor<2x4xf32> -> tensor<2x4xf32>
      %a = block.accum_sum_last %et : tensor<2x4xf32> -> tensor<2x1xf32>
      block.yield %a : tensor<2x1xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    block.return %o : tensor<4x1xf32>
  }
  %e = kernel.exp %x : tensor<4x16xf32> -> tensor<4x16xf32>
  %r = kernel.div %e, %z : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}
