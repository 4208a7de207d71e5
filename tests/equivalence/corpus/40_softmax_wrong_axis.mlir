// Softmax normalized over the wrong axis.
// EXPECT: different
func.func @reference(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @candidate(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  %z = kernel.reduce_sum %e dim 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %r = kernel.div %e, %z : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
