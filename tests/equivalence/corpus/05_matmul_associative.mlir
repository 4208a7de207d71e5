// (A B) C = A (B C).
// EXPECT: equivalent
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<6x5xf32>) -> tensor<4x5xf32> {
  %ab = kernel.matmul %a, %b : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %r = kernel.matmul %ab, %c : tensor<4x6xf32>, tensor<6x5xf32> -> tensor<4x5xf32>
  func.return %r : tensor<4x5xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<6x5xf32>) -> tensor<4x5xf32> {
  %bc = kernel.matmul %b, %c : tensor<8x6xf32>, tensor<6x5xf32> -> tensor<8x5xf32>
  %r = kernel.matmul %a, %bc : tensor<4x8xf32>, tensor<8x5xf32> -> tensor<4x5xf32>
  func.return %r : tensor<4x5xf32>
}
