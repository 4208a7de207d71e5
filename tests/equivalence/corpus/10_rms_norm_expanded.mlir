// rms_norm(x) = x / sqrt(mean(x^2)) written with elementary ops.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.rms_norm %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sq = kernel.square %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %s = kernel.reduce_sum %sq dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = kernel.mul_scalar %s, 1.250000e-01 : tensor<4x1xf32> -> tensor<4x1xf32>
  %rt = kernel.sqrt %m : tensor<4x1xf32> -> tensor<4x1xf32>
  %r = kernel.div %x, %rt : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
