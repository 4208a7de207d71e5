// rmsnorm_linear_b8: the best μGraph the search found (benchmarks/search_bench.py --write)
// target sm_90, max-kernel-ops 2, max-block-ops 11, seed 0
// cost model: 16.93 us (the program: 25.50 us)
// equivalent (2 random tests of the first 1 rows in Z_94905743 x Z_47452871, error probability <= 1.6e-14)
builtin.module {
  func.func @program(%0: tensor<16x4096xf16>, %1: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
    %2 = kernel.rms_norm %0 : tensor<16x4096xf16> -> tensor<16x4096xf16>
    %3 = kernel.matmul %2, %1 : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
    func.return %3 : tensor<16x6144xf16>
  }
  func.func @ugraph(%0: tensor<16x4096xf16>, %1: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
    %2 = kernel.graph(%0, %1) grid [128, 1, 1] block [128, 1, 1] forloop 8 : (tensor<16x4096xf16>, tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
    ^bb0(%3: tensor<16x4096xf16>, %4: tensor<4096x6144xf16>):
      %5, %6 = block.for_loop : tensor<16x1xf32>, tensor<16x48xf32> {
        %7 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x512xf16>
        %8 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<4096x6144xf16> -> tensor<512x48xf16>
        %9 = block.accum_rms_last %7 : tensor<16x512xf16> -> tensor<16x1xf32>
        %10 = block.matmul %7, %8 : tensor<16x512xf16>, tensor<512x48xf16> -> tensor<16x48xf32>
        %11 = block.accum_sum %10 : tensor<16x48xf32> -> tensor<16x48xf32>
        block.yield %9, %11 : tensor<16x1xf32>, tensor<16x48xf32>
      }
      %12 = block.div %6, %5 : tensor<16x48xf32>, tensor<16x1xf32> -> tensor<16x48xf32>
      %13 = block.output %12 omap [1, -1, -1] : tensor<16x48xf32> -> tensor<16x6144xf16>
      block.return %13 : tensor<16x6144xf16>
    }
    func.return %2 : tensor<16x6144xf16>
  }
}
