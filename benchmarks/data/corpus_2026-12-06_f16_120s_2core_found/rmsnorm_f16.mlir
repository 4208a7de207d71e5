// search seconds: 0.3
builtin.module {
  func.func @rmsnorm(%0: tensor<16x4096xf16>, %1: tensor<4096xf16>) -> tensor<16x4096xf16> {
    %2 = kernel.reshape %1 : tensor<4096xf16> -> tensor<1x4096xf16>
    %3 = kernel.graph(%0, %2) grid [16, 1, 1] block [256, 1, 1] forloop 1 : (tensor<16x4096xf16>, tensor<1x4096xf16>) -> tensor<16x4096xf16> {
    ^bb0(%4: tensor<16x4096xf16>, %5: tensor<1x4096xf16>):
      %6, %7 = block.for_loop : tensor<1x1xf32>, tensor<1x4096xf32> {
        %8 = block.input %4 imap [0, -1, -1] : tensor<16x4096xf16> -> tensor<1x4096xf16>
        %9 = block.input %5 imap [-1, -1, -1] : tensor<1x4096xf16> -> tensor<1x4096xf16>
        %10 = block.accum_rms_last %8 eps 9.9999999747524271e-07 : tensor<1x4096xf16> -> tensor<1x1xf32>
        %11 = block.mul %8, %9 : tensor<1x4096xf16>, tensor<1x4096xf16> -> tensor<1x4096xf32>
        %12 = block.accum_sum %11 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        block.yield %10, %12 : tensor<1x1xf32>, tensor<1x4096xf32>
      }
      %13 = block.div %7, %6 : tensor<1x4096xf32>, tensor<1x1xf32> -> tensor<1x4096xf32>
      %14 = block.output %13 omap [0, -1, -1] : tensor<1x4096xf32> -> tensor<16x4096xf16>
      block.return %14 : tensor<16x4096xf16>
    }
    func.return %3 : tensor<16x4096xf16>
  }
}
