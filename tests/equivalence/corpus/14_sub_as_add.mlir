// a - b = a + (-1) b.
// EXPECT: equivalent
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = kernel.mul_scalar %b, -1.000000e+00 : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.add %a, %n : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
