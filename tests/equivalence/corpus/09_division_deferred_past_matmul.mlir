// Row scaling commutes with a matmul: (x / s) W = (x W) / s for s of one value per row.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %s: tensor<4x1xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %n = kernel.div %x, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %r = kernel.matmul %n, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %s: tensor<4x1xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = kernel.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %r = kernel.div %y, %s : tensor<4x6xf32>, tensor<4x1xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
