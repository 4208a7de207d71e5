// search seconds: 119.8
builtin.module {
  func.func @softmax(%0: tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    %1 = kernel.graph(%0) grid [256, 1, 1] block [128, 1, 1] forloop 1 : (tensor<256x8192xf16>) -> tensor<256x8192xf16> {
    ^bb0(%2: tensor<256x8192xf16>):
      %3, %4 = block.for_loop : tensor<1x8192xf32>, tensor<1x1xf32> {
        %5 = block.input %2 imap [0, -1, -1] : tensor<256x8192xf16> -> tensor<1x8192xf16>
        %6 = block.reduce_max %5 dim 1 : tensor<1x8192xf16> -> tensor<1x1xf32>
        %7 = block.accum_max %5 : tensor<1x8192xf16> -> tensor<1x8192xf32>
        %8 = block.sub %5, %6 : tensor<1x8192xf16>, tensor<1x1xf32> -> tensor<1x8192xf32>
        %9 = block.exp %8 : tensor<1x8192xf32> -> tensor<1x8192xf32>
        %10 = block.accum_sum_last %9 : tensor<1x8192xf32> -> tensor<1x1xf32>
        block.yield %7, %10 : tensor<1x8192xf32>, tensor<1x1xf32>
      }
      %11 = block.reduce_max %3 dim 1 : tensor<1x8192xf32> -> tensor<1x1xf32>
      %12 = block.sub %3, %11 : tensor<1x8192xf32>, tensor<1x1xf32> -> tensor<1x8192xf32>
      %13 = block.exp %12 : tensor<1x8192xf32> -> tensor<1x8192xf32>
      %14 = block.div %13, %4 : tensor<1x8192xf32>, tensor<1x1xf32> -> tensor<1x8192xf32>
      %15 = block.output %14 omap [0, -1, -1] : tensor<1x8192xf32> -> tensor<256x8192xf16>
      block.return %15 : tensor<256x8192xf16>
    }
    func.return %1 : tensor<256x8192xf16>
  }
}
