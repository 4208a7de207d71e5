// qknorm at Q 2x32x16, K 2x16x128, V 2x128x16 as two kernels: the norms kernel writes
// normalized Q and K to device memory, the attention kernel reads them back
// (tests/superoptimize/test_so_inline.py inlines the first into the second).
builtin.module {
  func.func @ugraph(%q: tensor<2x32x16xf16>, %k: tensor<2x16x128xf16>, %v: tensor<2x128x16xf16>) -> tensor<2x32x16xf16> {
    %qn, %kn = kernel.graph(%q, %k) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<2x32x16xf16>, tensor<2x16x128xf16>) -> (tensor<2x32x16xf16>, tensor<2x16x128xf16>) {
    ^bb0(%a: tensor<2x32x16xf16>, %b: tensor<2x16x128xf16>):
      %acc_q, %acc_k = block.for_loop : tensor<1x16x16xf32>, tensor<1x16x64xf32> {
        %0 = block.input %a imap [1, 0, -1] : tensor<2x32x16xf16> -> tensor<1x16x16xf16>
        %1 = block.input %b imap [2, 0, -1] : tensor<2x16x128xf16> -> tensor<1x16x64xf16>
        %2 = block.rms_norm %0 : tensor<1x16x16xf16> -> tensor<1x16x16xf32>
        %3 = block.square %1 : tensor<1x16x64xf16> -> tensor<1x16x64xf32>
        %4 = block.reduce_sum %3 dim 1 : tensor<1x16x64xf32> -> tensor<1x1x64xf32>
        %5 = block.mul_scalar %4, 6.250000e-02 : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
        %6 = block.sqrt %5 : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
        %7 = block.div %1, %6 : tensor<1x16x64xf16>, tensor<1x1x64xf32> -> tensor<1x16x64xf32>
        %8 = block.accum_sum %2 : tensor<1x16x16xf32> -> tensor<1x16x16xf32>
        %9 = block.accum_sum %7 : tensor<1x16x64xf32> -> tensor<1x16x64xf32>
        block.yield %8, %9 : tensor<1x16x16xf32>, tensor<1x16x64xf32>
      }
      %10 = block.output %acc_q omap [1, 0, -1] : tensor<1x16x16xf32> -> tensor<2x32x16xf16>
      %11 = block.output %acc_k omap [2, 0, -1] : tensor<1x16x64xf32> -> tensor<2x16x128xf16>
      block.return %10, %11 : tensor<2x32x16xf16>, tensor<2x16x128xf16>
    }
    %o = kernel.graph(%v, %qn, %kn) grid [2, 2, 1] block [128, 1, 1] forloop 2 : (tensor<2x128x16xf16>, tensor<2x32x16xf16>, tensor<2x16x128xf16>) -> tensor<2x32x16xf16> {
    ^bb0(%a: tensor<2x128x16xf16>, %b: tensor<2x32x16xf16>, %c: tensor<2x16x128xf16>):
      %s, %acc = block.for_loop : tensor<1x16x1xf32>, tensor<1x16x16xf32> {
        %0 = block.input %a imap [-1, 0, -1] forloop_dim 1 : tensor<2x128x16xf16> -> tensor<1x64x16xf16>
        %1 = block.input %b imap [1, 0, -1] : tensor<2x32x16xf16> -> tensor<1x16x16xf16>
        %2 = block.input %c imap [-1, 0, -1] forloop_dim 2 : tensor<2x16x128xf16> -> tensor<1x16x64xf16>
        %3 = block.matmul %1, %2 : tensor<1x16x16xf16>, tensor<1x16x64xf16> -> tensor<1x16x64xf32>
        %4 = block.exp %3 : tensor<1x16x64xf32> -> tensor<1x16x64xf16>
        %5 = block.accum_sum_last %4 : tensor<1x16x64xf16> -> tensor<1x16x1xf32>
        %6 = block.matmul %4, %0 : tensor<1x16x64xf16>, tensor<1x64x16xf16> -> tensor<1x16x16xf32>
        %7 = block.accum_sum %6 : tensor<1x16x16xf32> -> tensor<1x16x16xf32>
        block.yield %5, %7 : tensor<1x16x1xf32>, tensor<1x16x16xf32>
      }
      %8 = block.div %acc, %s : tensor<1x16x16xf32>, tensor<1x16x1xf32> -> tensor<1x16x16xf32>
      %9 = block.output %8 omap [1, 0, -1] : tensor<1x16x16xf32> -> tensor<2x32x16xf16>
      block.return %9 : tensor<2x32x16xf16>
    }
    func.return %o : tensor<2x32x16xf16>
  }
}
