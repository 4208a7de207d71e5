// search seconds: 112.9
builtin.module {
  func.func @t5_attention(%0: tensor<2x32x1024x128xf16>, %1: tensor<2x32x1024x128xf16>, %2: tensor<2x32x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    %3 = kernel.graph(%0, %1, %2) grid [16, 2, 32] block [256, 1, 1] forloop 8 : (tensor<2x32x1024x128xf16>, tensor<2x32x1024x128xf16>, tensor<2x32x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    ^bb0(%4: tensor<2x32x1024x128xf16>, %5: tensor<2x32x1024x128xf16>, %6: tensor<2x32x1024x128xf16>):
      %7, %8 = block.for_loop : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> {
        %9 = block.input %4 imap [2, 0, 1] : tensor<2x32x1024x128xf16> -> tensor<1x1x64x128xf16>
        %10 = block.input %5 imap [-1, 0, 1] forloop_dim 3 view [2, 32, 128, 1024] strides [4194304, 131072, 1, 128] : tensor<2x32x1024x128xf16> -> tensor<1x1x128x128xf16>
        %11 = block.input %6 imap [-1, 0, 1] forloop_dim 2 : tensor<2x32x1024x128xf16> -> tensor<1x1x128x128xf16>
        %12 = block.matmul %9, %10 : tensor<1x1x64x128xf16>, tensor<1x1x128x128xf16> -> tensor<1x1x64x128xf32>
        %13 = block.reduce_max %12 dim 3 : tensor<1x1x64x128xf32> -> tensor<1x1x64x1xf32>
        %14 = block.sub %12, %13 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x128xf32>
        %15 = block.exp %14 : tensor<1x1x64x128xf32> -> tensor<1x1x64x128xf16>
        %16 = block.matmul %15, %11 : tensor<1x1x64x128xf16>, tensor<1x1x128x128xf16> -> tensor<1x1x64x128xf32>
        %17 = block.reduce_sum %15 dim 3 : tensor<1x1x64x128xf16> -> tensor<1x1x64x1xf32>
        %18 = block.accum_rescale %16, %13 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x128xf32>
        %19 = block.accum_rescale %17, %13 : tensor<1x1x64x1xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x1xf32>
        block.yield %18, %19 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32>
      }
      %20 = block.div %7, %8 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x128xf32>
      %21 = block.output %20 omap [2, 0, 1] : tensor<1x1x64x128xf32> -> tensor<2x32x1024x128xf16>
      block.return %21 : tensor<2x32x1024x128xf16>
    }
    func.return %3 : tensor<2x32x1024x128xf16>
  }
}
