// search seconds: 109.2
builtin.module {
  func.func @linear_gelu(%arg0: tensor<256x2048xf16>, %arg1: tensor<8192x2048xf16>, %arg2: tensor<8192xf16>) -> tensor<256x8192xf16> {
    %0 = kernel.transpose %arg1 permutation [1, 0] : tensor<8192x2048xf16> -> tensor<2048x8192xf16>
    %1 = kernel.matmul %arg0, %0 : tensor<256x2048xf16>, tensor<2048x8192xf16> -> tensor<256x8192xf32>
    %2 = kernel.reshape %arg2 : tensor<8192xf16> -> tensor<1x8192xf16>
    %3 = kernel.add %1, %2 : tensor<256x8192xf32>, tensor<1x8192xf16> -> tensor<256x8192xf16>
    %4 = kernel.gelu %3 : tensor<256x8192xf16> -> tensor<256x8192xf16>
    func.return %4 : tensor<256x8192xf16>
  }
}
