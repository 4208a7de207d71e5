// Gated MLP silu(X W1) (X W2) as one kernel: both products accumulate over the loop,
// the gate is a thread-level chain after it. silu is x / (1 + exp(-x)) in the field: sound.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = kernel.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %b = kernel.matmul %x, %w2 : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %s = kernel.silu %a : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul %s, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %w1, %w2) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %g1: tensor<8x8xf32>, %g2: tensor<8x8xf32>):
    %a1, %a2 = block.for_loop : tensor<4x4xf32>, tensor<4x4xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %t1 = block.input %g1 imap [1, -1, -1] forloop_dim 0 : tensor<8x8xf32> -> tensor<4x4xf32>
      %t2 = block.input %g2 imap [1, -1, -1] forloop_dim 0 : tensor<8x8xf32> -> tensor<4x4xf32>
      %p1 = block.matmul %xt, %t1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %p2 = block.matmul %xt, %t2 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s1 = block.accum_sum %p1 : tensor<4x4xf32> -> tensor<4x4xf32>
      %s2 = block.accum_sum %p2 : tensor<4x4xf32> -> tensor<4x4xf32>
      block.yield %s1, %s2 : tensor<4x4xf32>, tensor<4x4xf32>
    }
    %y = thread.fuse(%a1, %a2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb1(%u: f32, %v: f32):
      %g = thread.silu %u : f32
      %m = thread.mul %g, %v : f32
      thread.yield %m : f32
    }
    %o = block.output %y omap [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
