// search seconds: 83.7
builtin.module {
  func.func @residual_layernorm(%0: tensor<64x2048xf16>, %1: tensor<64x2048xf16>, %2: tensor<2048xf16>, %3: tensor<2048xf16>) -> (tensor<64x2048xf16>, tensor<64x2048xf16>) {
    %4 = kernel.reshape %2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %5 = kernel.reshape %3 : tensor<2048xf16> -> tensor<1x2048xf16>
    %6, %7 = kernel.graph(%0, %1, %4, %5) grid [64, 1, 1] block [256, 1, 1] forloop 1 : (tensor<64x2048xf16>, tensor<64x2048xf16>, tensor<1x2048xf16>, tensor<1x2048xf16>) -> (tensor<64x2048xf16>, tensor<64x2048xf16>) {
    ^bb0(%8: tensor<64x2048xf16>, %9: tensor<64x2048xf16>, %10: tensor<1x2048xf16>, %11: tensor<1x2048xf16>):
      %12, %13 = block.for_loop : tensor<1x2048xf32>, tensor<1x2048xf32> {
        %14 = block.input %8 imap [0, -1, -1] : tensor<64x2048xf16> -> tensor<1x2048xf16>
        %15 = block.input %9 imap [0, -1, -1] : tensor<64x2048xf16> -> tensor<1x2048xf16>
        %16 = block.input %10 imap [-1, -1, -1] : tensor<1x2048xf16> -> tensor<1x2048xf16>
        %17 = block.input %11 imap [-1, -1, -1] : tensor<1x2048xf16> -> tensor<1x2048xf16>
        %18 = block.add %14, %15 : tensor<1x2048xf16>, tensor<1x2048xf16> -> tensor<1x2048xf32>
        %19 = block.reduce_sum %18 dim 1 : tensor<1x2048xf32> -> tensor<1x1xf32>
        %20 = thread.fuse(%19, %18) : (tensor<1x1xf32>, tensor<1x2048xf32>) -> tensor<1x2048xf32> {
        ^bb0(%21: f32, %22: f32):
          %23 = thread.mul_scalar %21, 0.00048828125 : f32
          %24 = thread.sub %22, %23 : f32
          thread.yield %24 : f32
        }
        %25 = block.rms_norm %20 affine(%16, %17 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 9.9999997473787516e-06 : tensor<1x2048xf32> -> tensor<1x2048xf32>
        %26 = block.accum_sum %25 : tensor<1x2048xf32> -> tensor<1x2048xf32>
        %27 = block.accum_sum %18 : tensor<1x2048xf32> -> tensor<1x2048xf32>
        block.yield %26, %27 : tensor<1x2048xf32>, tensor<1x2048xf32>
      }
      %28 = block.output %12 omap [0, -1, -1] : tensor<1x2048xf32> -> tensor<64x2048xf16>
      %29 = block.output %13 omap [0, -1, -1] : tensor<1x2048xf32> -> tensor<64x2048xf16>
      block.return %28, %29 : tensor<64x2048xf16>, tensor<64x2048xf16>
    }
    func.return %6, %7 : tensor<64x2048xf16>, tensor<64x2048xf16>
  }
}
