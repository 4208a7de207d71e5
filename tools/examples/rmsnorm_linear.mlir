// RMSNorm followed by a linear layer, Y = rms_norm(X) W, as a kernel-level program: two
// kernels (the normalization, then the matmul). The superoptimizer's job is to find the
// single fused kernel that defers the normalization past the matmul.

func.func @rmsnorm_linear(%x: tensor<16x1024xf16>, %w: tensor<1024x2048xf16>) -> tensor<16x2048xf16> {
  %n = kernel.rms_norm %x : tensor<16x1024xf16> -> tensor<16x1024xf16>
  %y = kernel.matmul %n, %w : tensor<16x1024xf16>, tensor<1024x2048xf16> -> tensor<16x2048xf16>
  func.return %y : tensor<16x2048xf16>
}
