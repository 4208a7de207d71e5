// X W with K split across 4 blocks: each block writes its partial product side by side
// (omap puts grid x on the columns), and a second kernel sums the 4 partials.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x16xf32>, %w: tensor<16x6xf32>) -> tensor<4x6xf32> {
  %r = kernel.matmul %x, %w : tensor<4x16xf32>, tensor<16x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
func.func @candidate(%x: tensor<4x16xf32>, %w: tensor<16x6xf32>) -> tensor<4x6xf32> {
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
  %r = kernel.reduce_sum %parts dim 1 size 6 : tensor<4x24xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
