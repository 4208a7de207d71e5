// search seconds: 87.5
builtin.module {
  func.func @layernorm_linear(%0: tensor<256x2048xf16>, %1: tensor<2048xf16>, %2: tensor<2048xf16>, %3: tensor<8192x2048xf16>, %4: tensor<8192xf16>) -> tensor<256x8192xf16> {
    %5 = kernel.reduce_sum %0 dim 1 : tensor<256x2048xf16> -> tensor<256x1xf32>
    %6 = kernel.mul_scalar %5, 0.00048828125 : tensor<256x1xf32> -> tensor<256x1xf32>
    %7 = kernel.sub %0, %6 : tensor<256x2048xf16>, tensor<256x1xf32> -> tensor<256x2048xf32>
    %8 = kernel.reshape %1 : tensor<2048xf16> -> tensor<1x2048xf16>
    %9 = kernel.reshape %2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %10 = kernel.rms_norm %7 affine(%8, %9 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 9.9999997473787516e-06 : tensor<256x2048xf32> -> tensor<256x2048xf16>
    %11 = kernel.graph(%10, %3) grid [2, 128, 1] block [128, 1, 1] forloop 16 : (tensor<256x2048xf16>, tensor<8192x2048xf16>) -> tensor<256x8192xf32> {
    ^bb0(%12: tensor<256x2048xf16>, %13: tensor<8192x2048xf16>):
      %14 = block.for_loop : tensor<128x64xf32> {
        %15 = block.input %12 imap [0, -1, -1] forloop_dim 1 : tensor<256x2048xf16> -> tensor<128x128xf16>
        %16 = block.input %13 imap [-1, 1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<128x64xf16>
        %17 = block.matmul %15, %16 : tensor<128x128xf16>, tensor<128x64xf16> -> tensor<128x64xf32>
        %18 = block.accum_sum %17 : tensor<128x64xf32> -> tensor<128x64xf32>
        block.yield %18 : tensor<128x64xf32>
      }
      %19 = block.output %14 omap [0, 1, -1] : tensor<128x64xf32> -> tensor<256x8192xf32>
      block.return %19 : tensor<256x8192xf32>
    }
    %12 = kernel.reshape %4 : tensor<8192xf16> -> tensor<1x8192xf16>
    %13 = kernel.add %11, %12 : tensor<256x8192xf32>, tensor<1x8192xf16> -> tensor<256x8192xf16>
    func.return %13 : tensor<256x8192xf16>
  }
}
