// The mean over 4 loop steps of 4 columns divides by 16; dividing the sum by 8 is wrong.
// EXPECT: different
func.func @reference(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %s = kernel.reduce_sum %x dim 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  %r = kernel.mul_scalar %s, 1.250000e-01 : tensor<4x1xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
func.func @candidate(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %r = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x16xf32>) -> tensor<4x1xf32> {
  ^bb0(%gx: tensor<4x16xf32>):
    %acc = block.for_loop : tensor<2x1xf32> {
      %xt = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %a = block.accum_mean_last %xt : tensor<2x4xf32> -> tensor<2x1xf32>
      block.yield %a : tensor<2x1xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    block.return %o : tensor<4x1xf32>
  }
  func.return %r : tensor<4x1xf32>
}
