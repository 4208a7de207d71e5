// A head split's expand as exported: (b, kv_heads, 1, s, d) * ones(b, kv_heads, rep, s, d).
func.func @expand(%k: tensor<2x4x1x1024x128xf16>, %ones: tensor<2x4x4x1024x128xf16>) -> tensor<2x4x4x1024x128xf16> {
  %0 = kernel.mul %k, %ones : tensor<2x4x1x1024x128xf16>, tensor<2x4x4x1024x128xf16> -> tensor<2x4x4x1024x128xf16>
  func.return %0 : tensor<2x4x4x1024x128xf16>
}
