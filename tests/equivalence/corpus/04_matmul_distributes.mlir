// (A + B) W = A W + B W.
// EXPECT: equivalent
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = kernel.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.matmul %s, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %aw = kernel.matmul %a, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %bw = kernel.matmul %b, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %r = kernel.add %aw, %bw : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
