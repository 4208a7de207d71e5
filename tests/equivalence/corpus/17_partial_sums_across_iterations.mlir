// X W with N split across 2 blocks and K walked by the loop in 4 steps (accum_sum).
// EXPECT: equivalent
func.func @reference(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x16xf32>, %gw: tensor<16x8xf32>):
    %acc = block.for_loop : tensor<4x4xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<4x4xf32>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<16x8xf32> -> tensor<4x4xf32>
      %p = block.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %a = block.accum_sum %p : tensor<4x4xf32> -> tensor<4x4xf32>
      block.yield %a : tensor<4x4xf32>
    }
    %o = block.output %acc omap [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
