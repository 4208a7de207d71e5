// A row sum split in two steps: first to 4 partial sums, then to one.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %r = kernel.reduce_sum %x dim 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
func.func @candidate(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %p = kernel.reduce_sum %x dim 1 size 4 : tensor<4x16xf32> -> tensor<4x4xf32>
  %r = kernel.reduce_sum %p dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
