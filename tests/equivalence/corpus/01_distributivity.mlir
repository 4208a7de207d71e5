// (a + b) c = a c + b c.
// EXPECT: equivalent
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = kernel.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul %s, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ac = kernel.mul %a, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %bc = kernel.mul %b, %c : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.add %ac, %bc : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
