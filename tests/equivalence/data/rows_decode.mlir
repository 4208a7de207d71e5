// Decode attention over 64 heads (one query each, keys 512, head dim 8) as imported.
func.func @reference(%0: tensor<64x1x8xf32>, %1: tensor<64x8x512xf32>, %2: tensor<64x512x8xf32>) -> tensor<64x1x8xf32> {
  %3 = kernel.matmul %0, %1 : tensor<64x1x8xf32>, tensor<64x8x512xf32> -> tensor<64x1x512xf32>
  %4 = kernel.reduce_max %3 dim 2 : tensor<64x1x512xf32> -> tensor<64x1x1xf32>
  %5 = kernel.sub %3, %4 : tensor<64x1x512xf32>, tensor<64x1x1xf32> -> tensor<64x1x512xf32>
  %6 = kernel.exp %5 : tensor<64x1x512xf32> -> tensor<64x1x512xf32>
  %7 = kernel.reduce_sum %6 dim 2 : tensor<64x1x512xf32> -> tensor<64x1x1xf32>
  %8 = kernel.div %6, %7 : tensor<64x1x512xf32>, tensor<64x1x1xf32> -> tensor<64x1x512xf32>
  %9 = kernel.matmul %8, %2 : tensor<64x1x512xf32>, tensor<64x512x8xf32> -> tensor<64x1x8xf32>
  func.return %9 : tensor<64x1x8xf32>
}
