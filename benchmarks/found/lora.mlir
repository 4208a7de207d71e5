// lora: the best μGraph the search found (benchmarks/search_bench.py --write)
// target sm_90, max-kernel-ops 2, max-block-ops 11, seed 0
// cost model: 2.86 us (the program: 9.13 us)
// equivalent (2 random tests of the first 1 rows in Z_94905743 x Z_47452871, error probability <= 1.0e-15)
builtin.module {
  func.func @program(%0: tensor<16x256xf16>, %1: tensor<256x4096xf16>, %2: tensor<256x16xf16>, %3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %4 = kernel.matmul %0, %1 : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
    %5 = kernel.matmul %0, %2 : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
    %6 = kernel.matmul %5, %3 : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    %7 = kernel.add %4, %6 : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    func.return %7 : tensor<16x4096xf16>
  }
  func.func @ugraph(%0: tensor<16x256xf16>, %1: tensor<256x4096xf16>, %2: tensor<256x16xf16>, %3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %4 = kernel.graph(%0, %1, %2, %3) grid [128, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x256xf16>, tensor<256x4096xf16>, tensor<256x16xf16>, tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    ^bb0(%5: tensor<16x256xf16>, %6: tensor<256x4096xf16>, %7: tensor<256x16xf16>, %8: tensor<16x4096xf16>):
      %9 = block.for_loop : tensor<16x32xf32> {
        %10 = block.input %5 imap [-1, -1, -1] : tensor<16x256xf16> -> tensor<16x256xf16>
        %11 = block.input %6 imap [1, -1, -1] : tensor<256x4096xf16> -> tensor<256x32xf16>
        %12 = block.input %7 imap [-1, -1, -1] : tensor<256x16xf16> -> tensor<256x16xf16>
        %13 = block.input %8 imap [1, -1, -1] : tensor<16x4096xf16> -> tensor<16x32xf16>
        %14 = block.matmul %10, %11 : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
        %15 = block.matmul %10, %12 : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
        %16 = block.matmul %15, %13 : tensor<16x16xf16>, tensor<16x32xf16> -> tensor<16x32xf32>
        %17 = block.add %14, %16 : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
        %18 = block.accum_sum %17 : tensor<16x32xf32> -> tensor<16x32xf32>
        block.yield %18 : tensor<16x32xf32>
      }
      %19 = block.output %9 omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x4096xf16>
      block.return %19 : tensor<16x4096xf16>
    }
    func.return %4 : tensor<16x4096xf16>
  }
}
