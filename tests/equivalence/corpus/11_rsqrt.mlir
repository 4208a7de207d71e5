// x rsqrt(y) = x / sqrt(y).
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = kernel.sqrt %y : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.div %x, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = kernel.rsqrt %y : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul %x, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
