// search seconds: 138.2
builtin.module {
  func.func @qknorm_attention(%arg0: tensor<2x32x1024x128xf16>, %arg1: tensor<2x32x1024x128xf16>, %arg2: tensor<2x32x1024x128xf16>, %arg3: tensor<128xf16>, %arg4: tensor<128xf16>) -> tensor<2x32x1024x128xf16> {
    %0 = kernel.reshape %arg3 : tensor<128xf16> -> tensor<1x1x1x128xf16>
    %1 = kernel.rms_norm %arg0 eps 9.9999999747524271e-07 : tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %2 = kernel.mul %0, %1 : tensor<1x1x1x128xf16>, tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %3 = kernel.reshape %2 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %4 = kernel.reshape %arg4 : tensor<128xf16> -> tensor<1x1x1x128xf16>
    %5 = kernel.rms_norm %arg1 eps 9.9999999747524271e-07 : tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %6 = kernel.mul %4, %5 : tensor<1x1x1x128xf16>, tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %7 = kernel.transpose %6 permutation [0, 1, 3, 2] : tensor<2x32x1024x128xf16> -> tensor<2x32x128x1024xf16>
    %8 = kernel.reshape %7 : tensor<2x32x128x1024xf16> -> tensor<64x128x1024xf16>
    %9 = kernel.matmul %3, %8 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16> -> tensor<64x1024x1024xf16>
    %10 = kernel.reshape %9 : tensor<64x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %11 = kernel.mul_scalar %10, 0.088397790055248615 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %12 = kernel.reduce_max %11 dim 3 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1xf32>
    %13 = kernel.sub %11, %12 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf32>
    %14 = kernel.exp %13 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1024xf32>
    %15 = kernel.reduce_sum %14 dim 3 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1xf32>
    %16 = kernel.div %14, %15 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf16>
    %17 = kernel.reshape %16 : tensor<2x32x1024x1024xf16> -> tensor<64x1024x1024xf16>
    %18 = kernel.reshape %arg2 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %19 = kernel.matmul %17, %18 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    %20 = kernel.reshape %19 : tensor<64x1024x128xf16> -> tensor<2x32x1024x128xf16>
    func.return %20 : tensor<2x32x1024x128xf16>
  }
}
