// search seconds: 72.0
builtin.module {
  func.func @gelu_tanh_mlp(%0: tensor<64x2048xf16>, %1: tensor<8192x2048xf16>, %2: tensor<8192xf16>, %3: tensor<2048x8192xf16>, %4: tensor<2048xf16>) -> tensor<64x2048xf16> {
    %5 = kernel.reshape %2 : tensor<8192xf16> -> tensor<1x8192xf16>
    %6 = kernel.graph(%0, %1, %5) grid [128, 1, 1] block [256, 1, 1] forloop 16 : (tensor<64x2048xf16>, tensor<8192x2048xf16>, tensor<1x8192xf16>) -> tensor<64x8192xf16> {
    ^bb0(%7: tensor<64x2048xf16>, %8: tensor<8192x2048xf16>, %9: tensor<1x8192xf16>):
      %10 = block.for_loop : tensor<64x64xf32> {
        %11 = block.input %7 imap [-1, -1, -1] forloop_dim 1 : tensor<64x2048xf16> -> tensor<64x128xf16>
        %12 = block.input %8 imap [1, -1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<128x64xf16>
        %13 = block.matmul %11, %12 : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf32>
        %14 = block.accum_sum %13 : tensor<64x64xf32> -> tensor<64x64xf32>
        block.yield %14 : tensor<64x64xf32>
      }
      %15 = block.input %9 imap [1, -1, -1] : tensor<1x8192xf16> -> tensor<1x64xf16>
      %16 = block.add %10, %15 : tensor<64x64xf32>, tensor<1x64xf16> -> tensor<64x64xf32>
      %17 = thread.fuse(%16) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
      ^bb0(%18: f32):
        %19 = thread.mul_scalar %18, 5.000000e-01 : f32
        %20 = thread.square %18 : f32
        %21 = thread.mul %20, %18 : f32
        %22 = thread.mul_scalar %21, 0.044708251953125 : f32
        %23 = thread.add %18, %22 : f32
        %24 = thread.mul_scalar %23, 0.7978515625 : f32
        %25 = thread.tanh %24 : f32
        %26 = thread.add_scalar %25, 1.000000e+00 : f32
        %27 = thread.mul %19, %26 : f32
        thread.yield %27 : f32
      }
      %28 = block.output %17 omap [1, -1, -1] : tensor<64x64xf32> -> tensor<64x8192xf16>
      block.return %28 : tensor<64x8192xf16>
    }
    %7 = kernel.reshape %4 : tensor<2048xf16> -> tensor<1x2048xf16>
    %8 = kernel.graph(%3, %7, %6) grid [4, 32, 1] block [256, 1, 1] forloop 32 : (tensor<2048x8192xf16>, tensor<1x2048xf16>, tensor<64x8192xf16>) -> tensor<64x2048xf16> {
    ^bb0(%9: tensor<2048x8192xf16>, %10: tensor<1x2048xf16>, %11: tensor<64x8192xf16>):
      %12 = block.for_loop : tensor<16x64xf32> {
        %13 = block.input %9 imap [-1, 1, -1] forloop_dim 0 view [8192, 2048] strides [1, 8192] : tensor<2048x8192xf16> -> tensor<256x64xf16>
        %14 = block.input %11 imap [0, -1, -1] forloop_dim 1 : tensor<64x8192xf16> -> tensor<16x256xf16>
        %15 = block.matmul %14, %13 : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf32>
        %16 = block.accum_sum %15 : tensor<16x64xf32> -> tensor<16x64xf32>
        block.yield %16 : tensor<16x64xf32>
      }
      %17 = block.input %10 imap [-1, 1, -1] : tensor<1x2048xf16> -> tensor<1x64xf16>
      %18 = block.add %12, %17 : tensor<16x64xf32>, tensor<1x64xf16> -> tensor<16x64xf32>
      %19 = block.output %18 omap [0, 1, -1] : tensor<16x64xf32> -> tensor<64x2048xf16>
      block.return %19 : tensor<64x2048xf16>
    }
    func.return %8 : tensor<64x2048xf16>
  }
}
