// search seconds: 77.9
builtin.module {
  func.func @rotary_embedding(%0: tensor<64x1024x128xf16>, %1: tensor<64x1024x128xf16>, %2: tensor<1024x128xf16>, %3: tensor<1024x128xf16>) -> (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) {
    %4 = kernel.reshape %2 : tensor<1024x128xf16> -> tensor<1x1024x128xf16>
    %5 = kernel.reshape %3 : tensor<1024x128xf16> -> tensor<1x1024x128xf16>
    %6, %7 = kernel.graph(%0, %4, %0, %0, %5, %1) grid [16, 64, 1] block [128, 1, 1] forloop 1 : (tensor<64x1024x128xf16>, tensor<1x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>, tensor<1x1024x128xf16>, tensor<64x1024x128xf16>) -> (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) {
    ^bb0(%8: tensor<64x1024x128xf16>, %9: tensor<1x1024x128xf16>, %10: tensor<64x1024x128xf16>, %11: tensor<64x1024x128xf16>, %12: tensor<1x1024x128xf16>, %13: tensor<64x1024x128xf16>):
      %14, %15 = block.for_loop : tensor<4x16x128xf32>, tensor<4x16x128xf32> {
        %16 = block.input %8 imap [0, 1, -1] : tensor<64x1024x128xf16> -> tensor<4x16x128xf16>
        %17 = block.input %9 imap [-1, 1, -1] : tensor<1x1024x128xf16> -> tensor<1x16x128xf16>
        %18 = block.input %10 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] offset 64 : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %19 = block.input %11 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %20 = block.input %12 imap [-1, 1, -1] : tensor<1x1024x128xf16> -> tensor<1x16x128xf16>
        %21 = block.input %13 imap [0, 1, -1] : tensor<64x1024x128xf16> -> tensor<4x16x128xf16>
        %22 = block.mul %16, %17 : tensor<4x16x128xf16>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %23 = block.mul_scalar %18, -1.000000e+00 : tensor<4x16x64xf16> -> tensor<4x16x64xf32>
        %24 = block.concat %23, %19 dim 2 : tensor<4x16x64xf32>, tensor<4x16x64xf16> -> tensor<4x16x128xf32>
        %25 = block.mul %24, %20 : tensor<4x16x128xf32>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %26 = block.add %22, %25 : tensor<4x16x128xf32>, tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %27 = block.mul %21, %17 : tensor<4x16x128xf16>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %28 = block.accum_sum %26 : tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %29 = block.accum_sum %27 : tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        block.yield %28, %29 : tensor<4x16x128xf32>, tensor<4x16x128xf32>
      }
      %30 = block.output %14 omap [0, 1, -1] : tensor<4x16x128xf32> -> tensor<64x1024x128xf16>
      %31 = block.output %15 omap [0, 1, -1] : tensor<4x16x128xf32> -> tensor<64x1024x128xf16>
      block.return %30, %31 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>
    }
    %8 = kernel.graph(%5, %1, %1, %7) grid [16, 64, 1] block [128, 1, 1] forloop 1 : (tensor<1x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) -> tensor<64x1024x128xf16> {
    ^bb0(%9: tensor<1x1024x128xf16>, %10: tensor<64x1024x128xf16>, %11: tensor<64x1024x128xf16>, %12: tensor<64x1024x128xf16>):
      %13 = block.for_loop : tensor<4x16x128xf32> {
        %14 = block.input %9 imap [-1, 1, -1] : tensor<1x1024x128xf16> -> tensor<1x16x128xf16>
        %15 = block.input %10 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] offset 64 : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %16 = block.input %11 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %17 = block.input %12 imap [0, 1, -1] : tensor<64x1024x128xf16> -> tensor<4x16x128xf16>
        %18 = block.mul_scalar %15, -1.000000e+00 : tensor<4x16x64xf16> -> tensor<4x16x64xf32>
        %19 = block.concat %18, %16 dim 2 : tensor<4x16x64xf32>, tensor<4x16x64xf16> -> tensor<4x16x128xf32>
        %20 = block.mul %19, %14 : tensor<4x16x128xf32>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %21 = block.add %17, %20 : tensor<4x16x128xf16>, tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %22 = block.accum_sum %21 : tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        block.yield %22 : tensor<4x16x128xf32>
      }
      %23 = block.output %13 omap [0, 1, -1] : tensor<4x16x128xf32> -> tensor<64x1024x128xf16>
      block.return %23 : tensor<64x1024x128xf16>
    }
    func.return %6, %8 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>
  }
}
