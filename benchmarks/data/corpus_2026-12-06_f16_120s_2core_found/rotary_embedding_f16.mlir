// search seconds: 50.8
builtin.module {
  func.func @rotary_embedding(%0: tensor<64x1024x128xf16>, %1: tensor<64x1024x128xf16>, %2: tensor<1024x128xf16>, %3: tensor<1024x128xf16>) -> (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) {
    %4 = kernel.reshape %2 : tensor<1024x128xf16> -> tensor<1x1024x128xf16>
    %5 = kernel.reshape %3 : tensor<1024x128xf16> -> tensor<1x1024x128xf16>
    %6, %7 = kernel.graph(%0, %4, %0, %0, %5, %1, %1, %1) grid [16, 64, 1] block [128, 1, 1] forloop 1 : (tensor<64x1024x128xf16>, tensor<1x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>, tensor<1x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) -> (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) {
    ^bb0(%8: tensor<64x1024x128xf16>, %9: tensor<1x1024x128xf16>, %10: tensor<64x1024x128xf16>, %11: tensor<64x1024x128xf16>, %12: tensor<1x1024x128xf16>, %13: tensor<64x1024x128xf16>, %14: tensor<64x1024x128xf16>, %15: tensor<64x1024x128xf16>):
      %16, %17 = block.for_loop : tensor<4x16x128xf32>, tensor<4x16x128xf32> {
        %18 = block.input %8 imap [0, 1, -1] : tensor<64x1024x128xf16> -> tensor<4x16x128xf16>
        %19 = block.input %9 imap [-1, 1, -1] : tensor<1x1024x128xf16> -> tensor<1x16x128xf16>
        %20 = block.input %10 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] offset 64 : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %21 = block.input %11 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %22 = block.input %12 imap [-1, 1, -1] : tensor<1x1024x128xf16> -> tensor<1x16x128xf16>
        %23 = block.input %13 imap [0, 1, -1] : tensor<64x1024x128xf16> -> tensor<4x16x128xf16>
        %24 = block.input %14 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] offset 64 : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %25 = block.input %15 imap [0, 1, -1] view [64, 1024, 64] strides [131072, 128, 1] : tensor<64x1024x128xf16> -> tensor<4x16x64xf16>
        %26 = block.mul %18, %19 : tensor<4x16x128xf16>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %27 = block.mul_scalar %20, -1.000000e+00 : tensor<4x16x64xf16> -> tensor<4x16x64xf32>
        %28 = block.concat %27, %21 dim 2 : tensor<4x16x64xf32>, tensor<4x16x64xf16> -> tensor<4x16x128xf32>
        %29 = block.mul %28, %22 : tensor<4x16x128xf32>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %30 = block.add %26, %29 : tensor<4x16x128xf32>, tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %31 = block.mul %23, %19 : tensor<4x16x128xf16>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %32 = block.mul_scalar %24, -1.000000e+00 : tensor<4x16x64xf16> -> tensor<4x16x64xf32>
        %33 = block.concat %32, %25 dim 2 : tensor<4x16x64xf32>, tensor<4x16x64xf16> -> tensor<4x16x128xf32>
        %34 = block.mul %33, %22 : tensor<4x16x128xf32>, tensor<1x16x128xf16> -> tensor<4x16x128xf32>
        %35 = block.add %31, %34 : tensor<4x16x128xf32>, tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %36 = block.accum_sum %30 : tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        %37 = block.accum_sum %35 : tensor<4x16x128xf32> -> tensor<4x16x128xf32>
        block.yield %36, %37 : tensor<4x16x128xf32>, tensor<4x16x128xf32>
      }
      %38 = block.output %16 omap [0, 1, -1] : tensor<4x16x128xf32> -> tensor<64x1024x128xf16>
      %39 = block.output %17 omap [0, 1, -1] : tensor<4x16x128xf32> -> tensor<64x1024x128xf16>
      block.return %38, %39 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>
    }
    func.return %6, %7 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>
  }
}
