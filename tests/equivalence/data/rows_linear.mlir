// A linear layer with a bias and GELU, as imported (kernel-level ops).
func.func @linear(%x: tensor<32x64xf32>, %w: tensor<48x64xf32>, %b: tensor<48xf32>) -> tensor<32x48xf32> {
  %0 = kernel.transpose %w permutation [1, 0] : tensor<48x64xf32> -> tensor<64x48xf32>
  %1 = kernel.matmul %x, %0 : tensor<32x64xf32>, tensor<64x48xf32> -> tensor<32x48xf32>
  %2 = kernel.reshape %b : tensor<48xf32> -> tensor<1x48xf32>
  %3 = kernel.add %1, %2 : tensor<32x48xf32>, tensor<1x48xf32> -> tensor<32x48xf32>
  %4 = kernel.gelu %3 : tensor<32x48xf32> -> tensor<32x48xf32>
  func.return %4 : tensor<32x48xf32>
}
