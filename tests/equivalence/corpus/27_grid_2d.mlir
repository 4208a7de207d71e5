// exp(x) + y on a 2 x 2 grid of blocks (grid x splits rows, grid y splits columns).
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = kernel.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.add %e, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %y) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %gy: tensor<4x8xf32>):
    %ax, %ay = block.for_loop : tensor<2x4xf32>, tensor<2x4xf32> {
      %xt = block.input %gx imap [0, 1, -1] : tensor<4x8xf32> -> tensor<2x4xf32>
      %yt = block.input %gy imap [0, 1, -1] : tensor<4x8xf32> -> tensor<2x4xf32>
      %a = block.accum_sum %xt : tensor<2x4xf32> -> tensor<2x4xf32>
      %b = block.accum_sum %yt : tensor<2x4xf32> -> tensor<2x4xf32>
      block.yield %a, %b : tensor<2x4xf32>, tensor<2x4xf32>
    }
    %e = block.exp %ax : tensor<2x4xf32> -> tensor<2x4xf32>
    %s = block.add %e, %ay : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    %o = block.output %s omap [0, 1, -1] : tensor<2x4xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
