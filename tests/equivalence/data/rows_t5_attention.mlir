// Attention over (batch 2, heads 4, length 32, head dim 8) as T5 writes it: batch and heads
// merged by reshapes around each matmul.
func.func @reference(%0: tensor<2x4x32x8xf32>, %1: tensor<2x4x32x8xf32>, %2: tensor<2x4x32x8xf32>) -> tensor<2x4x32x8xf32> {
  %3 = kernel.reshape %0 : tensor<2x4x32x8xf32> -> tensor<8x32x8xf32>
  %4 = kernel.transpose %1 permutation [0, 1, 3, 2] : tensor<2x4x32x8xf32> -> tensor<2x4x8x32xf32>
  %5 = kernel.reshape %4 : tensor<2x4x8x32xf32> -> tensor<8x8x32xf32>
  %6 = kernel.matmul %3, %5 : tensor<8x32x8xf32>, tensor<8x8x32xf32> -> tensor<8x32x32xf32>
  %7 = kernel.reshape %6 : tensor<8x32x32xf32> -> tensor<2x4x32x32xf32>
  %8 = kernel.reduce_max %7 dim 3 : tensor<2x4x32x32xf32> -> tensor<2x4x32x1xf32>
  %9 = kernel.sub %7, %8 : tensor<2x4x32x32xf32>, tensor<2x4x32x1xf32> -> tensor<2x4x32x32xf32>
  %10 = kernel.exp %9 : tensor<2x4x32x32xf32> -> tensor<2x4x32x32xf32>
  %11 = kernel.reduce_sum %10 dim 3 : tensor<2x4x32x32xf32> -> tensor<2x4x32x1xf32>
  %12 = kernel.div %10, %11 : tensor<2x4x32x32xf32>, tensor<2x4x32x1xf32> -> tensor<2x4x32x32xf32>
  %13 = kernel.reshape %12 : tensor<2x4x32x32xf32> -> tensor<8x32x32xf32>
  %14 = kernel.reshape %2 : tensor<2x4x32x8xf32> -> tensor<8x32x8xf32>
  %15 = kernel.matmul %13, %14 : tensor<8x32x32xf32>, tensor<8x32x8xf32> -> tensor<8x32x8xf32>
  %16 = kernel.reshape %15 : tensor<8x32x8xf32> -> tensor<2x4x32x8xf32>
  func.return %16 : tensor<2x4x32x8xf32>
}
