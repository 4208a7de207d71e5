// search seconds: 47.2
builtin.module {
  func.func @linear_gelu(%0: tensor<256x2048xf16>, %1: tensor<8192x2048xf16>, %2: tensor<8192xf16>) -> tensor<256x8192xf16> {
    %3 = kernel.reshape %2 : tensor<8192xf16> -> tensor<1x8192xf16>
    %4 = kernel.graph(%0, %1, %3) grid [2, 128, 1] block [128, 1, 1] forloop 16 : (tensor<256x2048xf16>, tensor<8192x2048xf16>, tensor<1x8192xf16>) -> tensor<256x8192xf16> {
    ^bb0(%5: tensor<256x2048xf16>, %6: tensor<8192x2048xf16>, %7: tensor<1x8192xf16>):
      %8 = block.for_loop : tensor<128x64xf32> {
        %9 = block.input %5 imap [0, -1, -1] forloop_dim 1 : tensor<256x2048xf16> -> tensor<128x128xf16>
        %10 = block.input %6 imap [-1, 1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<128x64xf16>
        %11 = block.matmul %9, %10 : tensor<128x128xf16>, tensor<128x64xf16> -> tensor<128x64xf32>
        %12 = block.accum_sum %11 : tensor<128x64xf32> -> tensor<128x64xf32>
        block.yield %12 : tensor<128x64xf32>
      }
      %13 = block.input %7 imap [-1, 1, -1] : tensor<1x8192xf16> -> tensor<1x64xf16>
      %14 = block.add %8, %13 : tensor<128x64xf32>, tensor<1x64xf16> -> tensor<128x64xf32>
      %15 = block.gelu %14 : tensor<128x64xf32> -> tensor<128x64xf32>
      %16 = block.output %15 omap [0, 1, -1] : tensor<128x64xf32> -> tensor<256x8192xf16>
      block.return %16 : tensor<256x8192xf16>
    }
    func.return %4 : tensor<256x8192xf16>
  }
}
