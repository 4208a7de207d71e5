// qknorm_b8: qknorm at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%q: tensor<16x256x64xf16>, %k: tensor<16x64x4096xf16>, %v: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
    %0 = kernel.rms_norm %q : tensor<16x256x64xf16> -> tensor<16x256x64xf16>
    %1 = kernel.square %k : tensor<16x64x4096xf16> -> tensor<16x64x4096xf16>
    %2 = kernel.reduce_sum %1 dim 1 : tensor<16x64x4096xf16> -> tensor<16x1x4096xf16>
    %3 = kernel.mul_scalar %2, 1.562500e-02 : tensor<16x1x4096xf16> -> tensor<16x1x4096xf16>
    %4 = kernel.sqrt %3 : tensor<16x1x4096xf16> -> tensor<16x1x4096xf16>
    %5 = kernel.div %k, %4 : tensor<16x64x4096xf16>, tensor<16x1x4096xf16> -> tensor<16x64x4096xf16>
    %6 = kernel.matmul %0, %5 : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
    %7 = kernel.exp %6 : tensor<16x256x4096xf16> -> tensor<16x256x4096xf16>
    %8 = kernel.reduce_sum %7 dim 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
    %9 = kernel.div %7, %8 : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
    %10 = kernel.matmul %9, %v : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
    func.return %10 : tensor<16x256x64xf16>
  }
}
