// ntrans_b8: the best μGraph the search found (benchmarks/search_bench.py --write)
// target sm_90, max-kernel-ops 2, max-block-ops 11, seed 0
// cost model: 2.58 us (the program: 11.29 us)
// equivalent, unsound ops: sqrt of a square root (3 random tests (192 batch slices) in Z_94905743 x Z_47452871; no error bound, these ops have stand-in rules)
builtin.module {
  func.func @program(%0: tensor<64x4096xf16>, %1: tensor<64x4096xf16>, %2: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
    %3 = kernel.rms_norm %0 : tensor<64x4096xf16> -> tensor<64x4096xf16>
    %4 = kernel.sub %3, %1 : tensor<64x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
    %5 = kernel.mul %2, %4 : tensor<64x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
    %6 = kernel.add %1, %5 : tensor<64x4096xf16>, tensor<64x4096xf16> -> tensor<64x4096xf16>
    %7 = kernel.rms_norm %6 : tensor<64x4096xf16> -> tensor<64x4096xf16>
    func.return %7 : tensor<64x4096xf16>
  }
  func.func @ugraph(%0: tensor<64x4096xf16>, %1: tensor<64x4096xf16>, %2: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
    %3 = kernel.graph(%0, %1, %2) grid [64, 1, 1] block [128, 1, 1] forloop 1 : (tensor<64x4096xf16>, tensor<64x4096xf16>, tensor<64x4096xf16>) -> tensor<64x4096xf16> {
    ^bb0(%4: tensor<64x4096xf16>, %5: tensor<64x4096xf16>, %6: tensor<64x4096xf16>):
      %7 = block.for_loop : tensor<1x4096xf32> {
        %8 = block.input %4 imap [0, -1, -1] : tensor<64x4096xf16> -> tensor<1x4096xf16>
        %9 = block.input %5 imap [0, -1, -1] : tensor<64x4096xf16> -> tensor<1x4096xf16>
        %10 = block.input %6 imap [0, -1, -1] : tensor<64x4096xf16> -> tensor<1x4096xf16>
        %11 = block.rms_norm %8 : tensor<1x4096xf16> -> tensor<1x4096xf32>
        %12 = block.sub %11, %9 : tensor<1x4096xf32>, tensor<1x4096xf16> -> tensor<1x4096xf32>
        %13 = block.mul %10, %12 : tensor<1x4096xf16>, tensor<1x4096xf32> -> tensor<1x4096xf32>
        %14 = block.add %9, %13 : tensor<1x4096xf16>, tensor<1x4096xf32> -> tensor<1x4096xf32>
        %15 = block.rms_norm %14 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        %16 = block.accum_sum %15 : tensor<1x4096xf32> -> tensor<1x4096xf32>
        block.yield %16 : tensor<1x4096xf32>
      }
      %17 = block.output %7 omap [0, -1, -1] : tensor<1x4096xf32> -> tensor<64x4096xf16>
      block.return %17 : tensor<64x4096xf16>
    }
    func.return %3 : tensor<64x4096xf16>
  }
}
