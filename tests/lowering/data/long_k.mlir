// Matmuls whose warps each hold one m16n8 tile over a long k: each warp keeps several
// accumulators along k (independent mma.sync), summed after its last step.

// the loop runs once: the product is stored (16 k steps a warp)
func.func @long_k(%x: tensor<16x256xf16>, %w: tensor<256x128xf16>) -> tensor<16x128xf16> {
  %y = kernel.graph(%x, %w) grid [4, 1, 1] block [128, 1, 1] forloop 1
      : (tensor<16x256xf16>, tensor<256x128xf16>) -> tensor<16x128xf16> {
  ^bb0(%X: tensor<16x256xf16>, %W: tensor<256x128xf16>):
    %acc = block.for_loop : tensor<16x32xf32> {
      %tx = block.input %X imap [-1, -1, -1] : tensor<16x256xf16> -> tensor<16x256xf16>
      %tw = block.input %W imap [1, -1, -1] : tensor<256x128xf16> -> tensor<256x32xf16>
      %p = block.matmul %tx, %tw : tensor<16x256xf16>, tensor<256x32xf16> -> tensor<16x32xf32>
      %a = block.accum_sum %p : tensor<16x32xf32> -> tensor<16x32xf32>
      block.yield %a : tensor<16x32xf32>
    }
    %out = block.output %acc omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x128xf16>
    block.return %out : tensor<16x128xf16>
  }
  func.return %y : tensor<16x128xf16>
}

// the loop runs once: the product is stored (32 k steps a warp, in a loop of 8 steps of 4)
func.func @long_k_deep(%x: tensor<16x512xf16>, %w: tensor<512x128xf16>) -> tensor<16x128xf16> {
  %y = kernel.graph(%x, %w) grid [4, 1, 1] block [128, 1, 1] forloop 1
      : (tensor<16x512xf16>, tensor<512x128xf16>) -> tensor<16x128xf16> {
  ^bb0(%X: tensor<16x512xf16>, %W: tensor<512x128xf16>):
    %acc = block.for_loop : tensor<16x32xf32> {
      %tx = block.input %X imap [-1, -1, -1] : tensor<16x512xf16> -> tensor<16x512xf16>
      %tw = block.input %W imap [1, -1, -1] : tensor<512x128xf16> -> tensor<512x32xf16>
      %p = block.matmul %tx, %tw : tensor<16x512xf16>, tensor<512x32xf16> -> tensor<16x32xf32>
      %a = block.accum_sum %p : tensor<16x32xf32> -> tensor<16x32xf32>
      block.yield %a : tensor<16x32xf32>
    }
    %out = block.output %acc omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x128xf16>
    block.return %out : tensor<16x128xf16>
  }
  func.return %y : tensor<16x128xf16>
}

// three iterations of 6 k steps a warp, the accumulator in registers across them (6 is
// not a multiple of 4: three accumulators)
func.func @long_k_looped(%x: tensor<8x288xbf16>, %w: tensor<288x64xbf16>) -> tensor<8x64xbf16> {
  %y = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 3
      : (tensor<8x288xbf16>, tensor<288x64xbf16>) -> tensor<8x64xbf16> {
  ^bb0(%X: tensor<8x288xbf16>, %W: tensor<288x64xbf16>):
    %acc = block.for_loop : tensor<8x32xf32> {
      %tx = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x288xbf16> -> tensor<8x96xbf16>
      %tw = block.input %W imap [1, -1, -1] forloop_dim 0 : tensor<288x64xbf16> -> tensor<96x32xbf16>
      %p = block.matmul %tx, %tw : tensor<8x96xbf16>, tensor<96x32xbf16> -> tensor<8x32xf32>
      %a = block.accum_sum %p : tensor<8x32xf32> -> tensor<8x32xf32>
      block.yield %a : tensor<8x32xf32>
    }
    %out = block.output %acc omap [1, -1, -1] : tensor<8x32xf32> -> tensor<8x64xbf16>
    block.return %out : tensor<8x64xbf16>
  }
  func.return %y : tensor<8x64xbf16>
}
