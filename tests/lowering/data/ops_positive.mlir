// Plain kernel ops on positive inputs (square roots, powers): each is lowered through
// wrap-kernel-ops into a one-op kernel.graph.
func.func @unary(%x: tensor<64x96xf16>) -> (tensor<64x96xf16>, tensor<64x96xf32>, tensor<64x96xf16>, tensor<64x96xbf16>, tensor<64x96xf16>, tensor<64x96xf32>, tensor<64x96xf16>, tensor<64x96xf16>) {
  %a = kernel.exp %x : tensor<64x96xf16> -> tensor<64x96xf16>
  %b = kernel.square %x : tensor<64x96xf16> -> tensor<64x96xf32>
  %c = kernel.sqrt %x : tensor<64x96xf16> -> tensor<64x96xf16>
  %d = kernel.rsqrt %x : tensor<64x96xf16> -> tensor<64x96xbf16>
  %e = kernel.silu %x : tensor<64x96xf16> -> tensor<64x96xf16>
  %f = kernel.gelu %x : tensor<64x96xf16> -> tensor<64x96xf32>
  %g = kernel.relu %x : tensor<64x96xf16> -> tensor<64x96xf16>
  %h = kernel.mul_scalar %x, 2.500000e+00 : tensor<64x96xf16> -> tensor<64x96xf16>
  func.return %a, %b, %c, %d, %e, %f, %g, %h : tensor<64x96xf16>, tensor<64x96xf32>, tensor<64x96xf16>, tensor<64x96xbf16>, tensor<64x96xf16>, tensor<64x96xf32>, tensor<64x96xf16>, tensor<64x96xf16>
}

func.func @binary(%x: tensor<8x64x32xf32>, %y: tensor<8x1x32xf32>, %z: tensor<1x64x1xbf16>) -> (tensor<8x64x32xf32>, tensor<8x64x32xf16>, tensor<8x64x32xbf16>, tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf16>) {
  %a = kernel.add %x, %y : tensor<8x64x32xf32>, tensor<8x1x32xf32> -> tensor<8x64x32xf32>
  %b = kernel.sub %y, %x : tensor<8x1x32xf32>, tensor<8x64x32xf32> -> tensor<8x64x32xf16>
  %c = kernel.mul %x, %z : tensor<8x64x32xf32>, tensor<1x64x1xbf16> -> tensor<8x64x32xbf16>
  %d = kernel.div %x, %y : tensor<8x64x32xf32>, tensor<8x1x32xf32> -> tensor<8x64x32xf32>
  %e = kernel.pow %x, %z : tensor<8x64x32xf32>, tensor<1x64x1xbf16> -> tensor<8x64x32xf32>
  %f = kernel.max %x, %y : tensor<8x64x32xf32>, tensor<8x1x32xf32> -> tensor<8x64x32xf16>
  func.return %a, %b, %c, %d, %e, %f : tensor<8x64x32xf32>, tensor<8x64x32xf16>, tensor<8x64x32xbf16>, tensor<8x64x32xf32>, tensor<8x64x32xf32>, tensor<8x64x32xf16>
}
