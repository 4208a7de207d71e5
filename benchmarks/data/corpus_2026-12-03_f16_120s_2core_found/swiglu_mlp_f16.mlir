// search seconds: 116.5
builtin.module {
  func.func @swiglu_mlp(%0: tensor<16x4096xf16>, %1: tensor<11008x4096xf16>, %2: tensor<11008x4096xf16>, %3: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    %4 = kernel.graph(%0, %1) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<11008x4096xf16>):
      %7 = block.for_loop : tensor<16x64xf32> {
        %8 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %9 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<256x64xf16>
        %10 = block.matmul %8, %9 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %11 = block.accum_sum %10 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %11 : tensor<16x64xf32>
      }
      %12 = block.output %7 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %12 : tensor<16x11008xf16>
    }
    %5 = kernel.silu %4 : tensor<16x11008xf16> -> tensor<16x11008xf16>
    %6 = kernel.graph(%0, %2) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%7: tensor<16x4096xf16>, %8: tensor<11008x4096xf16>):
      %9 = block.for_loop : tensor<16x64xf32> {
        %10 = block.input %7 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %11 = block.input %8 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<256x64xf16>
        %12 = block.matmul %10, %11 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %13 = block.accum_sum %12 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %13 : tensor<16x64xf32>
      }
      %14 = block.output %9 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %14 : tensor<16x11008xf16>
    }
    %7 = kernel.mul %5, %6 : tensor<16x11008xf16>, tensor<16x11008xf16> -> tensor<16x11008xf16>
    %8 = kernel.graph(%7, %3) grid [128, 1, 1] block [128, 1, 1] forloop 43 : (tensor<16x11008xf16>, tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    ^bb0(%9: tensor<16x11008xf16>, %10: tensor<4096x11008xf16>):
      %11 = block.for_loop : tensor<16x32xf32> {
        %12 = block.input %9 imap [-1, -1, -1] forloop_dim 1 : tensor<16x11008xf16> -> tensor<16x256xf16>
        %13 = block.input %10 imap [1, -1, -1] forloop_dim 0 view [11008, 4096] strides [1, 11008] : tensor<4096x11008xf16> -> tensor<256x32xf16>
        %14 = block.matmul %12, %13 : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
        %15 = block.accum_sum %14 : tensor<16x32xf32> -> tensor<16x32xf32>
        block.yield %15 : tensor<16x32xf32>
      }
      %16 = block.output %11 omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x4096xf16>
      block.return %16 : tensor<16x4096xf16>
    }
    func.return %8 : tensor<16x4096xf16>
  }
}
