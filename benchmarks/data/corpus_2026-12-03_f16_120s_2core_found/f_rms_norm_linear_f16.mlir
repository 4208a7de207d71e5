// search seconds: 26.0
builtin.module {
  func.func @f_rms_norm_linear(%0: tensor<16x4096xf16>, %1: tensor<4096xf16>, %2: tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    %3 = kernel.reshape %1 : tensor<4096xf16> -> tensor<1x4096xf16>
    %4 = kernel.graph(%0, %3, %2) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<1x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<1x4096xf16>, %7: tensor<11008x4096xf16>):
      %8, %9 = block.for_loop : tensor<16x1xf32>, tensor<16x64xf32> {
        %10 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %11 = block.input %6 imap [-1, -1, -1] forloop_dim 1 : tensor<1x4096xf16> -> tensor<1x256xf16>
        %12 = block.input %7 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<256x64xf16>
        %13 = block.accum_rms_last %10 eps 1.0013580322265625e-05 : tensor<16x256xf16> -> tensor<16x1xf32>
        %14 = block.mul %10, %11 : tensor<16x256xf16>, tensor<1x256xf16> -> tensor<16x256xf16>
        %15 = block.matmul %14, %12 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %16 = block.accum_sum %15 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %13, %16 : tensor<16x1xf32>, tensor<16x64xf32>
      }
      %17 = block.div %9, %8 : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
      %18 = block.output %17 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %18 : tensor<16x11008xf16>
    }
    func.return %4 : tensor<16x11008xf16>
  }
}
