// μGraphs whose streamed tiles suit tensor-map copies (2-D tiles of whole 128-byte panels).

// A weight-streaming matmul, x (16, 4096) @ W (4096, 8192): one W tile of 64x64 per block
// and iteration.
func.func @stream(%0: tensor<16x4096xf16>, %1: tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  %2 = kernel.graph(%0, %1) grid [128, 1, 1] block [128, 1, 1] forloop 64 : (tensor<16x4096xf16>, tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  ^bb0(%3: tensor<16x4096xf16>, %4: tensor<4096x8192xf16>):
    %5 = block.for_loop : tensor<16x64xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<4096x8192xf16> -> tensor<64x64xf16>
      %8 = block.matmul %6, %7 : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
      %9 = block.accum_sum %8 : tensor<16x64xf32> -> tensor<16x64xf32>
      block.yield %9 : tensor<16x64xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x8192xf16>
    block.return %10 : tensor<16x8192xf16>
  }
  func.return %2 : tensor<16x8192xf16>
}

// The same product with W tiles of 64x128: two 128-byte panels, two boxes per tile.
func.func @stream_wide(%0: tensor<16x4096xf16>, %1: tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  %2 = kernel.graph(%0, %1) grid [64, 1, 1] block [128, 1, 1] forloop 64 : (tensor<16x4096xf16>, tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  ^bb0(%3: tensor<16x4096xf16>, %4: tensor<4096x8192xf16>):
    %5 = block.for_loop : tensor<16x128xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<4096x8192xf16> -> tensor<64x128xf16>
      %8 = block.matmul %6, %7 : tensor<16x64xf16>, tensor<64x128xf16> -> tensor<16x128xf32>
      %9 = block.accum_sum %8 : tensor<16x128xf32> -> tensor<16x128xf32>
      block.yield %9 : tensor<16x128xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<16x128xf32> -> tensor<16x8192xf16>
    block.return %10 : tensor<16x8192xf16>
  }
  func.return %2 : tensor<16x8192xf16>
}

// A loop task that writes shared memory (the running maximum of the partial products):
// the consumer warps meet at a barrier in every iteration.
func.func @running_max(%0: tensor<16x1024xf16>, %1: tensor<1024x2048xf16>) -> tensor<16x2048xf16> {
  %2 = kernel.graph(%0, %1) grid [32, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x1024xf16>, tensor<1024x2048xf16>) -> tensor<16x2048xf16> {
  ^bb0(%3: tensor<16x1024xf16>, %4: tensor<1024x2048xf16>):
    %5 = block.for_loop : tensor<16x64xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<16x1024xf16> -> tensor<16x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<1024x2048xf16> -> tensor<64x64xf16>
      %8 = block.matmul %6, %7 : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
      %9 = block.accum_max %8 : tensor<16x64xf32> -> tensor<16x64xf32>
      block.yield %9 : tensor<16x64xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x2048xf16>
    block.return %10 : tensor<16x2048xf16>
  }
  func.return %2 : tensor<16x2048xf16>
}

// The kernel reads x through a retype (a reshape launches nothing): its tensor map has the
// kernel's 16x4096 shape over the 16x1x4096 buffer.
func.func @stream_retyped(%x: tensor<16x1x4096xf16>, %1: tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  %0 = kernel.reshape %x : tensor<16x1x4096xf16> -> tensor<16x4096xf16>
  %2 = kernel.graph(%0, %1) grid [128, 1, 1] block [128, 1, 1] forloop 64 : (tensor<16x4096xf16>, tensor<4096x8192xf16>) -> tensor<16x8192xf16> {
  ^bb0(%3: tensor<16x4096xf16>, %4: tensor<4096x8192xf16>):
    %5 = block.for_loop : tensor<16x64xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<16x4096xf16> -> tensor<16x64xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<4096x8192xf16> -> tensor<64x64xf16>
      %8 = block.matmul %6, %7 : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
      %9 = block.accum_sum %8 : tensor<16x64xf32> -> tensor<16x64xf32>
      block.yield %9 : tensor<16x64xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<16x64xf32> -> tensor<16x8192xf16>
    block.return %10 : tensor<16x8192xf16>
  }
  func.return %2 : tensor<16x8192xf16>
}

// A row reduction longer than one tile: the producer warp streams (1, 4096) tiles and
// the consumers combine partial maxima under tid == 0 between their named barriers.
func.func @row_max(%x: tensor<96x8192xf16>) -> tensor<96x1xf32> {
  %0 = kernel.reduce_max %x dim 1 : tensor<96x8192xf16> -> tensor<96x1xf32>
  func.return %0 : tensor<96x1xf32>
}

// A tile narrower than a panel and deeper than a box: W (2048, 768) in tiles of 512x48 (96
// bytes a row, 16 blocks): whole-panel boxes (64 columns) of 256 rows, two per tile.
func.func @narrow_deep(%0: tensor<2x2048xf16>, %1: tensor<2048x768xf16>) -> tensor<2x768xf16> {
  %2 = kernel.graph(%0, %1) grid [16, 1, 1] block [128, 1, 1] forloop 4 : (tensor<2x2048xf16>, tensor<2048x768xf16>) -> tensor<2x768xf16> {
  ^bb0(%3: tensor<2x2048xf16>, %4: tensor<2048x768xf16>):
    %5 = block.for_loop : tensor<2x48xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<2x2048xf16> -> tensor<2x512xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<2048x768xf16> -> tensor<512x48xf16>
      %8 = block.matmul %6, %7 : tensor<2x512xf16>, tensor<512x48xf16> -> tensor<2x48xf32>
      %9 = block.accum_sum %8 : tensor<2x48xf32> -> tensor<2x48xf32>
      block.yield %9 : tensor<2x48xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<2x48xf32> -> tensor<2x768xf16>
    block.return %10 : tensor<2x768xf16>
  }
  func.return %2 : tensor<2x768xf16>
}

// W tiles of 16 columns (32 bytes a row): a whole-panel box would copy four times what the
// kernel reads, so the tiles load by cp.async.
func.func @slim(%0: tensor<4x1024xf16>, %1: tensor<1024x256xf16>) -> tensor<4x256xf16> {
  %2 = kernel.graph(%0, %1) grid [16, 1, 1] block [128, 1, 1] forloop 8 : (tensor<4x1024xf16>, tensor<1024x256xf16>) -> tensor<4x256xf16> {
  ^bb0(%3: tensor<4x1024xf16>, %4: tensor<1024x256xf16>):
    %5 = block.for_loop : tensor<4x16xf32> {
      %6 = block.input %3 imap [-1, -1, -1] forloop_dim 1 : tensor<4x1024xf16> -> tensor<4x128xf16>
      %7 = block.input %4 imap [1, -1, -1] forloop_dim 0 : tensor<1024x256xf16> -> tensor<128x16xf16>
      %8 = block.matmul %6, %7 : tensor<4x128xf16>, tensor<128x16xf16> -> tensor<4x16xf32>
      %9 = block.accum_sum %8 : tensor<4x16xf32> -> tensor<4x16xf32>
      block.yield %9 : tensor<4x16xf32>
    }
    %10 = block.output %5 omap [1, -1, -1] : tensor<4x16xf32> -> tensor<4x256xf16>
    block.return %10 : tensor<4x256xf16>
  }
  func.return %2 : tensor<4x256xf16>
}

// gated_mlp's two 512x32 weight tiles a block (64-byte rows): a whole-panel box would copy
// twice the bytes a row reads
func.func @gated_narrow(%0: tensor<8x4096xf16>, %1: tensor<4096x4096xf16>, %2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [128, 1, 1] block [128, 1, 1] forloop 8 : (tensor<8x4096xf16>, tensor<4096x4096xf16>, tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  ^bb0(%4: tensor<8x4096xf16>, %5: tensor<4096x4096xf16>, %6: tensor<4096x4096xf16>):
    %7, %8 = block.for_loop : tensor<8x32xf32>, tensor<8x32xf32> {
      %9 = block.input %4 imap [-1, -1, -1] forloop_dim 1 : tensor<8x4096xf16> -> tensor<8x512xf16>
      %10 = block.input %5 imap [1, -1, -1] forloop_dim 0 : tensor<4096x4096xf16> -> tensor<512x32xf16>
      %11 = block.input %6 imap [1, -1, -1] forloop_dim 0 : tensor<4096x4096xf16> -> tensor<512x32xf16>
      %12 = block.matmul %9, %10 : tensor<8x512xf16>, tensor<512x32xf16> -> tensor<8x32xf32>
      %13 = block.matmul %9, %11 : tensor<8x512xf16>, tensor<512x32xf16> -> tensor<8x32xf32>
      %14 = block.accum_sum %12 : tensor<8x32xf32> -> tensor<8x32xf32>
      %15 = block.accum_sum %13 : tensor<8x32xf32> -> tensor<8x32xf32>
      block.yield %14, %15 : tensor<8x32xf32>, tensor<8x32xf32>
    }
    %16 = thread.fuse(%7, %8) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32> {
    ^bb0(%17: f32, %18: f32):
      %19 = thread.silu %17 : f32
      %20 = thread.mul %18, %19 : f32
      thread.yield %20 : f32
    }
    %21 = block.output %16 omap [1, -1, -1] : tensor<8x32xf32> -> tensor<8x4096xf16>
    block.return %21 : tensor<8x4096xf16>
  }
  func.return %3 : tensor<8x4096xf16>
}
