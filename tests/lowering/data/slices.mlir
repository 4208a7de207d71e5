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

// What the search finds for SwiGLU with a fused gate/up weight (x @ w, chunked) at f16:
// the up half read in place as a window (offset 256) by the fused kernel, the gate half
// copied for the matmul that stays a kernel op of its own.
func.func @swiglu_windows(%0: tensor<64x256xf16>, %1: tensor<256x512xf16>, %2: tensor<256x256xf16>) -> tensor<64x256xf16> {
  %3 = kernel.slice %1 offsets [0, 0] : tensor<256x512xf16> -> tensor<256x256xf16>
  %4 = kernel.matmul %0, %3 : tensor<64x256xf16>, tensor<256x256xf16> -> tensor<64x256xf32>
  %5 = kernel.graph(%0, %1, %2, %4) grid [8, 8, 1] block [256, 1, 1] forloop 1 : (tensor<64x256xf16>, tensor<256x512xf16>, tensor<256x256xf16>, tensor<64x256xf32>) -> tensor<64x256xf16> {
  ^bb0(%6: tensor<64x256xf16>, %7: tensor<256x512xf16>, %8: tensor<256x256xf16>, %9: tensor<64x256xf32>):
    %10 = block.for_loop : tensor<8x32xf32> {
      %11 = block.input %6 imap [0, -1, -1] : tensor<64x256xf16> -> tensor<8x256xf16>
      %12 = block.input %7 imap [-1, -1, -1] view [256, 256] strides [512, 1] offset 256 : tensor<256x512xf16> -> tensor<256x256xf16>
      %13 = block.input %8 imap [-1, 1, -1] : tensor<256x256xf16> -> tensor<256x32xf16>
      %14 = block.input %9 imap [0, -1, -1] : tensor<64x256xf32> -> tensor<8x256xf32>
      %15 = block.matmul %11, %12 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf32>
      %16 = block.silu %14 : tensor<8x256xf32> -> tensor<8x256xf32>
      %17 = block.mul %15, %16 : tensor<8x256xf32>, tensor<8x256xf32> -> tensor<8x256xf16>
      %18 = block.matmul %17, %13 : tensor<8x256xf16>, tensor<256x32xf16> -> tensor<8x32xf32>
      %19 = block.accum_sum %18 : tensor<8x32xf32> -> tensor<8x32xf32>
      block.yield %19 : tensor<8x32xf32>
    }
    %20 = block.output %10 omap [0, 1, -1] : tensor<8x32xf32> -> tensor<64x256xf16>
    block.return %20 : tensor<64x256xf16>
  }
  func.return %5 : tensor<64x256xf16>
}