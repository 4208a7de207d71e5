// search seconds: 124.1
builtin.module {
  func.func @prescaled_attention(%arg0: tensor<64x1024x128xf16>, %arg1: tensor<64x1024x128xf16>, %arg2: tensor<64x1024x128xf16>) -> tensor<64x1024x128xf16> {
    %0 = kernel.mul_scalar %arg0, 0.08837890625 : tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    %1 = kernel.transpose %arg1 permutation [0, 2, 1] : tensor<64x1024x128xf16> -> tensor<64x128x1024xf16>
    %2 = kernel.matmul %0, %1 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16> -> tensor<64x1024x1024xf16>
    %3 = kernel.reduce_max %2 dim 2 : tensor<64x1024x1024xf16> -> tensor<64x1024x1xf32>
    %4 = kernel.sub %2, %3 : tensor<64x1024x1024xf16>, tensor<64x1024x1xf32> -> tensor<64x1024x1024xf32>
    %5 = kernel.exp %4 : tensor<64x1024x1024xf32> -> tensor<64x1024x1024xf32>
    %6 = kernel.reduce_sum %5 dim 2 : tensor<64x1024x1024xf32> -> tensor<64x1024x1xf32>
    %7 = kernel.div %5, %6 : tensor<64x1024x1024xf32>, tensor<64x1024x1xf32> -> tensor<64x1024x1024xf16>
    %8 = kernel.matmul %7, %arg2 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x1024x128xf16>
    func.return %8 : tensor<64x1024x128xf16>
  }
}
