// exp(2 x) + y as one kernel whose elementwise chain is fused at thread level.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = kernel.mul_scalar %x, 2.000000e+00 : tensor<4x8xf32> -> tensor<4x8xf32>
  %e = kernel.exp %t : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.add %e, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.graph(%x, %y) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %gy: tensor<4x8xf32>):
    %ax, %ay = block.for_loop : tensor<1x8xf32>, tensor<1x8xf32> {
      %xt = block.input %gx imap [0, -1, -1] : tensor<4x8xf32> -> tensor<1x8xf32>
      %yt = block.input %gy imap [0, -1, -1] : tensor<4x8xf32> -> tensor<1x8xf32>
      %a = block.accum_sum %xt : tensor<1x8xf32> -> tensor<1x8xf32>
      %b = block.accum_sum %yt : tensor<1x8xf32> -> tensor<1x8xf32>
      block.yield %a, %b : tensor<1x8xf32>, tensor<1x8xf32>
    }
    %z = thread.fuse(%ax, %ay) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32> {
    ^bb1(%u: f32, %v: f32):
      %t = thread.mul_scalar %u, 2.000000e+00 : f32
      %e = thread.exp %t : f32
      %s = thread.add %e, %v : f32
      thread.yield %s : f32
    }
    %o = block.output %z omap [0, -1, -1] : tensor<1x8xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
