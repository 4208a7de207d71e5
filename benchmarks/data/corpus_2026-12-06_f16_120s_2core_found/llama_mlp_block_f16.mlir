// search seconds: 120.1
builtin.module {
  func.func @llama_mlp_block(%0: tensor<16x4096xf16>, %1: tensor<4096xf16>, %2: tensor<11008x4096xf16>, %3: tensor<11008x4096xf16>, %4: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    %5 = kernel.reshape %1 : tensor<4096xf16> -> tensor<1x4096xf16>
    %6 = kernel.graph(%0, %5, %2, %3) grid [172, 1, 1] block [128, 1, 1] forloop 32 : (tensor<16x4096xf16>, tensor<1x4096xf16>, tensor<11008x4096xf16>, tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    ^bb0(%7: tensor<16x4096xf16>, %8: tensor<1x4096xf16>, %9: tensor<11008x4096xf16>, %10: tensor<11008x4096xf16>):
      %11, %12, %13 = block.for_loop : tensor<16x1xf32>, tensor<16x64xf32>, tensor<16x64xf32> {
        %14 = block.input %7 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x128xf16>
        %15 = block.input %8 imap [-1, -1, -1] forloop_dim 1 : tensor<1x4096xf16> -> tensor<1x128xf16>
        %16 = block.input %9 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<128x64xf16>
        %17 = block.input %10 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<128x64xf16>
        %18 = block.square %14 : tensor<16x128xf16> -> tensor<16x128xf32>
        %19 = block.reduce_sum %18 dim 1 : tensor<16x128xf32> -> tensor<16x1xf32>
        %20 = block.mul %14, %15 : tensor<16x128xf16>, tensor<1x128xf16> -> tensor<16x128xf16>
        %21 = block.matmul %20, %16 : tensor<16x128xf16>, tensor<128x64xf16> -> tensor<16x64xf32>
        %22 = block.matmul %20, %17 : tensor<16x128xf16>, tensor<128x64xf16> -> tensor<16x64xf32>
        %23 = block.accum_sum %19 : tensor<16x1xf32> -> tensor<16x1xf32>
        %24 = block.accum_sum %21 : tensor<16x64xf32> -> tensor<16x64xf32>
        %25 = block.accum_sum %22 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %23, %24, %25 : tensor<16x1xf32>, tensor<16x64xf32>, tensor<16x64xf32>
      }
      %26 = thread.fuse(%11) : (tensor<16x1xf32>) -> tensor<16x1xf32> {
      ^bb0(%27: f32):
        %28 = thread.mul_scalar %27, 0.000244140625 : f32
        %29 = thread.add_scalar %28, 9.9999999747524271e-07 : f32
        %30 = thread.sqrt %29 : f32
        thread.yield %30 : f32
      }
      %31 = thread.fuse(%12, %26, %13) : (tensor<16x64xf32>, tensor<16x1xf32>, tensor<16x64xf32>) -> tensor<16x64xf32> {
      ^bb0(%32: f32, %33: f32, %34: f32):
        %35 = thread.div %32, %33 : f32
        %36 = thread.silu %35 : f32
        %37 = thread.div %34, %33 : f32
        %38 = thread.mul %36, %37 : f32
        thread.yield %38 : f32
      }
      %39 = block.output %31 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x11008xf16>
      block.return %39 : tensor<16x11008xf16>
    }
    %7 = kernel.graph(%0, %4, %6) grid [128, 1, 1] block [128, 1, 1] forloop 43 : (tensor<16x4096xf16>, tensor<4096x11008xf16>, tensor<16x11008xf16>) -> tensor<16x4096xf16> {
    ^bb0(%8: tensor<16x4096xf16>, %9: tensor<4096x11008xf16>, %10: tensor<16x11008xf16>):
      %11 = block.for_loop : tensor<16x32xf32> {
        %12 = block.input %9 imap [1, -1, -1] forloop_dim 0 view [11008, 4096] strides [1, 11008] : tensor<4096x11008xf16> -> tensor<256x32xf16>
        %13 = block.input %10 imap [-1, -1, -1] forloop_dim 1 : tensor<16x11008xf16> -> tensor<16x256xf16>
        %14 = block.matmul %13, %12 : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
        %15 = block.accum_sum %14 : tensor<16x32xf32> -> tensor<16x32xf32>
        block.yield %15 : tensor<16x32xf32>
      }
      %16 = block.input %8 imap [1, -1, -1] : tensor<16x4096xf16> -> tensor<16x32xf16>
      %17 = block.add %16, %11 : tensor<16x32xf16>, tensor<16x32xf32> -> tensor<16x32xf32>
      %18 = block.output %17 omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x4096xf16>
      block.return %18 : tensor<16x4096xf16>
    }
    func.return %7 : tensor<16x4096xf16>
  }
}
