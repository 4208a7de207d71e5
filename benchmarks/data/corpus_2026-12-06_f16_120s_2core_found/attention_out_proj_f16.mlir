// search seconds: 120.6
builtin.module {
  func.func @attention_out_proj(%arg0: tensor<2x1024x4096xf16>, %arg1: tensor<2x1024x4096xf16>, %arg2: tensor<2x1024x4096xf16>, %arg3: tensor<4096x4096xf16>, %arg4: tensor<4096xf16>) -> tensor<2x1024x4096xf16> {
    %0 = kernel.reshape %arg0 : tensor<2x1024x4096xf16> -> tensor<2x1024x32x128xf16>
    %1 = kernel.transpose %0 permutation [0, 2, 1, 3] : tensor<2x1024x32x128xf16> -> tensor<2x32x1024x128xf16>
    %2 = kernel.reshape %1 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %3 = kernel.reshape %arg1 : tensor<2x1024x4096xf16> -> tensor<2x1024x32x128xf16>
    %4 = kernel.transpose %3 permutation [0, 2, 3, 1] : tensor<2x1024x32x128xf16> -> tensor<2x32x128x1024xf16>
    %5 = kernel.reshape %4 : tensor<2x32x128x1024xf16> -> tensor<64x128x1024xf16>
    %6 = kernel.matmul %2, %5 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16> -> tensor<64x1024x1024xf16>
    %7 = kernel.reshape %6 : tensor<64x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %8 = kernel.mul_scalar %7, 0.08837890625 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1024xf16>
    %9 = kernel.reduce_max %8 dim 3 : tensor<2x32x1024x1024xf16> -> tensor<2x32x1024x1xf32>
    %10 = kernel.sub %8, %9 : tensor<2x32x1024x1024xf16>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf32>
    %11 = kernel.exp %10 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1024xf32>
    %12 = kernel.reduce_sum %11 dim 3 : tensor<2x32x1024x1024xf32> -> tensor<2x32x1024x1xf32>
    %13 = kernel.div %11, %12 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32> -> tensor<2x32x1024x1024xf16>
    %14 = kernel.reshape %13 : tensor<2x32x1024x1024xf16> -> tensor<64x1024x1024xf16>
    %15 = kernel.reshape %arg2 : tensor<2x1024x4096xf16> -> tensor<2x1024x32x128xf16>
    %16 = kernel.transpose %15 permutation [0, 2, 1, 3] : tensor<2x1024x32x128xf16> -> tensor<2x32x1024x128xf16>
    %17 = kernel.reshape %16 : tensor<2x32x1024x128xf16> -> tensor<64x1024x128xf16>
    %18 = kernel.matmul %14, %17 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    %19 = kernel.reshape %18 : tensor<64x1024x128xf16> -> tensor<2x32x1024x128xf16>
    %20 = kernel.transpose %19 permutation [0, 2, 1, 3] : tensor<2x32x1024x128xf16> -> tensor<2x1024x32x128xf16>
    %21 = kernel.reshape %20 : tensor<2x1024x32x128xf16> -> tensor<2048x4096xf16>
    %22 = kernel.transpose %arg3 permutation [1, 0] : tensor<4096x4096xf16> -> tensor<4096x4096xf16>
    %23 = kernel.matmul %21, %22 : tensor<2048x4096xf16>, tensor<4096x4096xf16> -> tensor<2048x4096xf32>
    %24 = kernel.reshape %arg4 : tensor<4096xf16> -> tensor<1x4096xf16>
    %25 = kernel.add %23, %24 : tensor<2048x4096xf32>, tensor<1x4096xf16> -> tensor<2048x4096xf16>
    %26 = kernel.reshape %25 : tensor<2048x4096xf16> -> tensor<2x1024x4096xf16>
    func.return %26 : tensor<2x1024x4096xf16>
  }
}
