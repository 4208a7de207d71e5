// search seconds: 118.4
builtin.module {
  func.func @softmax(%0: tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    %1 = kernel.graph(%0) grid [128, 1, 1] block [128, 1, 1] forloop 1 : (tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    ^bb0(%2: tensor<256x8192xf16>):
      %3 = block.for_loop : tensor<2x8192xf32> {
        %4 = block.input %2 imap [0, -1, -1] : tensor<256x8192xf16> -> tensor<2x8192xf16>
        %5 = block.reduce_max %4 dim 1 : tensor<2x8192xf16> -> tensor<2x1xf32>
        %6 = block.sub %4, %5 : tensor<2x8192xf16>, tensor<2x1xf32> -> tensor<2x8192xf32>
        %7 = block.exp %6 : tensor<2x8192xf32> -> tensor<2x8192xf32>
        %8 = block.reduce_sum %7 dim 1 : tensor<2x8192xf32> -> tensor<2x1xf32>
        %9 = block.div %7, %8 : tensor<2x8192xf32>, tensor<2x1xf32> -> tensor<2x8192xf32>
        %10 = block.accum_sum %9 : tensor<2x8192xf32> -> tensor<2x8192xf32>
        block.yield %10 : tensor<2x8192xf32>
      }
      %11 = block.output %3 omap [0, -1, -1] : tensor<2x8192xf32> -> tensor<256x8192xf16>
      block.return %11 : tensor<256x8192xf16>
    }
    func.return %1 : tensor<256x8192xf16>
  }
}
