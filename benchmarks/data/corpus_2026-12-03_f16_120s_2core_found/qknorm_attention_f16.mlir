// search seconds: 93.5
builtin.module {
  func.func @qknorm_attention(%0: tensor<2x32x1024x128xf16>, %1: tensor<2x32x1024x128xf16>, %2: tensor<2x32x1024x128xf16>, %3: tensor<128xf16>, %4: tensor<128xf16>) -> tensor<2x32x1024x128xf16> {
    %5 = kernel.rms_norm %0 eps 9.9999999747524271e-07 : tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %6 = kernel.reshape %3 : tensor<128xf16> -> tensor<1x1x1x128xf16>
    %7 = kernel.mul %6, %5 : tensor<1x1x1x128xf16>, tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %8 = kernel.rms_norm %1 eps 9.9999999747524271e-07 : tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %9 = kernel.reshape %4 : tensor<128xf16> -> tensor<1x1x1x128xf16>
    %10 = kernel.mul %9, %8 : tensor<1x1x1x128xf16>, tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %11 = kernel.transpose %10 permutation [0, 1, 3, 2] : tensor<2x32x1024x128xf16> -> tensor<2x32x128x1024xf16>
    %12 = kernel.matmul %7, %11 : tensor<2x32x1024x128xf16>, tensor<2x32x128x1024xf16> -> tensor<2x32x1024x1024xf16>
    %13 = kernel.mul_scalar %12, 0.088397790055248615 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %14 = kernel.reduce_max %13 dim 3 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1xf32>
    %15 = kernel.sub %13, %14 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf32>
    %16 = kernel.exp %15 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1024xf32>
    %17 = kernel.reduce_sum %16 dim 3 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1xf32>
    %18 = kernel.div %16, %17 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf16>
    %19 = kernel.matmul %18, %2 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xf16>
    func.return %19 : tensor<2x32x1024x128xf16>
  }
}
