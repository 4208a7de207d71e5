// Summing rows then columns = summing columns then rows.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>) -> tensor<1x1xf32> {
  %a = kernel.reduce_sum %x dim 0 : tensor<4x8xf32> -> tensor<1x8xf32>
  %r = kernel.reduce_sum %a dim 1 : tensor<1x8xf32> -> tensor<1x1xf32>
  func.return %r : tensor<1x1xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<1x1xf32> {
  %a = kernel.reduce_sum %x dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = kernel.reduce_sum %a dim 0 : tensor<4x1xf32> -> tensor<1x1xf32>
  func.return %r : tensor<1x1xf32>
}
