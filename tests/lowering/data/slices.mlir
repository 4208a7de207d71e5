// Programs with kernel.slice: a fused gate/up projection split by chunk(2, -1), and
// RoPE's rotate_half (two windows of one tensor put back together in the other order).

func.func @swiglu_chunk(%gu: tensor<64x256xf16>) -> tensor<64x128xf16> {
  %g = kernel.slice %gu offsets [0, 0] : tensor<64x256xf16> -> tensor<64x128xf16>
  %u = kernel.slice %gu offsets [0, 128] : tensor<64x256xf16> -> tensor<64x128xf16>
  %s = kernel.silu %g : tensor<64x128xf16> -> tensor<64x128xf16>
  %y = kernel.mul %s, %u : tensor<64x128xf16>, tensor<64x128xf16> -> tensor<64x128xf16>
  func.return %y : tensor<64x128xf16>
}

func.func @rotate_half(%x: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  %lo = kernel.slice %x offsets [0, 0, 0] : tensor<2x8x64xf32> -> tensor<2x8x32xf32>
  %hi = kernel.slice %x offsets [0, 0, 32] : tensor<2x8x64xf32> -> tensor<2x8x32xf32>
  %n = kernel.mul_scalar %hi, -1.0 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
  %r = kernel.concat %n, %lo dim 2 : tensor<2x8x32xf32>, tensor<2x8x32xf32> -> tensor<2x8x64xf32>
  func.return %r : tensor<2x8x64xf32>
}
