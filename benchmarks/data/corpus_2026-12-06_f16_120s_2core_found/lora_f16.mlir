// search seconds: 30.8
builtin.module {
  func.func @lora(%0: tensor<16x4096xf16>, %1: tensor<11008x4096xf16>, %2: tensor<16x4096xf16>, %3: tensor<11008x16xf16>) -> tensor<16x11008xf16> {
    %4 = kernel.graph(%0, %1, %2, %3) grid [128, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x4096xf16>, tensor<11008x4096xf16>, tensor<16x4096xf16>, tensor<11008x16xf16>) -> tensor<16x11008xf16> {
    ^bb0(%5: tensor<16x4096xf16>, %6: tensor<11008x4096xf16>, %7: tensor<16x4096xf16>, %8: tensor<11008x16xf16>):
      %9, %10 = block.for_loop : tensor<16x86xf32>, tensor<16x16xf32> {
        %11 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x256xf16>
        %12 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [4096, 11008] strides [1, 4096] : tensor<11008x4096xf16> -> tensor<256x86xf16>
        %13 = block.input %7 imap [-1, -1, -1] forloop_dim 0 view [4096, 16] strides [1, 4096] : tensor<16x4096xf16> -> tensor<256x16xf16>
        %14 = block.matmul %11, %12 : tensor<16x256xf16>, tensor<256x86xf16> -> tensor<16x86xf32>
        %15 = block.matmul %11, %13 : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf32>
        %16 = block.accum_sum %14 : tensor<16x86xf32> -> tensor<16x86xf32>
        %17 = block.accum_sum %15 : tensor<16x16xf32> -> tensor<16x16xf32>
        block.yield %16, %17 : tensor<16x86xf32>, tensor<16x16xf32>
      }
      %18 = block.input %8 imap [1, -1, -1] view [16, 11008] strides [1, 16] : tensor<11008x16xf16> -> tensor<16x86xf16>
      %19 = block.matmul %10, %18 : tensor<16x16xf32>, tensor<16x86xf16> -> tensor<16x86xf32>
      %20 = block.add %9, %19 : tensor<16x86xf32>, tensor<16x86xf32> -> tensor<16x86xf32>
      %21 = block.output %20 omap [1, -1, -1] : tensor<16x86xf32> -> tensor<16x11008xf16>
      block.return %21 : tensor<16x11008xf16>
    }
    func.return %4 : tensor<16x11008xf16>
  }
}
