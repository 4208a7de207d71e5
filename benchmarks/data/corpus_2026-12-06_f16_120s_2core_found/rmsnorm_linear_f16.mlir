// search seconds: 15.2
builtin.module {
  func.func @rmsnorm_linear(%0: tensor<16x4096xf16>, %1: tensor<4096xf16>, %2: tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    %3 = kernel.reshape %1 : tensor<4096xf16> -> tensor<1x4096xf16>
    %4 = kernel.graph(%0, %3, %2) grid [172, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<1x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<1x4096xf16>, %7: tensor<11008x4096xf16>):
      %8, %9 = block.for_loop : tensor<16x1xf32>, tensor<16x64xf32> {
        %10 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %11 = block.input %6 imap [-1, -1, -1] forloop_dim 1 : tensor<1x4096xf16> -> tensor<1x256xf16>
        %12 = block.input %7 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<256x64xf16>
        %13 = block.square %10 : tensor<16x256xf16> -> tensor<16x256xf32>
        %14 = block.reduce_sum %13 dim 1 : tensor<16x256xf32> -> tensor<16x1xf32>
        %15 = block.mul %10, %11 : tensor<16x256xf16>, tensor<1x256xf16> -> tensor<16x256xf16>
        %16 = block.matmul %15, %12 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %17 = block.accum_sum %14 : tensor<16x1xf32> -> tensor<16x1xf32>
        %18 = block.accum_sum %16 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %17, %18 : tensor<16x1xf32>, tensor<16x64xf32>
      }
      %19 = thread.fuse(%8, %9) : (tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32> {
      ^bb0(%20: f32, %21: f32):
        %22 = thread.mul_scalar %20, 0.000244140625 : f32
        %23 = thread.add_scalar %22, 9.9999999747524271e-07 : f32
        %24 = thread.sqrt %23 : f32
        %25 = thread.div %21, %24 : f32
        thread.yield %25 : f32
      }
      %26 = block.output %19 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %26 : tensor<16x11008xf16>
    }
    func.return %4 : tensor<16x11008xf16>
  }
}
