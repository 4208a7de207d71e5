// search seconds: 122.6
builtin.module {
  func.func @gqa_repeat_kv(%0: tensor<2x32x1024x128xf16>, %1: tensor<2x8x1024x128xf16>, %2: tensor<2x8x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    %3 = kernel.reshape %0 : tensor<2x32x1024x128xf16> -> tensor<2x8x4x1024x128xf16>
    %4 = kernel.reshape %2 : tensor<2x8x1024x128xf16> -> tensor<2x8x1x1024x128xf16>
    %5 = kernel.graph(%3, %1, %4) grid [2, 64, 8] block [256, 1, 1] forloop 8 : (tensor<2x8x4x1024x128xf16>, tensor<2x8x1024x128xf16>, tensor<2x8x1x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    ^bb0(%6: tensor<2x8x4x1024x128xf16>, %7: tensor<2x8x1024x128xf16>, %8: tensor<2x8x1x1024x128xf16>):
      %9, %10 = block.for_loop : tensor<1x1x4x16x128xf32>, tensor<1x1x4x16x1xf32> {
        %11 = block.input %6 imap [0, 3, 1] : tensor<2x8x4x1024x128xf16> -> tensor<1x1x4x16x128xf16>
        %12 = block.input %7 imap [0, -1, 1] forloop_dim 4 view [2, 8, 1, 128, 1024] strides [1048576, 131072, 128, 1, 128] : tensor<2x8x1024x128xf16> -> tensor<1x1x1x128x128xf16>
        %13 = block.input %8 imap [0, -1, 1] forloop_dim 3 : tensor<2x8x1x1024x128xf16> -> tensor<1x1x1x128x128xf16>
        %14 = block.matmul %11, %12 : tensor<1x1x4x16x128xf16>, tensor<1x1x1x128x128xf16> -> tensor<1x1x4x16x128xf32>
        %15 = block.mul_scalar %14, 0.088397790055248615 : tensor<1x1x4x16x128xf32> -> tensor<1x1x4x16x128xf32>
        %16 = block.reduce_max %15 dim 4 : tensor<1x1x4x16x128xf32> -> tensor<1x1x4x16x1xf32>
        %17 = block.sub %15, %16 : tensor<1x1x4x16x128xf32>, tensor<1x1x4x16x1xf32> -> tensor<1x1x4x16x128xf32>
        %18 = block.exp %17 : tensor<1x1x4x16x128xf32> -> tensor<1x1x4x16x128xf16>
        %19 = block.matmul %18, %13 : tensor<1x1x4x16x128xf16>, tensor<1x1x1x128x128xf16> -> tensor<1x1x4x16x128xf32>
        %20 = block.reduce_sum %18 dim 4 : tensor<1x1x4x16x128xf16> -> tensor<1x1x4x16x1xf32>
        %21 = block.accum_rescale %19, %16 : tensor<1x1x4x16x128xf32>, tensor<1x1x4x16x1xf32> -> tensor<1x1x4x16x128xf32>
        %22 = block.accum_rescale %20, %16 : tensor<1x1x4x16x1xf32>, tensor<1x1x4x16x1xf32> -> tensor<1x1x4x16x1xf32>
        block.yield %21, %22 : tensor<1x1x4x16x128xf32>, tensor<1x1x4x16x1xf32>
      }
      %23 = block.div %9, %10 : tensor<1x1x4x16x128xf32>, tensor<1x1x4x16x1xf32> -> tensor<1x1x4x16x128xf32>
      %24 = block.output %23 omap [0, 3, 1] view [2, 8, 4, 1024, 128] strides [4194304, 524288, 131072, 128, 1] : tensor<1x1x4x16x128xf32> -> tensor<2x32x1024x128xf16>
      block.return %24 : tensor<2x32x1024x128xf16>
    }
    func.return %5 : tensor<2x32x1024x128xf16>
  }
}
