// rmsnorm_linear_b8: rmsnorm_linear at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
    %0 = kernel.rms_norm %x : tensor<16x4096xf16> -> tensor<16x4096xf16>
    %1 = kernel.matmul %0, %w : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
    func.return %1 : tensor<16x6144xf16>
  }
}
