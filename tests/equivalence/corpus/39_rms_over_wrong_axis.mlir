// rms_norm against dividing by the rms of each column.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = kernel.rms_norm %x : tensor<4x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %sq = kernel.square %x : tensor<4x4xf32> -> tensor<4x4xf32>
  %s = kernel.reduce_sum %sq dim 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %m = kernel.mul_scalar %s, 2.500000e-01 : tensor<1x4xf32> -> tensor<1x4xf32>
  %rt = kernel.sqrt %m : tensor<1x4xf32> -> tensor<1x4xf32>
  %r = kernel.div %x, %rt : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
