// gqa_b8: gqa at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%q: tensor<16x256x64xf16>, %k: tensor<16x64x4096xf16>, %v: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
    %0 = kernel.matmul %q, %k : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
    %1 = kernel.exp %0 : tensor<16x256x4096xf16> -> tensor<16x256x4096xf16>
    %2 = kernel.reduce_sum %1 dim 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
    %3 = kernel.div %1, %2 : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
    %4 = kernel.matmul %3, %v : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
    func.return %4 : tensor<16x256x64xf16>
  }
}
