// search seconds: 120.1
builtin.module {
  func.func @softmax(%arg0: tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    %0 = kernel.reduce_max %arg0 dim 1 : tensor<256x8192xf16> -> tensor<256x1xf32>
    %1 = kernel.sub %arg0, %0 : tensor<256x8192xf16>, tensor<256x1xf32> -> tensor<256x8192xf32>
    %2 = kernel.exp %1 : tensor<256x8192xf32> -> tensor<256x8192xf32>
    %3 = kernel.reduce_sum %2 dim 1 : tensor<256x8192xf32> -> tensor<256x1xf32>
    %4 = kernel.div %2, %3 : tensor<256x8192xf32>, tensor<256x1xf32> -> tensor<256x8192xf16>
    func.return %4 : tensor<256x8192xf16>
  }
}
