// Softmax-weighted row sums, sum_j exp(s_j) v_j / sum_j exp(s_j), computed online: each
// step rescales by its own max (accum_rescale). The max cancels exactly in the field
// (exp(s - m) = exp(s) exp(-m)), but max itself is a stand-in: unsound.
// EXPECT: equivalent
// UNSOUND: accum_rescale, reduce_max
func.func @reference(%s: tensor<4x16xf32>, %v: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %e = kernel.exp %s : tensor<4x16xf32> -> tensor<4x16xf32>
  %ev = kernel.mul %e, %v : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %num = kernel.reduce_sum %ev dim 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  %den = kernel.reduce_sum %e dim 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  %r = kernel.div %num, %den : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
func.func @candidate(%s: tensor<4x16xf32>, %v: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %r = kernel.graph(%s, %v) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x1xf32> {
  ^bb0(%gs: tensor<4x16xf32>, %gv: tensor<4x16xf32>):
    %anum, %aden = block.for_loop : tensor<2x1xf32>, tensor<2x1xf32> {
      %st = block.input %gs imap [0, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %vt = block.input %gv imap [0, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %m = block.reduce_max %st dim 1 : tensor<2x4xf32> -> tensor<2x1xf32>
      %d = block.sub %st, %m : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
      %e = block.exp %d : tensor<2x4xf32> -> tensor<2x4xf32>
      %ev = block.mul %e, %vt : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
      %n = block.reduce_sum %ev dim 1 : tensor<2x4xf32> -> tensor<2x1xf32>
      %z = block.reduce_sum %e dim 1 : tensor<2x4xf32> -> tensor<2x1xf32>
      %a = block.accum_rescale %n, %m : tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x1xf32>
      %b = block.accum_rescale %z, %m : tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x1xf32>
      block.yield %a, %b : tensor<2x1xf32>, tensor<2x1xf32>
    }
    %y = block.div %anum, %aden : tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x1xf32>
    %o = block.output %y omap [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    block.return %o : tensor<4x1xf32>
  }
  func.return %r : tensor<4x1xf32>
}
