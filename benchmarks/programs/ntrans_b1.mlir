// ntrans_b1: ntrans at the paper's benchmark shapes (generate.py)
builtin.module {
  func.func @program(%h: tensor<8x4096xf16>, %x: tensor<8x4096xf16>, %alpha: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
    %0 = kernel.rms_norm %h : tensor<8x4096xf16> -> tensor<8x4096xf16>
    %1 = kernel.sub %0, %x : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %2 = kernel.mul %alpha, %1 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %3 = kernel.add %x, %2 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    %4 = kernel.rms_norm %3 : tensor<8x4096xf16> -> tensor<8x4096xf16>
    func.return %4 : tensor<8x4096xf16>
  }
}
