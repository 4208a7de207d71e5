// gqa with rms_norm on Q (over its last dim, 4) and on K (over its dim 1, 4), at a small
// shape: Q 2x8x4, K 2x4x16, V 2x16x4.
// @ugraph: one kernel as for gqa; each loop step normalizes its Q tile (replicated across
// the loop) and its K tile (each tile holds whole columns of K) before the scores.

func.func @program(%q: tensor<2x8x4xf32>, %k: tensor<2x4x16xf32>, %v: tensor<2x16x4xf32>) -> tensor<2x8x4xf32> {
  %qn = kernel.rms_norm %q : tensor<2x8x4xf32> -> tensor<2x8x4xf32>
  %k2 = kernel.square %k : tensor<2x4x16xf32> -> tensor<2x4x16xf32>
  %ks = kernel.reduce_sum %k2 dim 1 : tensor<2x4x16xf32> -> tensor<2x1x16xf32>
  %km = kernel.mul_scalar %ks, 2.500000e-01 : tensor<2x1x16xf32> -> tensor<2x1x16xf32>
  %kr = kernel.sqrt %km : tensor<2x1x16xf32> -> tensor<2x1x16xf32>
  %kn = kernel.div %k, %kr : tensor<2x4x16xf32>, tensor<2x1x16xf32> -> tensor<2x4x16xf32>
  %s = kernel.matmul %qn, %kn : tensor<2x8x4xf32>, tensor<2x4x16xf32> -> tensor<2x8x16xf32>
  %e = kernel.exp %s : tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  %z = kernel.reduce_sum %e dim 2 : tensor<2x8x16xf32> -> tensor<2x8x1xf32>
  %p = kernel.div %e, %z : tensor<2x8x16xf32>, tensor<2x8x1xf32> -> tensor<2x8x16xf32>
  %o = kernel.matmul %p, %v : tensor<2x8x16xf32>, tensor<2x16x4xf32> -> tensor<2x8x4xf32>
  func.return %o : tensor<2x8x4xf32>
}

func.func @ugraph(%q: tensor<2x8x4xf32>, %k: tensor<2x4x16xf32>, %v: tensor<2x16x4xf32>) -> tensor<2x8x4xf32> {
  %o = kernel.graph(%q, %k, %v) grid [2, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x8x4xf32>, tensor<2x4x16xf32>, tensor<2x16x4xf32>) -> tensor<2x8x4xf32> {
  ^bb0(%gq: tensor<2x8x4xf32>, %gk: tensor<2x4x16xf32>, %gv: tensor<2x16x4xf32>):
    %acc_o, %acc_z = block.for_loop : tensor<1x4x4xf32>, tensor<1x4x1xf32> {
      %qt = block.input %gq imap [0, 1, -1] : tensor<2x8x4xf32> -> tensor<1x4x4xf32>
      %kt = block.input %gk imap [0, -1, -1] forloop_dim 2 : tensor<2x4x16xf32> -> tensor<1x4x4xf32>
      %vt = block.input %gv imap [0, -1, -1] forloop_dim 1 : tensor<2x16x4xf32> -> tensor<1x4x4xf32>
      %qn = block.rms_norm %qt : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %k2 = block.square %kt : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ks = block.reduce_sum %k2 dim 1 : tensor<1x4x4xf32> -> tensor<1x1x4xf32>
      %kn = thread.fuse(%kt, %ks) : (tensor<1x4x4xf32>, tensor<1x1x4xf32>) -> tensor<1x4x4xf32> {
      ^bb1(%kv: f32, %ss: f32):
        %m = thread.mul_scalar %ss, 2.500000e-01 : f32
        %r = thread.sqrt %m : f32
        %n = thread.div %kv, %r : f32
        thread.yield %n : f32
      }
      %st = block.matmul %qn, %kn : tensor<1x4x4xf32>, tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %et = block.exp %st : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ot = block.matmul %et, %vt : tensor<1x4x4xf32>, tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %a0 = block.accum_sum %ot : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %a1 = block.accum_sum_last %et : tensor<1x4x4xf32> -> tensor<1x4x1xf32>
      block.yield %a0, %a1 : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %ot = block.div %acc_o, %acc_z : tensor<1x4x4xf32>, tensor<1x4x1xf32> -> tensor<1x4x4xf32>
    %out = block.output %ot omap [0, 1, -1] : tensor<1x4x4xf32> -> tensor<2x8x4xf32>
    block.return %out : tensor<2x8x4xf32>
  }
  func.return %o : tensor<2x8x4xf32>
}
