// search seconds: 124.3
builtin.module {
  func.func @fused_gate_up_mlp(%0: tensor<16x4096xf16>, %1: tensor<22016x4096xf16>, %2: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    %3 = kernel.graph(%0, %1) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<22016x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%4: tensor<16x4096xf16>, %5: tensor<22016x4096xf16>):
      %6 = block.for_loop : tensor<16x64xf32> {
        %7 = block.input %4 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %8 = block.input %5 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] offset 45088768 : tensor<22016x4096xf16> -> tensor<256x64xf16>
        %9 = block.matmul %7, %8 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %10 = block.accum_sum %9 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %10 : tensor<16x64xf32>
      }
      %11 = block.output %6 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %11 : tensor<16x11008xf16>
    }
    %4 = kernel.graph(%0, %1) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<22016x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<22016x4096xf16>):
      %7 = block.for_loop : tensor<16x64xf32> {
        %8 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %9 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<22016x4096xf16> -> tensor<256x64xf16>
        %10 = block.matmul %8, %9 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %11 = block.accum_sum %10 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %11 : tensor<16x64xf32>
      }
      %12 = block.output %7 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %12 : tensor<16x11008xf16>
    }
    %5 = kernel.silu %4 : tensor<16x11008xf16> -> tensor<16x11008xf16>
    %6 = kernel.mul %3, %5 : tensor<16x11008xf16>, tensor<16x11008xf16> -> tensor<16x11008xf16>
    %7 = kernel.graph(%6, %2) grid [128, 1, 1] block [128, 1, 1] forloop 43 : (tensor<16x11008xf16>, tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    ^bb0(%8: tensor<16x11008xf16>, %9: tensor<4096x11008xf16>):
      %10 = block.for_loop : tensor<16x32xf32> {
        %11 = block.input %8 imap [-1, -1, -1] forloop_dim 1 : tensor<16x11008xf16> -> tensor<16x256xf16>
        %12 = block.input %9 imap [1, -1, -1] forloop_dim 0 view [11008, 4096] strides [1, 11008] : tensor<4096x11008xf16> -> tensor<256x32xf16>
        %13 = block.matmul %11, %12 : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
        %14 = block.accum_sum %13 : tensor<16x32xf32> -> tensor<16x32xf32>
        block.yield %14 : tensor<16x32xf32>
      }
      %15 = block.output %10 omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x4096xf16>
      block.return %15 : tensor<16x4096xf16>
    }
    func.return %7 : tensor<16x4096xf16>
  }
}
