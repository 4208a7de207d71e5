// search seconds: 89.6
builtin.module {
  func.func @linear_chain(%0: tensor<64x2048xf16>, %1: tensor<8192x2048xf16>, %2: tensor<2048x8192xf16>) -> tensor<64x2048xf16> {
    %3 = kernel.graph(%0, %1) grid [128, 1, 1] block [256, 1, 1] forloop 16 : (tensor<64x2048xf16>, tensor<8192x2048xf16>) -> tensor<64x8192xf16> {
    ^bb0(%4: tensor<64x2048xf16>, %5: tensor<8192x2048xf16>):
      %6 = block.for_loop : tensor<64x64xf32> {
        %7 = block.input %4 imap [-1, -1, -1] forloop_dim 1 : tensor<64x2048xf16> -> tensor<64x128xf16>
        %8 = block.input %5 imap [1, -1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<128x64xf16>
        %9 = block.matmul %7, %8 : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf32>
        %10 = block.accum_sum %9 : tensor<64x64xf32> -> tensor<64x64xf32>
        block.yield %10 : tensor<64x64xf32>
      }
      %11 = block.output %6 omap [1, -1, -1] : tensor<64x64xf32> -> tensor<64x8192xf16>
      block.return %11 : tensor<64x8192xf16>
    }
    %4 = kernel.graph(%2, %3) grid [4, 32, 1] block [256, 1, 1] forloop 32 : (tensor<2048x8192xf16>, tensor<64x8192xf16>) -> tensor<64x2048xf16> {
    ^bb0(%5: tensor<2048x8192xf16>, %6: tensor<64x8192xf16>):
      %7 = block.for_loop : tensor<16x64xf32> {
        %8 = block.input %5 imap [-1, 1, -1] forloop_dim 0 view [8192, 2048] strides [1, 8192] : tensor<2048x8192xf16> -> tensor<256x64xf16>
        %9 = block.input %6 imap [0, -1, -1] forloop_dim 1 : tensor<64x8192xf16> -> tensor<16x256xf16>
        %10 = block.matmul %9, %8 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %11 = block.accum_sum %10 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %11 : tensor<16x64xf32>
      }
      %12 = block.output %7 omap [0, 1, -1] : tensor<16x64xf32> -> tensor<64x2048xf16>
      block.return %12 : tensor<64x2048xf16>
    }
    func.return %4 : tensor<64x2048xf16>
  }
}
