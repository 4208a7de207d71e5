// search seconds: 82.9
builtin.module {
  func.func @vit_mlp_block(%0: tensor<256x2048xf16>, %1: tensor<2048xf16>, %2: tensor<2048xf16>, %3: tensor<8192x2048xf16>, %4: tensor<8192xf16>, %5: tensor<2048x8192xf16>, %6: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %7 = kernel.reduce_sum %0 dim 1 : tensor<256x2048xf16> -> tensor<256x1xf32>
    %8 = kernel.mul_scalar %7, 0.00048828125 : tensor<256x1xf32> -> tensor<256x1xf32>
    %9 = kernel.sub %0, %8 : tensor<256x2048xf16>, tensor<256x1xf32> -> tensor<256x2048xf32>
    %10 = kernel.reshape %1 : tensor<2048xf16> -> tensor<1x2048xf16>
    %11 = kernel.reshape %2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %12 = kernel.rms_norm %9 affine(%10, %11 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 9.999999960041972e-13 : tensor<256x2048xf32> -> tensor<256x2048xf16>
    %13 = kernel.graph(%12, %3) grid [2, 128, 1] block [128, 1, 1] forloop 16 : (tensor<256x2048xf16>, tensor<8192x2048xf16>) -> tensor<256x8192xf32> {
    ^bb0(%14: tensor<256x2048xf16>, %15: tensor<8192x2048xf16>):
      %16 = block.for_loop : tensor<128x64xf32> {
        %17 = block.input %14 imap [0, -1, -1] forloop_dim 1 : tensor<256x2048xf16> -> tensor<128x128xf16>
        %18 = block.input %15 imap [-1, 1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<128x64xf16>
        %19 = block.matmul %17, %18 : tensor<128x128xf16>, tensor<128x64xf16> -> tensor<128x64xf32>
        %20 = block.accum_sum %19 : tensor<128x64xf32> -> tensor<128x64xf32>
        block.yield %20 : tensor<128x64xf32>
      }
      %21 = block.output %16 omap [0, 1, -1] : tensor<128x64xf32> -> tensor<256x8192xf32>
      block.return %21 : tensor<256x8192xf32>
    }
    %14 = kernel.reshape %4 : tensor<8192xf16> -> tensor<1x8192xf16>
    %15 = kernel.add %13, %14 : tensor<256x8192xf32>, tensor<1x8192xf16> -> tensor<256x8192xf16>
    %16 = kernel.gelu %15 : tensor<256x8192xf16> -> tensor<256x8192xf16>
    %17 = kernel.reshape %6 : tensor<2048xf16> -> tensor<1x2048xf16>
    %18 = kernel.graph(%0, %5, %17, %16) grid [4, 32, 1] block [256, 1, 1] forloop 64 : (tensor<256x2048xf16>, tensor<2048x8192xf16>, tensor<1x2048xf16>, tensor<256x8192xf16>) -> tensor<256x2048xf16> {
    ^bb0(%19: tensor<256x2048xf16>, %20: tensor<2048x8192xf16>, %21: tensor<1x2048xf16>, %22: tensor<256x8192xf16>):
      %23 = block.for_loop : tensor<64x64xf32> {
        %24 = block.input %20 imap [-1, 1, -1] forloop_dim 0 view [8192, 2048] strides [1, 8192] : tensor<2048x8192xf16> -> tensor<128x64xf16>
        %25 = block.input %22 imap [0, -1, -1] forloop_dim 1 : tensor<256x8192xf16> -> tensor<64x128xf16>
        %26 = block.matmul %25, %24 : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf32>
        %27 = block.accum_sum %26 : tensor<64x64xf32> -> tensor<64x64xf32>
        block.yield %27 : tensor<64x64xf32>
      }
      %28 = block.input %19 imap [0, 1, -1] : tensor<256x2048xf16> -> tensor<64x64xf16>
      %29 = block.input %21 imap [-1, 1, -1] : tensor<1x2048xf16> -> tensor<1x64xf16>
      %30 = block.add %23, %29 : tensor<64x64xf32>, tensor<1x64xf16> -> tensor<64x64xf32>
      %31 = block.add %28, %30 : tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %32 = block.output %31 omap [0, 1, -1] : tensor<64x64xf32> -> tensor<256x2048xf16>
      block.return %32 : tensor<256x2048xf16>
    }
    func.return %18 : tensor<256x2048xf16>
  }
}
