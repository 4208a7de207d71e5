// search seconds: 92.5
builtin.module {
  func.func @qknorm_attention(%0: tensor<2x32x1024x128xf16>, %1: tensor<2x32x1024x128xf16>, %2: tensor<2x32x1024x128xf16>, %3: tensor<128xf16>, %4: tensor<128xf16>) -> tensor<2x32x1024x128xf16> {
    %5 = kernel.reshape %3 : tensor<128xf16> -> tensor<1x1x1x128xf16>
    %6 = kernel.reshape %4 : tensor<128xf16> -> tensor<1x1x128x1xf16>
    %7 = kernel.graph(%0, %5, %1, %6, %2) grid [16, 2, 32] block [256, 1, 1] forloop 16 : (tensor<2x32x1024x128xf16>, tensor<1x1x1x128xf16>, tensor<2x32x1024x128xf16>, tensor<1x1x128x1xf16>, tensor<2x32x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    ^bb0(%8: tensor<2x32x1024x128xf16>, %9: tensor<1x1x1x128xf16>, %10: tensor<2x32x1024x128xf16>, %11: tensor<1x1x128x1xf16>, %12: tensor<2x32x1024x128xf16>):
      %13, %14 = block.for_loop : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> {
        %15 = block.input %8 imap [2, 0, 1] : tensor<2x32x1024x128xf16> -> tensor<1x1x64x128xf16>
        %16 = block.input %9 imap [-1, -1, -1] : tensor<1x1x1x128xf16> -> tensor<1x1x1x128xf16>
        %17 = block.input %10 imap [-1, 0, 1] forloop_dim 3 view [2, 32, 128, 1024] strides [4194304, 131072, 1, 128] : tensor<2x32x1024x128xf16> -> tensor<1x1x128x64xf16>
        %18 = block.input %11 imap [-1, -1, -1] : tensor<1x1x128x1xf16> -> tensor<1x1x128x1xf16>
        %19 = block.input %12 imap [-1, 0, 1] forloop_dim 2 : tensor<2x32x1024x128xf16> -> tensor<1x1x64x128xf16>
        %20 = block.rms_norm %15 eps 9.9999999747524271e-07 : tensor<1x1x64x128xf16> -> tensor<1x1x64x128xf32>
        %21 = block.mul %16, %20 : tensor<1x1x1x128xf16>, tensor<1x1x64x128xf32> -> tensor<1x1x64x128xf16>
        %22 = block.square %17 : tensor<1x1x128x64xf16> -> tensor<1x1x128x64xf32>
        %23 = block.reduce_sum %22 dim 2 : tensor<1x1x128x64xf32> -> tensor<1x1x1x64xf32>
        %24 = block.mul_scalar %23, 7.812500e-03 : tensor<1x1x1x64xf32> -> tensor<1x1x1x64xf32>
        %25 = block.add_scalar %24, 9.9999999747524271e-07 : tensor<1x1x1x64xf32> -> tensor<1x1x1x64xf32>
        %26 = block.sqrt %25 : tensor<1x1x1x64xf32> -> tensor<1x1x1x64xf32>
        %27 = block.div %17, %26 : tensor<1x1x128x64xf16>, tensor<1x1x1x64xf32> -> tensor<1x1x128x64xf32>
        %28 = block.mul %18, %27 : tensor<1x1x128x1xf16>, tensor<1x1x128x64xf32> -> tensor<1x1x128x64xf16>
        %29 = block.matmul %21, %28 : tensor<1x1x64x128xf16>, tensor<1x1x128x64xf16> -> tensor<1x1x64x64xf32>
        %30 = block.mul_scalar %29, 0.088397790055248615 : tensor<1x1x64x64xf32> -> tensor<1x1x64x64xf32>
        %31 = block.reduce_max %30 dim 3 : tensor<1x1x64x64xf32> -> tensor<1x1x64x1xf32>
        %32 = block.sub %30, %31 : tensor<1x1x64x64xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x64xf32>
        %33 = block.exp %32 : tensor<1x1x64x64xf32> -> tensor<1x1x64x64xf16>
        %34 = block.matmul %33, %19 : tensor<1x1x64x64xf16>, tensor<1x1x64x128xf16> -> tensor<1x1x64x128xf32>
        %35 = block.reduce_sum %33 dim 3 : tensor<1x1x64x64xf16> -> tensor<1x1x64x1xf32>
        %36 = block.accum_rescale %34, %31 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x128xf32>
        %37 = block.accum_rescale %35, %31 : tensor<1x1x64x1xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x1xf32>
        block.yield %36, %37 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32>
      }
      %38 = block.div %13, %14 : tensor<1x1x64x128xf32>, tensor<1x1x64x1xf32> -> tensor<1x1x64x128xf32>
      %39 = block.output %38 omap [2, 0, 1] : tensor<1x1x64x128xf32> -> tensor<2x32x1024x128xf16>
      block.return %39 : tensor<2x32x1024x128xf16>
    }
    func.return %7 : tensor<2x32x1024x128xf16>
  }
}
