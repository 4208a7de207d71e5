// search seconds: 92.7
builtin.module {
  func.func @prescaled_attention(%0: tensor<64x1024x128xf16>, %1: tensor<64x1024x128xf16>, %2: tensor<64x1024x128xf16>) -> tensor<64x1024x128xf16> {
    %3 = kernel.graph(%0, %1, %2) grid [16, 64, 1] block [256, 1, 1] forloop 8 : (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) -> tensor<64x1024x128xf16> {
    ^bb0(%4: tensor<64x1024x128xf16>, %5: tensor<64x1024x128xf16>, %6: tensor<64x1024x128xf16>):
      %7, %8 = block.for_loop : tensor<1x64x128xf32>, tensor<1x64x1xf32> {
        %9 = block.input %4 imap [1, 0, -1] : tensor<64x1024x128xf16> -> tensor<1x64x128xf16>
        %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 view [64, 128, 1024] strides [131072, 1, 128] : tensor<64x1024x128xf16> -> tensor<1x128x128xf16>
        %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<64x1024x128xf16> -> tensor<1x128x128xf16>
        %12 = block.mul_scalar %9, 0.08837890625 : tensor<1x64x128xf16> -> tensor<1x64x128xf16>
        %13 = block.matmul %12, %10 : tensor<1x64x128xf16>, tensor<1x128x128xf16> -> tensor<1x64x128xf32>
        %14 = block.reduce_max %13 dim 2 : tensor<1x64x128xf32> -> tensor<1x64x1xf32>
        %15 = block.sub %13, %14 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
        %16 = block.exp %15 : tensor<1x64x128xf32> -> tensor<1x64x128xf16>
        %17 = block.matmul %16, %11 : tensor<1x64x128xf16>, tensor<1x128x128xf16> -> tensor<1x64x128xf32>
        %18 = block.reduce_sum %16 dim 2 : tensor<1x64x128xf16> -> tensor<1x64x1xf32>
        %19 = block.accum_rescale %17, %14 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
        %20 = block.accum_rescale %18, %14 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
        block.yield %19, %20 : tensor<1x64x128xf32>, tensor<1x64x1xf32>
      }
      %21 = block.div %7, %8 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
      %22 = block.output %21 omap [1, 0, -1] : tensor<1x64x128xf32> -> tensor<64x1024x128xf16>
      block.return %22 : tensor<64x1024x128xf16>
    }
    func.return %3 : tensor<64x1024x128xf16>
  }
}
