// Normalizing by column sums instead of row sums.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = kernel.reduce_sum %x dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %r = kernel.div %x, %s : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = kernel.reduce_sum %x dim 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %r = kernel.div %x, %s : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
