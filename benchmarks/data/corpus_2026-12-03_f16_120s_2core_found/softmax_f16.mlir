// search seconds: 119.4
builtin.module {
  func.func @softmax(%0: tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    %1, %2 = kernel.graph(%0) grid [256, 1, 1] block [128, 1, 1] forloop 1 : (tensor<256x8192xf16>) -> (tensor<256x1xf32>, tensor<256x8192xf16>) {
    ^bb0(%3: tensor<256x8192xf16>):
      %4, %5 = block.for_loop : tensor<1x1xf32>, tensor<1x8192xf32> {
        %6 = block.input %3 imap [0, -1, -1] : tensor<256x8192xf16> -> tensor<1x8192xf16>
        %7 = block.exp %6 : tensor<1x8192xf16> -> tensor<1x8192xf32>
        %8 = block.reduce_max %6 dim 1 : tensor<1x8192xf16> -> tensor<1x1xf32>
        %9 = block.accum_sum_last %7 : tensor<1x8192xf32> -> tensor<1x1xf32>
        %10 = block.sub %6, %8 : tensor<1x8192xf16>, tensor<1x1xf32> -> tensor<1x8192xf32>
        %11 = block.exp %10 : tensor<1x8192xf32> -> tensor<1x8192xf32>
        %12 = block.accum_max %11 : tensor<1x8192xf32> -> tensor<1x8192xf32>
        block.yield %9, %12 : tensor<1x1xf32>, tensor<1x8192xf32>
      }
      %13 = block.reduce_sum %5 dim 1 : tensor<1x8192xf32> -> tensor<1x1xf32>
      %14 = block.div %5, %13 : tensor<1x8192xf32>, tensor<1x1xf32> -> tensor<1x8192xf32>
      %15 = block.output %4 omap [0, -1, -1] : tensor<1x1xf32> -> tensor<256x1xf32>
      %16 = block.output %14 omap [0, -1, -1] : tensor<1x8192xf32> -> tensor<256x8192xf16>
      block.return %15, %16 : tensor<256x1xf32>, tensor<256x8192xf16>
    }
    func.return %2 : tensor<256x8192xf16>
  }
}
