// search seconds: 83.4
builtin.module {
  func.func @f_layer_norm(%0: tensor<256x2048xf16>, %1: tensor<2048xf16>, %2: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %3 = kernel.reshape %1 : tensor<2048xf16> -> tensor<1x2048xf16>
    %4 = kernel.reshape %2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %5 = kernel.graph(%0, %3, %4) grid [128, 1, 1] block [128, 1, 1] forloop 1 : (tensor<256x2048xf16>, tensor<1x2048xf16>, tensor<1x2048xf16>) -> tensor<256x2048xf16> {
    ^bb0(%6: tensor<256x2048xf16>, %7: tensor<1x2048xf16>, %8: tensor<1x2048xf16>):
      %9 = block.for_loop : tensor<2x2048xf32> {
        %10 = block.input %6 imap [0, -1, -1] : tensor<256x2048xf16> -> tensor<2x2048xf16>
        %11 = block.input %7 imap [-1, -1, -1] : tensor<1x2048xf16> -> tensor<1x2048xf16>
        %12 = block.input %8 imap [-1, -1, -1] : tensor<1x2048xf16> -> tensor<1x2048xf16>
        %13 = block.reduce_sum %10 dim 1 : tensor<2x2048xf16> -> tensor<2x1xf32>
        %14 = block.mul_scalar %13, 0.00048828125 : tensor<2x1xf32> -> tensor<2x1xf32>
        %15 = block.sub %10, %14 : tensor<2x2048xf16>, tensor<2x1xf32> -> tensor<2x2048xf32>
        %16 = block.rms_norm %15 affine(%11, %12 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 9.9999997473787516e-06 : tensor<2x2048xf32> -> tensor<2x2048xf32>
        %17 = block.accum_sum %16 : tensor<2x2048xf32> -> tensor<2x2048xf32>
        block.yield %17 : tensor<2x2048xf32>
      }
      %18 = block.output %9 omap [0, -1, -1] : tensor<2x2048xf32> -> tensor<256x2048xf16>
      block.return %18 : tensor<256x2048xf16>
    }
    func.return %5 : tensor<256x2048xf16>
  }
}
