// x / 2 against x / 4.
// EXPECT: different
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.mul_scalar %x, 5.000000e-01 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.mul_scalar %x, 2.500000e-01 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
