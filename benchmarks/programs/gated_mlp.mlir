// gated_mlp: gated_mlp at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %0 = kernel.matmul %x, %w1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
    %1 = kernel.silu %0 : tensor<8x4096xf16> -> tensor<8x4096xf16>
    %2 = kernel.matmul %x, %w2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
    %3 = kernel.mul %1, %2 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    func.return %3 : tensor<8x4096xf16>
  }
}
