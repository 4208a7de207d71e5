// search seconds: 88.6
builtin.module {
  func.func @decode_attention(%0: tensor<256x1x128xf16>, %1: tensor<256x4096x128xf16>, %2: tensor<256x4096x128xf16>) -> tensor<256x1x128xf16> {
    %3 = kernel.graph(%0, %1) grid [16, 32, 1] block [128, 1, 1] forloop 8 : (tensor<256x1x128xf16>, tensor<256x4096x128xf16>) -> tensor<256x1x4096xf16> {
    ^bb0(%4: tensor<256x1x128xf16>, %5: tensor<256x4096x128xf16>):
      %6 = block.for_loop : tensor<16x1x128xf32> {
        %7 = block.input %4 imap [0, -1, -1] forloop_dim 2 : tensor<256x1x128xf16> -> tensor<16x1x16xf16>
        %8 = block.input %5 imap [0, 2, -1] forloop_dim 1 view [256, 128, 4096] strides [524288, 1, 128] : tensor<256x4096x128xf16> -> tensor<16x16x128xf16>
        %9 = block.matmul %7, %8 : tensor<16x1x16xf16>, tensor<16x16x128xf16> -> tensor<16x1x128xf32>
        %10 = block.accum_sum %9 : tensor<16x1x128xf32> -> tensor<16x1x128xf32>
        block.yield %10 : tensor<16x1x128xf32>
      }
      %11 = block.mul_scalar %6, 0.088397790055248615 : tensor<16x1x128xf32> -> tensor<16x1x128xf32>
      %12 = block.output %11 omap [0, 2, -1] : tensor<16x1x128xf32> -> tensor<256x1x4096xf16>
      block.return %12 : tensor<256x1x4096xf16>
    }
    %4 = kernel.graph(%2, %3) grid [16, 8, 1] block [128, 1, 1] forloop 32 : (tensor<256x4096x128xf16>, tensor<256x1x4096xf16>) -> tensor<256x1x128xf16> {
    ^bb0(%5: tensor<256x4096x128xf16>, %6: tensor<256x1x4096xf16>):
      %7, %8 = block.for_loop : tensor<16x1x16xf32>, tensor<16x1x1xf32> {
        %9 = block.input %5 imap [0, 2, -1] forloop_dim 1 : tensor<256x4096x128xf16> -> tensor<16x128x16xf16>
        %10 = block.input %6 imap [0, -1, -1] forloop_dim 2 : tensor<256x1x4096xf16> -> tensor<16x1x128xf16>
        %11 = block.reduce_max %10 dim 2 : tensor<16x1x128xf16> -> tensor<16x1x1xf32>
        %12 = block.sub %10, %11 : tensor<16x1x128xf16>, tensor<16x1x1xf32> -> tensor<16x1x128xf32>
        %13 = block.exp %12 : tensor<16x1x128xf32> -> tensor<16x1x128xf16>
        %14 = block.matmul %13, %9 : tensor<16x1x128xf16>, tensor<16x128x16xf16> -> tensor<16x1x16xf32>
        %15 = block.reduce_sum %13 dim 2 : tensor<16x1x128xf16> -> tensor<16x1x1xf32>
        %16 = block.accum_rescale %14, %11 : tensor<16x1x16xf32>, tensor<16x1x1xf32> -> tensor<16x1x16xf32>
        %17 = block.accum_rescale %15, %11 : tensor<16x1x1xf32>, tensor<16x1x1xf32> -> tensor<16x1x1xf32>
        block.yield %16, %17 : tensor<16x1x16xf32>, tensor<16x1x1xf32>
      }
      %18 = block.div %7, %8 : tensor<16x1x16xf32>, tensor<16x1x1xf32> -> tensor<16x1x16xf32>
      %19 = block.output %18 omap [0, 2, -1] : tensor<16x1x16xf32> -> tensor<256x1x128xf16>
      block.return %19 : tensor<256x1x128xf16>
    }
    func.return %4 : tensor<256x1x128xf16>
  }
}
