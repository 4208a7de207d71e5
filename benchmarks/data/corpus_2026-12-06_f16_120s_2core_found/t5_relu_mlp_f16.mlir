// search seconds: 25.2
builtin.module {
  func.func @t5_relu_mlp(%0: tensor<64x2048xf16>, %1: tensor<5120x2048xf16>, %2: tensor<2048x5120xf16>) -> tensor<64x2048xf16> {
    %3 = kernel.graph(%0, %1) grid [2, 80, 1] block [128, 1, 1] forloop 8 : (tensor<64x2048xf16>, tensor<5120x2048xf16>) -> tensor<64x5120xf16> {
    ^bb0(%4: tensor<64x2048xf16>, %5: tensor<5120x2048xf16>):
      %6 = block.for_loop : tensor<32x64xf32> {
        %7 = block.input %4 imap [0, -1, -1] forloop_dim 1 : tensor<64x2048xf16> -> tensor<32x256xf16>
        %8 = block.input %5 imap [-1, 1, -1] forloop_dim 0 view [2048, 5120] strides [1, 2048] : tensor<5120x2048xf16> -> tensor<256x64xf16>
        %9 = block.matmul %7, %8 : tensor<32x256xf16>, tensor<256x64xf16> -> tensor<32x64xf32>
        %10 = block.accum_sum %9 : tensor<32x64xf32> -> tensor<32x64xf32>
        block.yield %10 : tensor<32x64xf32>
      }
      %11 = block.relu %6 : tensor<32x64xf32> -> tensor<32x64xf32>
      %12 = block.output %11 omap [0, 1, -1] : tensor<32x64xf32> -> tensor<64x5120xf16>
      block.return %12 : tensor<64x5120xf16>
    }
    %4 = kernel.graph(%2, %3) grid [4, 32, 1] block [256, 1, 1] forloop 20 : (tensor<2048x5120xf16>, tensor<64x5120xf16>) -> tensor<64x2048xf16> {
    ^bb0(%5: tensor<2048x5120xf16>, %6: tensor<64x5120xf16>):
      %7 = block.for_loop : tensor<16x64xf32> {
        %8 = block.input %5 imap [-1, 1, -1] forloop_dim 0 view [5120, 2048] strides [1, 5120] : tensor<2048x5120xf16> -> tensor<256x64xf16>
        %9 = block.input %6 imap [0, -1, -1] forloop_dim 1 : tensor<64x5120xf16> -> tensor<16x256xf16>
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
