// X W with N split across 2 blocks, the output saver putting grid x on the rows.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = kernel.matmul %x, %w : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %a = kernel.reduce_sum %y dim 1 size 4 : tensor<4x8xf32> -> tensor<4x4xf32>
  %r = kernel.concat %a, %a dim 0 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<8x4xf32>
  func.return %r : tensor<8x4xf32>
}
func.func @candidate(%x: tensor<4x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %r = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<8x4xf32> {
  ^bb0(%gx: tensor<4x4xf32>, %gw: tensor<4x8xf32>):
    %acc = block.for_loop : tensor<4x4xf32> {
      %xt = block.input %gx imap [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
      %wt = block.input %gw imap [1, -1, -1] : tensor<4x8xf32> -> tensor<4x4xf32>
      %p = block.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %a = block.accum_sum %p : tensor<4x4xf32> -> tensor<4x4xf32>
      block.yield %a : tensor<4x4xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<4x4xf32> -> tensor<8x4xf32>
    block.return %o : tensor<8x4xf32>
  }
  func.return %r : tensor<8x4xf32>
}
