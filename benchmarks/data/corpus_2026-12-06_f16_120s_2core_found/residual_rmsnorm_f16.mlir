// search seconds: 11.4
builtin.module {
  func.func @residual_rmsnorm(%0: tensor<16x4096xf16>, %1: tensor<16x4096xf16>, %2: tensor<4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>) {
    %3 = kernel.reshape %2 : tensor<4096xf16> -> tensor<1x4096xf16>
    %4, %5 = kernel.graph(%0, %1, %3) grid [16, 1, 1] block [256, 1, 1] forloop 1 : (tensor<16x4096xf16>, tensor<16x4096xf16>, tensor<1x4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>) {
    ^bb0(%6: tensor<16x4096xf16>, %7: tensor<16x4096xf16>, %8: tensor<1x4096xf16>):
      %9, %10 = block.for_loop : tensor<1x4096xf32>, tensor<1x4096xf32> {
        %11 = block.input %6 imap [0, -1, -1] : tensor<16x4096xf16> -> tensor<1x4096xf16>
        %12 = block.input %7 imap [0, -1, -1] : tensor<16x4096xf16> -> tensor<1x4096xf16>
        %13 = block.input %8 imap [-1, -1, -1] : tensor<1x4096xf16> -> tensor<1x4096xf16>
        %14 = block.add %11, %12 : tensor<1x4096xf16>, tensor<1x4096xf16> -> tensor<1x4096xf32>
        %15 = block.rms_norm %14 eps 9.9999999747524271e-07 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        %16 = block.mul %13, %15 : tensor<1x4096xf16>, tensor<1x4096xf32> -> tensor<1x4096xf32>
        %17 = block.accum_sum %16 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        %18 = block.accum_sum %14 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        block.yield %17, %18 : tensor<1x4096xf32>, tensor<1x4096xf32>
      }
      %19 = block.output %9 omap [0, -1, -1] : tensor<1x4096xf32> -> tensor<16x4096xf16>
      %20 = block.output %10 omap [0, -1, -1] : tensor<1x4096xf32> -> tensor<16x4096xf16>
      block.return %19, %20 : tensor<16x4096xf16>, tensor<16x4096xf16>
    }
    func.return %4, %5 : tensor<16x4096xf16>, tensor<16x4096xf16>
  }
}
