// Variance as mean(x^2) - mean(x)^2 instead of mean((x - mean(x))^2): equal in exact
// arithmetic, but it cancels catastrophically in float32 when the mean is large.
// EXPECT: unstable
func.func @reference(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %s = kernel.reduce_sum %x dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %m = kernel.mul_scalar %s, 1.562500e-02 : tensor<4x1xf32> -> tensor<4x1xf32>
  %d = kernel.sub %x, %m : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %d2 = kernel.square %d : tensor<4x64xf32> -> tensor<4x64xf32>
  %v = kernel.reduce_sum %d2 dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %r = kernel.mul_scalar %v, 1.562500e-02 : tensor<4x1xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
func.func @candidate(%x: tensor<4x64xf32>) -> tensor<4x1xf32> {
  %x2 = kernel.square %x : tensor<4x64xf32> -> tensor<4x64xf32>
  %s2 = kernel.reduce_sum %x2 dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %m2 = kernel.mul_scalar %s2, 1.562500e-02 : tensor<4x1xf32> -> tensor<4x1xf32>
  %s = kernel.reduce_sum %x dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %m = kernel.mul_scalar %s, 1.562500e-02 : tensor<4x1xf32> -> tensor<4x1xf32>
  %mm = kernel.square %m : tensor<4x1xf32> -> tensor<4x1xf32>
  %r = kernel.sub %m2, %mm : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
