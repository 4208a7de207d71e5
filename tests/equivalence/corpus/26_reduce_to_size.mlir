// Reducing 16 columns to 4 in one step or via 8: element j sums j, j+4, j+8, j+12.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %r = kernel.reduce_sum %x dim 1 size 4 : tensor<4x16xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @candidate(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %a = kernel.reduce_sum %x dim 1 size 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %r = kernel.reduce_sum %a dim 1 size 4 : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
