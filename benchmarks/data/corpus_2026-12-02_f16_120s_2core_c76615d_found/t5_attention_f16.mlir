// search seconds: 129.5
builtin.module {
  func.func @t5_attention(%arg0: tensor<2x32x1024x128xf16>, %arg1: tensor<2x32x1024x128xf16>, %arg2: tensor<2x32x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    %0 = kernel.reshape %arg0 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %1 = kernel.transpose %arg1 permutation [0, 1, 3, 2] : tensor<2x32x1024x128xf16> -> tensor<2x32x128x1024xf16>
    %2 = kernel.reshape %1 : tensor<2x32x128x1024xf16> -> tensor<64x128x1024xf16>
    %3 = kernel.matmul %0, %2 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16> -> tensor<64x1024x1024xf16>
    %4 = kernel.reshape %3 : tensor<64x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %5 = kernel.reduce_max %4 dim 3 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1xf32>
    %6 = kernel.sub %4, %5 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf32>
    %7 = kernel.exp %6 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1024xf32>
    %8 = kernel.reduce_sum %7 dim 3 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1xf32>
    %9 = kernel.div %7, %8 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf16>
    %10 = kernel.reshape %9 : tensor<2x32x1024x1024xf16> -> tensor<64x1024x1024xf16>
    %11 = kernel.reshape %arg2 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %12 = kernel.matmul %10, %11 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    %13 = kernel.reshape %12 : tensor<64x1024x128xf16> -> tensor<2x32x1024x128xf16>
    func.return %13 : tensor<2x32x1024x128xf16>
  }
}
