// pow(x, y) in a kernel or in a block: equal, but pow is a stand-in in the field.
// EXPECT: equivalent
// UNSOUND: pow
func.func @reference(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.pow %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %y) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %gy: tensor<4x8xf32>):
    %ax, %ay = block.for_loop : tensor<2x8xf32>, tensor<2x8xf32> {
      %xt = block.input %gx imap [0, -1, -1] : tensor<4x8xf32> -> tensor<2x8xf32>
      %yt = block.input %gy imap [0, -1, -1] : tensor<4x8xf32> -> tensor<2x8xf32>
      %a = block.accum_sum %xt : tensor<2x8xf32> -> tensor<2x8xf32>
      %b = block.accum_sum %yt : tensor<2x8xf32> -> tensor<2x8xf32>
      block.yield %a, %b : tensor<2x8xf32>, tensor<2x8xf32>
    }
    %p = block.pow %ax, %ay : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
    %o = block.output %p omap [0, -1, -1] : tensor<2x8xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
