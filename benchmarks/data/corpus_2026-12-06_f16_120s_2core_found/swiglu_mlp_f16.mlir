// search seconds: 82.7
builtin.module {
  func.func @swiglu_mlp(%0: tensor<16x4096xf16>, %1: tensor<11008x4096xf16>, %2: tensor<11008x4096xf16>, %3: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    %4 = kernel.graph(%0, %1, %2) grid [172, 1, 1] block [128, 1, 1] forloop 32 : (tensor<16x4096xf16>, tensor<11008x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<11008x4096xf16>, %7: tensor<11008x4096xf16>):
      %8, %9 = block.for_loop : tensor<16x64xf32>, tensor<16x64xf32> {
        %10 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x128xf16>
        %11 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<128x64xf16>
        %12 = block.input %7 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<128x64xf16>
        %13 = block.matmul %10, %11 : tensor<16x128xf16>, tensor<128x64xf16> -> tensor<16x64xf32>
        %14 = block.matmul %10, %12 : tensor<16x128xf16>, tensor<128x64xf16> -> tensor<16x64xf32>
        %15 = block.accum_sum %13 : tensor<16x64xf32> -> tensor<16x64xf32>
        %16 = block.accum_sum %14 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %15, %16 : tensor<16x64xf32>, tensor<16x64xf32>
      }
      %17 = thread.fuse(%8, %9) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32> {
      ^bb0(%18: f32, %19: f32):
        %20 = thread.silu %18 : f32
        %21 = thread.mul %20, %19 : f32
        thread.yield %21 : f32
      }
      %22 = block.output %17 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %22 : tensor<16x11008xf16>
    }
    %5 = kernel.graph(%3, %4) grid [128, 1, 1] block [128, 1, 1] forloop 43 : (tensor<4096x11008xf16>, tensor<16x11008xf16>) -> tensor<16x4096xf16> {
    ^bb0(%6: tensor<4096x11008xf16>, %7: tensor<16x11008xf16>):
      %8 = block.for_loop : tensor<16x32xf32> {
        %9 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [11008, 4096] strides [1, 11008] : tensor<4096x11008xf16> -> tensor<256x32xf16>
        %10 = block.input %7 imap [-1, -1, -1] forloop_dim 1 : tensor<16x11008xf16> -> tensor<16x256xf16>
        %11 = block.matmul %10, %9 : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
        %12 = block.accum_sum %11 : tensor<16x32xf32> -> tensor<16x32xf32>
        block.yield %12 : tensor<16x32xf32>
      }
      %13 = block.output %8 omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x4096xf16>
      block.return %13 : tensor<16x4096xf16>
    }
    func.return %5 : tensor<16x4096xf16>
  }
}
