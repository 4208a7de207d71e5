// exp of the accumulated sum, against the sum of the exps: exp moved before the
// accumulator.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %s = kernel.reduce_sum %x dim 1 size 2 : tensor<4x4xf32> -> tensor<4x2xf32>
  %r = kernel.exp %s : tensor<4x2xf32> -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %r = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<4x4xf32>) -> tensor<4x2xf32> {
  ^bb0(%gx: tensor<4x4xf32>):
    %acc = block.for_loop : tensor<2x2xf32> {
      %xt = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<4x4xf32> -> tensor<2x2xf32>
      %e = block.exp %xt : tensor<2x2xf32> -> tensor<2x2xf32>
      %a = block.accum_sum %e : tensor<2x2xf32> -> tensor<2x2xf32>
      block.yield %a : tensor<2x2xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<2x2xf32> -> tensor<4x2xf32>
    block.return %o : tensor<4x2xf32>
  }
  func.return %r : tensor<4x2xf32>
}
