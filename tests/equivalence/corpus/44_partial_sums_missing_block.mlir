// Partial products across 4 blocks (as in 16), summed to the wrong size: the final
// reduction keeps 12 columns and adds only 2 partials per column.
// EXPECT: different
func.func @reference(%x: tensor<4x16xf32>, %w: tensor<16x6xf32>) -> tensor<4x12xf32> {
  %y = kernel.matmul %x, %w : tensor<4x16xf32>, tensor<16x6xf32> -> tensor<4x6xf32>
  %r = kernel.concat %y, %y dim 1 : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x12xf32>
  func.return %r : tensor<4x12xf32>
}
func.func @candidate(%x: tensor<4x16xf32>, %w: tensor<16x6xf32>) -> tensor<4x12xf32> {
  %parts = kernel.graph(%x, %w) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<4x16xf32>, tensor<16x6xf32>) -> tensor<4x24xf32> {
  ^bb0(%gx: tensor<4x16xf32>, %gw: tensor<16x6xf32>):
    %acc = block.for_loop : tensor<4x6xf32> {
      %xt = block.input %gx imap [1, -1, -1] : tensor<4x16xf32> -> tensor<4x4xf32>
      %wt = block.input %gw imap [0, -1, -1] : tensor<16x6xf32> -> tensor<4x6xf32>
      %p = block.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
      %a = block.accum_sum %p : tensor<4x6xf32> -> tensor<4x6xf32>
      block.yield %a : tensor<4x6xf32>
    }
    %o = block.output %acc omap [1, -1, -1] : tensor<4x6xf32> -> tensor<4x24xf32>
    block.return %o : tensor<4x24xf32>
  }
  %r = kernel.reduce_sum %parts dim 1 size 12 : tensor<4x24xf32> -> tensor<4x12xf32>
  func.return %r : tensor<4x12xf32>
}
