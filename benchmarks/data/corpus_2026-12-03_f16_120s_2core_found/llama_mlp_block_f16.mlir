// search seconds: 120.9
builtin.module {
  func.func @llama_mlp_block(%arg0: tensor<16x4096xf16>, %arg1: tensor<4096xf16>, %arg2: tensor<11008x4096xf16>, %arg3: tensor<11008x4096xf16>, %arg4: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
    %0 = kernel.reshape %arg1 : tensor<4096xf16> -> tensor<1x4096xf16>
    %1 = kernel.rms_norm %arg0 eps 9.9999999747524271e-07 : tensor<16x4096xf16> -> tensor<16x4096xf16>
    %2 = kernel.mul %0, %1 : tensor<1x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    %3 = kernel.transpose %arg2 permutation [1, 0] : tensor<11008x4096xf16> -> tensor<4096x11008xf16>
    %4 = kernel.matmul %2, %3 : tensor<16x4096xf16>, tensor<4096x11008xf16> -> tensor<16x11008xf16>
    %5 = kernel.silu %4 : tensor<16x11008xf16> -> tensor<16x11008xf16>
    %6 = kernel.transpose %arg3 permutation [1, 0] : tensor<11008x4096xf16> -> tensor<4096x11008xf16>
    %7 = kernel.matmul %2, %6 : tensor<16x4096xf16>, tensor<4096x11008xf16> -> tensor<16x11008xf16>
    %8 = kernel.mul %5, %7 : tensor<16x11008xf16>, tensor<16x11008xf16> -> tensor<16x11008xf16>
    %9 = kernel.transpose %arg4 permutation [1, 0] : tensor<4096x11008xf16> -> tensor<11008x4096xf16>
    %10 = kernel.matmul %8, %9 : tensor<16x11008xf16>, tensor<11008x4096xf16> -> tensor<16x4096xf16>
    %11 = kernel.add %arg0, %10 : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    func.return %11 : tensor<16x4096xf16>
  }
}
