// Multi-head attention as GPT-2 writes it (batch 2, length 16, 4 heads of 16): heads split
// by view and transpose, merged with the batch by reshapes around each matmul.
func.func @reference(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x64xf32>, %arg2: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %0 = kernel.reshape %arg0 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %1 = kernel.transpose %0 permutation [0, 2, 1, 3] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %2 = kernel.reshape %1 : tensor<2x4x16x16xf32> -> tensor<8x16x16xf32>
  %3 = kernel.reshape %arg1 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %4 = kernel.transpose %3 permutation [0, 2, 3, 1] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %5 = kernel.reshape %4 : tensor<2x4x16x16xf32> -> tensor<8x16x16xf32>
  %6 = kernel.matmul %2, %5 : tensor<8x16x16xf32>, tensor<8x16x16xf32> -> tensor<8x16x16xf32>
  %7 = kernel.reshape %6 : tensor<8x16x16xf32> -> tensor<2x4x16x16xf32>
  %8 = kernel.mul_scalar %7, 2.500000e-01 : tensor<2x4x16x16xf32> -> tensor<2x4x16x16xf32>
  %9 = kernel.reduce_max %8 dim 3 : tensor<2x4x16x16xf32> -> tensor<2x4x16x1xf32>
  %10 = kernel.sub %8, %9 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32> -> tensor<2x4x16x16xf32>
  %11 = kernel.exp %10 : tensor<2x4x16x16xf32> -> tensor<2x4x16x16xf32>
  %12 = kernel.reduce_sum %11 dim 3 : tensor<2x4x16x16xf32> -> tensor<2x4x16x1xf32>
  %13 = kernel.div %11, %12 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32> -> tensor<2x4x16x16xf32>
  %14 = kernel.reshape %13 : tensor<2x4x16x16xf32> -> tensor<8x16x16xf32>
  %15 = kernel.reshape %arg2 : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %16 = kernel.transpose %15 permutation [0, 2, 1, 3] : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %17 = kernel.reshape %16 : tensor<2x4x16x16xf32> -> tensor<8x16x16xf32>
  %18 = kernel.matmul %14, %17 : tensor<8x16x16xf32>, tensor<8x16x16xf32> -> tensor<8x16x16xf32>
  %19 = kernel.reshape %18 : tensor<8x16x16xf32> -> tensor<2x4x16x16xf32>
  %20 = kernel.transpose %19 permutation [0, 2, 1, 3] : tensor<2x4x16x16xf32> -> tensor<2x16x4x16xf32>
  %21 = kernel.reshape %20 : tensor<2x16x4x16xf32> -> tensor<2x16x64xf32>
  func.return %21 : tensor<2x16x64xf32>
}

