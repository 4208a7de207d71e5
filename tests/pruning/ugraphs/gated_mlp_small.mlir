// Gated MLP, O = silu(X W1) * (X W2), at a small shape: X 4x32, W1 and W2 32x48.
// @ugraph: one kernel; each block owns 12 columns of W1 and W2 and walks K in 4 steps of
// 8, accumulating both products; a thread-level chain applies silu and the product.

func.func @program(%x: tensor<4x32xf32>, %w1: tensor<32x48xf32>, %w2: tensor<32x48xf32>) -> tensor<4x48xf32> {
  %h1 = kernel.matmul %x, %w1 : tensor<4x32xf32>, tensor<32x48xf32> -> tensor<4x48xf32>
  %g = kernel.silu %h1 : tensor<4x48xf32> -> tensor<4x48xf32>
  %h2 = kernel.matmul %x, %w2 : tensor<4x32xf32>, tensor<32x48xf32> -> tensor<4x48xf32>
  %o = kernel.mul %g, %h2 : tensor<4x48xf32>, tensor<4x48xf32> -> tensor<4x48xf32>
  func.return %o : tensor<4x48xf32>
}

func.func @ugraph(%x: tensor<4x32xf32>, %w1: tensor<32x48xf32>, %w2: tensor<32x48xf32>) -> tensor<4x48xf32> {
  %o = kernel.graph(%x, %w1, %w2) grid [4, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x32xf32>, tensor<32x48xf32>, tensor<32x48xf32>) -> tensor<4x48xf32> {
  ^bb0(%gx: tensor<4x32xf32>, %g1: tensor<32x48xf32>, %g2: tensor<32x48xf32>):
    %acc1, %acc2 = block.for_loop : tensor<4x12xf32>, tensor<4x12xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x32xf32> -> tensor<4x8xf32>
      %w1t = block.input %g1 imap [1, -1, -1] forloop_dim 0 : tensor<32x48xf32> -> tensor<8x12xf32>
      %w2t = block.input %g2 imap [1, -1, -1] forloop_dim 0 : tensor<32x48xf32> -> tensor<8x12xf32>
      %p1 = block.matmul %xt, %w1t : tensor<4x8xf32>, tensor<8x12xf32> -> tensor<4x12xf32>
      %p2 = block.matmul %xt, %w2t : tensor<4x8xf32>, tensor<8x12xf32> -> tensor<4x12xf32>
      %a1 = block.accum_sum %p1 : tensor<4x12xf32> -> tensor<4x12xf32>
      %a2 = block.accum_sum %p2 : tensor<4x12xf32> -> tensor<4x12xf32>
      block.yield %a1, %a2 : tensor<4x12xf32>, tensor<4x12xf32>
    }
    %ot = thread.fuse(%acc1, %acc2) : (tensor<4x12xf32>, tensor<4x12xf32>) -> tensor<4x12xf32> {
    ^bb1(%u: f32, %v: f32):
      %s = thread.silu %u : f32
      %m = thread.mul %s, %v : f32
      thread.yield %m : f32
    }
    %out = block.output %ot omap [1, -1, -1] : tensor<4x12xf32> -> tensor<4x48xf32>
    block.return %out : tensor<4x48xf32>
  }
  func.return %o : tensor<4x48xf32>
}
