// [A; B] W = [A W; B W].
// EXPECT: equivalent
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<6x6xf32> {
  %c = kernel.concat %a, %b dim 0 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<6x8xf32>
  %r = kernel.matmul %c, %w : tensor<6x8xf32>, tensor<8x6xf32> -> tensor<6x6xf32>
  func.return %r : tensor<6x6xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<6x6xf32> {
  %aw = kernel.matmul %a, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %bw = kernel.matmul %b, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  %r = kernel.concat %aw, %bw dim 0 : tensor<4x6xf32>, tensor<2x6xf32> -> tensor<6x6xf32>
  func.return %r : tensor<6x6xf32>
}
