// (4 x) / 8 = x / 2.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.mul_scalar %x, 5.000000e-01 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = kernel.mul_scalar %x, 4.000000e+00 : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul_scalar %a, 1.250000e-01 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
