// lora: lora at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %0 = kernel.matmul %x, %w : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
    %1 = kernel.matmul %x, %a : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
    %2 = kernel.matmul %1, %b : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    %3 = kernel.add %0, %2 : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    func.return %3 : tensor<16x4096xf16>
  }
}
