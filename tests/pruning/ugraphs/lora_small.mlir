// LoRA, O = X W + (X A) B, at a small shape: X 4x32, W 32x48, A 32x4, B 4x48.
// @ugraph: one kernel; each block owns 12 columns of W and B and walks K in 4 steps of 8,
// accumulating X W and X A; its B tile is the same in every step (replicated across the
// loop) and leaves the loop through accum_max, which keeps it as it is. After the loop,
// (X A) B is added to X W.
// @ugraph_concat: the kernel-level form [X, X A] [W; B], one matmul over a concatenated
// contraction dim.

func.func @program(%x: tensor<4x32xf32>, %w: tensor<32x48xf32>, %a: tensor<32x4xf32>, %b: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %xw = kernel.matmul %x, %w : tensor<4x32xf32>, tensor<32x48xf32> -> tensor<4x48xf32>
  %xa = kernel.matmul %x, %a : tensor<4x32xf32>, tensor<32x4xf32> -> tensor<4x4xf32>
  %xab = kernel.matmul %xa, %b : tensor<4x4xf32>, tensor<4x48xf32> -> tensor<4x48xf32>
  %o = kernel.add %xw, %xab : tensor<4x48xf32>, tensor<4x48xf32> -> tensor<4x48xf32>
  func.return %o : tensor<4x48xf32>
}

func.func @ugraph(%x: tensor<4x32xf32>, %w: tensor<32x48xf32>, %a: tensor<32x4xf32>, %b: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %o = kernel.graph(%x, %w, %a, %b) grid [4, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x32xf32>, tensor<32x48xf32>, tensor<32x4xf32>, tensor<4x48xf32>) -> tensor<4x48xf32> {
  ^bb0(%gx: tensor<4x32xf32>, %gw: tensor<32x48xf32>, %ga: tensor<32x4xf32>, %gb: tensor<4x48xf32>):
    %acc_xw, %acc_xa, %acc_b = block.for_loop : tensor<4x12xf32>, tensor<4x4xf32>, tensor<4x12xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x32xf32> -> tensor<4x8xf32>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<32x48xf32> -> tensor<8x12xf32>
      %at = block.input %ga imap [-1, -1, -1] forloop_dim 0 : tensor<32x4xf32> -> tensor<8x4xf32>
      %bt = block.input %gb imap [1, -1, -1] : tensor<4x48xf32> -> tensor<4x12xf32>
      %xw = block.matmul %xt, %wt : tensor<4x8xf32>, tensor<8x12xf32> -> tensor<4x12xf32>
      %xa = block.matmul %xt, %at : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
      %a0 = block.accum_sum %xw : tensor<4x12xf32> -> tensor<4x12xf32>
      %a1 = block.accum_sum %xa : tensor<4x4xf32> -> tensor<4x4xf32>
      %a2 = block.accum_max %bt : tensor<4x12xf32> -> tensor<4x12xf32>
      block.yield %a0, %a1, %a2 : tensor<4x12xf32>, tensor<4x4xf32>, tensor<4x12xf32>
    }
    %xab = block.matmul %acc_xa, %acc_b : tensor<4x4xf32>, tensor<4x12xf32> -> tensor<4x12xf32>
    %ot = block.add %acc_xw, %xab : tensor<4x12xf32>, tensor<4x12xf32> -> tensor<4x12xf32>
    %out = block.output %ot omap [1, -1, -1] : tensor<4x12xf32> -> tensor<4x48xf32>
    block.return %out : tensor<4x48xf32>
  }
  func.return %o : tensor<4x48xf32>
}

func.func @ugraph_concat(%x: tensor<4x32xf32>, %w: tensor<32x48xf32>, %a: tensor<32x4xf32>, %b: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %xa = kernel.matmul %x, %a : tensor<4x32xf32>, tensor<32x4xf32> -> tensor<4x4xf32>
  %l = kernel.concat %x, %xa dim 1 : tensor<4x32xf32>, tensor<4x4xf32> -> tensor<4x36xf32>
  %r = kernel.concat %w, %b dim 0 : tensor<32x48xf32>, tensor<4x48xf32> -> tensor<36x48xf32>
  %o = kernel.matmul %l, %r : tensor<4x36xf32>, tensor<36x48xf32> -> tensor<4x48xf32>
  func.return %o : tensor<4x48xf32>
}
