// Softmax with the row max subtracted equals softmax without: the max cancels exactly in
// the field; reduce_max is a stand-in, so unsound. The candidate is the stable one.
// EXPECT: equivalent
// UNSOUND: reduce_max
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = kernel.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = kernel.reduce_max %x dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = kernel.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = kernel.exp %d : tensor<4x8xf32> -> tensor<4x8xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
