// Attention over 4 heads (queries 32, keys 48, head dim 8) as imported, and the online
// softmax form as one launch: grid x over query tiles of 16, grid y over the heads, the
// loop over key tiles of 16 with K read through a transposed view.
func.func @reference(%0: tensor<4x32x8xf32>, %1: tensor<4x48x8xf32>, %2: tensor<4x48x8xf32>) -> tensor<4x32x8xf32> {
  %3 = kernel.transpose %1 permutation [0, 2, 1] : tensor<4x48x8xf32> -> tensor<4x8x48xf32>
  %4 = kernel.matmul %0, %3 : tensor<4x32x8xf32>, tensor<4x8x48xf32> -> tensor<4x32x48xf32>
  %5 = kernel.mul_scalar %4, 0.35 : tensor<4x32x48xf32> -> tensor<4x32x48xf32>
  %6 = kernel.reduce_max %5 dim 2 : tensor<4x32x48xf32> -> tensor<4x32x1xf32>
  %7 = kernel.sub %5, %6 : tensor<4x32x48xf32>, tensor<4x32x1xf32> -> tensor<4x32x48xf32>
  %8 = kernel.exp %7 : tensor<4x32x48xf32> -> tensor<4x32x48xf32>
  %9 = kernel.reduce_sum %8 dim 2 : tensor<4x32x48xf32> -> tensor<4x32x1xf32>
  %10 = kernel.div %8, %9 : tensor<4x32x48xf32>, tensor<4x32x1xf32> -> tensor<4x32x48xf32>
  %11 = kernel.matmul %10, %2 : tensor<4x32x48xf32>, tensor<4x48x8xf32> -> tensor<4x32x8xf32>
  func.return %11 : tensor<4x32x8xf32>
}
