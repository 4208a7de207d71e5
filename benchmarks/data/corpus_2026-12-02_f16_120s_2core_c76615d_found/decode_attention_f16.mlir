// search seconds: 120.6
builtin.module {
  func.func @decode_attention(%arg0: tensor<256x1x128xf16>, %arg1: tensor<256x4096x128xf16>, %arg2: tensor<256x4096x128xf16>) -> tensor<256x1x128xf16> {
    %0 = kernel.transpose %arg1 permutation [0, 2, 1] : tensor<256x4096x128xf16> -> tensor<256x128x4096xf16>
    %1 = kernel.matmul %arg0, %0 : tensor<256x1x128xf16>, tensor<256x128x4096xf16> -> tensor<256x1x4096xf16>
    %2 = kernel.mul_scalar %1, 0.088397790055248615 : tensor<256x1x4096xf16> -> tensor<256x1x4096xf16>
    %3 = kernel.reduce_max %2 dim 2 : tensor<256x1x4096xf16> -> tensor<256x1x1xf32>
    %4 = kernel.sub %2, %3 : tensor<256x1x4096xf16>, tensor<256x1x1xf32> -> tensor<256x1x4096xf32>
    %5 = kernel.exp %4 : tensor<256x1x4096xf32> -> tensor<256x1x4096xf32>
    %6 = kernel.reduce_sum %5 dim 2 : tensor<256x1x4096xf32> -> tensor<256x1x1xf32>
    %7 = kernel.div %5, %6 : tensor<256x1x4096xf32>, tensor<256x1x1xf32> -> tensor<256x1x4096xf16>
    %8 = kernel.matmul %7, %arg2 : tensor<256x1x4096xf16>, tensor<256x4096x128xf16> -> tensor<256x1x128xf16>
    func.return %8 : tensor<256x1x128xf16>
  }
}
