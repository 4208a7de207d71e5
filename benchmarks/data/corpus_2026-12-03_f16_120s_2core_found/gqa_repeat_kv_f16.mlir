// search seconds: 118.5
builtin.module {
  func.func @gqa_repeat_kv(%arg0: tensor<2x32x1024x128xf16>, %arg1: tensor<2x8x1024x128xf16>, %arg2: tensor<2x8x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    %0 = kernel.reshape %arg0 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %1 = kernel.reshape %arg1 : tensor<2x8x1024x128xf16> -> tensor<2x8x1x1024x128xf16>
    %2 = kernel.constant 1.000000e+00 : tensor<2x8x4x1024x128xf16>
    %3 = kernel.mul %1, %2 : tensor<2x8x1x1024x128xf16>, tensor<2x8x4x1024x128xf16> -> tensor<2x8x4x1024x128xf16>
    %4 = kernel.reshape %3 : tensor<2x8x4x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %5 = kernel.transpose %4 permutation [0, 1, 3, 2] : tensor<2x32x1024x128xf16> -> tensor<2x32x128x1024xf16>
    %6 = kernel.reshape %5 : tensor<2x32x128x1024xf16> -> tensor<64x128x1024xf16>
    %7 = kernel.matmul %0, %6 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16> -> tensor<64x1024x1024xf16>
    %8 = kernel.reshape %7 : tensor<64x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %9 = kernel.mul_scalar %8, 0.088397790055248615 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %10 = kernel.reduce_max %9 dim 3 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1xf32>
    %11 = kernel.sub %9, %10 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf32>
    %12 = kernel.exp %11 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1024xf32>
    %13 = kernel.reduce_sum %12 dim 3 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1xf32>
    %14 = kernel.div %12, %13 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf16>
    %15 = kernel.reshape %14 : tensor<2x32x1024x1024xf16> -> tensor<64x1024x1024xf16>
    %16 = kernel.reshape %arg2 : tensor<2x8x1024x128xf16> -> tensor<2x8x1x1024x128xf16>
    %17 = kernel.mul %16, %2 : tensor<2x8x1x1024x128xf16>, tensor<2x8x4x1024x128xf16> -> tensor<2x8x4x1024x128xf16>
    %18 = kernel.reshape %17 : tensor<2x8x4x1024x128xf16> -> tensor<64x1024x128xf16>
    %19 = kernel.matmul %15, %18 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    %20 = kernel.reshape %19 : tensor<64x1024x128xf16> -> tensor<2x32x1024x128xf16>
    func.return %20 : tensor<2x32x1024x128xf16>
  }
}
