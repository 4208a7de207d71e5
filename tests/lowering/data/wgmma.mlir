// Block matmuls for the wgmma strategy, in shapes the benchmarks do not use.

// 128x1024 @ 1024x512 in 64x128 output tiles: A read through a descriptor (64 rows, one
// 128-byte panel of k), B of two panels; the accumulator stays in registers.
func.func @plain(%0: tensor<128x1024xf16>, %1: tensor<1024x512xf16>) -> tensor<128x512xf16> {
  %2 = kernel.graph(%0, %1) grid [4, 2, 1] block [128, 1, 1] forloop 16 : (tensor<128x1024xf16>, tensor<1024x512xf16>) -> tensor<128x512xf16> {
  ^bb0(%3: tensor<128x1024xf16>, %4: tensor<1024x512xf16>):
    %5 = block.for_loop : tensor<64x128xf32> {
      %6 = block.input %3 imap [-1, 0, -1] forloop_dim 1 : tensor<128x1024xf16> -> tensor<64x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<1024x512xf16> -> tensor<64x128xf16>
      %8 = block.matmul %6, %7 : tensor<64x64xf16>, tensor<64x128xf16> -> tensor<64x128xf32>
      %9 = block.accum_sum %8 : tensor<64x128xf32> -> tensor<64x128xf32>
      block.yield %9 : tensor<64x128xf32>
    }
    %10 = block.output %5 omap [1, 0, -1] : tensor<64x128xf32> -> tensor<128x512xf16>
    block.return %10 : tensor<128x512xf16>
  }
  func.return %2 : tensor<128x512xf16>
}

// Two warpgroups over 128x128 output tiles (one m64 tile each), k 64 a step.
func.func @two_groups(%0: tensor<256x512xf16>, %1: tensor<512x384xf16>) -> tensor<256x384xf16> {
  %2 = kernel.graph(%0, %1) grid [3, 2, 1] block [256, 1, 1] forloop 8 : (tensor<256x512xf16>, tensor<512x384xf16>) -> tensor<256x384xf16> {
  ^bb0(%3: tensor<256x512xf16>, %4: tensor<512x384xf16>):
    %5 = block.for_loop : tensor<128x128xf32> {
      %6 = block.input %3 imap [-1, 0, -1] forloop_dim 1 : tensor<256x512xf16> -> tensor<128x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<512x384xf16> -> tensor<64x128xf16>
      %8 = block.matmul %6, %7 : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
      %9 = block.accum_sum %8 : tensor<128x128xf32> -> tensor<128x128xf32>
      block.yield %9 : tensor<128x128xf32>
    }
    %10 = block.output %5 omap [1, 0, -1] : tensor<128x128xf32> -> tensor<256x384xf16>
    block.return %10 : tensor<256x384xf16>
  }
  func.return %2 : tensor<256x384xf16>
}

// A skinny product (24 rows, fewer than the 64 of one instruction: A from registers) with
// 96-column weight tiles (one and a half panels, so cp.async, not tensor maps, fills them).
func.func @skinny(%0: tensor<24x768xf16>, %1: tensor<768x1536xf16>) -> tensor<24x1536xf16> {
  %2 = kernel.graph(%0, %1) grid [16, 1, 1] block [128, 1, 1] forloop 6 : (tensor<24x768xf16>, tensor<768x1536xf16>) -> tensor<24x1536xf16> {
  ^bb0(%3: tensor<24x768xf16>, %4: tensor<768x1536xf16>):
    %5 = block.for_loop : tensor<24x96xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<24x768xf16> -> tensor<24x128xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<768x1536xf16> -> tensor<128x96xf16>
      %8 = block.matmul %6, %7 : tensor<24x128xf16>, tensor<128x96xf16> -> tensor<24x96xf32>
      %9 = block.accum_sum %8 : tensor<24x96xf32> -> tensor<24x96xf32>
      block.yield %9 : tensor<24x96xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<24x96xf32> -> tensor<24x1536xf16>
    block.return %10 : tensor<24x1536xf16>
  }
  func.return %2 : tensor<24x1536xf16>
}

// The matmul's result goes through a fused epilogue (silu, then a product with a third
// input) before it is summed over the 2 steps of k; bf16 operands.
func.func @epilogue(%0: tensor<192x256xbf16>, %1: tensor<256x320xbf16>, %2: tensor<192x320xf32>) -> tensor<192x320xf32> {
  %3 = kernel.graph(%0, %1, %2) grid [5, 3, 1] block [128, 1, 1] forloop 2 : (tensor<192x256xbf16>, tensor<256x320xbf16>, tensor<192x320xf32>) -> tensor<192x320xf32> {
  ^bb0(%4: tensor<192x256xbf16>, %5: tensor<256x320xbf16>, %6: tensor<192x320xf32>):
    %7 = block.for_loop : tensor<64x64xf32> {
      %8 = block.input %4 imap [-1, 0, -1] forloop_dim 1 : tensor<192x256xbf16> -> tensor<64x128xbf16>
      %9 = block.input %5 imap [1, -1, -1] forloop_dim 0 : tensor<256x320xbf16> -> tensor<128x64xbf16>
      %10 = block.input %6 imap [1, 0, -1] : tensor<192x320xf32> -> tensor<64x64xf32>
      %11 = block.matmul %8, %9 : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xf32>
      %12 = block.silu %11 : tensor<64x64xf32> -> tensor<64x64xf32>
      %13 = block.mul %12, %10 : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
      %14 = block.accum_sum %13 : tensor<64x64xf32> -> tensor<64x64xf32>
      block.yield %14 : tensor<64x64xf32>
    }
    %15 = block.output %7 omap [1, 0, -1] : tensor<64x64xf32> -> tensor<192x320xf32>
    block.return %15 : tensor<192x320xf32>
  }
  func.return %3 : tensor<192x320xf32>
}

// A batch of 2 per block (each warpgroup one), B's batch dim of 1 broadcast, and the
// partial products combined by a running maximum (the accumulator tile, every iteration).
func.func @batched_max(%0: tensor<4x64x256xf16>, %1: tensor<1x256x128xf16>) -> tensor<4x64x128xf16> {
  %2 = kernel.graph(%0, %1) grid [2, 1, 1] block [256, 1, 1] forloop 4 : (tensor<4x64x256xf16>, tensor<1x256x128xf16>) -> tensor<4x64x128xf16> {
  ^bb0(%3: tensor<4x64x256xf16>, %4: tensor<1x256x128xf16>):
    %5 = block.for_loop : tensor<2x64x128xf32> {
      %6 = block.input %3 imap [0, -1, -1] forloop_dim 2 : tensor<4x64x256xf16> -> tensor<2x64x64xf16>
      %7 = block.input %4 imap [-1, -1, -1] forloop_dim 1 : tensor<1x256x128xf16> -> tensor<1x64x128xf16>
      %8 = block.matmul %6, %7 : tensor<2x64x64xf16>, tensor<1x64x128xf16> -> tensor<2x64x128xf32>
      %9 = block.accum_max %8 : tensor<2x64x128xf32> -> tensor<2x64x128xf32>
      block.yield %9 : tensor<2x64x128xf32>
    }
    %10 = block.output %5 omap [0, -1, -1] : tensor<2x64x128xf32> -> tensor<4x64x128xf16>
    block.return %10 : tensor<4x64x128xf16>
  }
  func.return %2 : tensor<4x64x128xf16>
}
