// Online-softmax attention whose loop stays in registers (the online chain of
// lowering/optimize/plan.py): each warp holds whole rows of the scores, the row maxima
// come from quad shuffles, and O, the row sums and the running maxima never leave
// registers. Shapes are not the benchmarks'.
// online_rows64: 64-row tiles, one m16 tile per warp, 64 keys a step
func.func @online_rows64(%0: tensor<2x128x32xf16>, %1: tensor<2x32x256xf16>, %2: tensor<2x256x32xf16>) -> tensor<2x128x32xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x128x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> tensor<2x128x32xf16> {
  ^bb0(%4: tensor<2x128x32xf16>, %5: tensor<2x32x256xf16>, %6: tensor<2x256x32xf16>):
    %7, %8 = block.for_loop : tensor<1x64x32xf32>, tensor<1x64x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x128x32xf16> -> tensor<1x64x32xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x32x256xf16> -> tensor<1x32x64xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x256x32xf16> -> tensor<1x64x32xf16>
      %12 = block.matmul %9, %10 : tensor<1x64x32xf16>, tensor<1x32x64xf16> -> tensor<1x64x64xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x64x64xf32> -> tensor<1x64x1xf32>
      %14 = block.sub %12, %13 : tensor<1x64x64xf32>, tensor<1x64x1xf32> -> tensor<1x64x64xf32>
      %15 = block.exp %14 : tensor<1x64x64xf32> -> tensor<1x64x64xf16>
      %16 = block.matmul %15, %11 : tensor<1x64x64xf16>, tensor<1x64x32xf16> -> tensor<1x64x32xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x64x32xf32>, tensor<1x64x1xf32> -> tensor<1x64x32xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
      block.yield %18, %19 : tensor<1x64x32xf32>, tensor<1x64x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x64x32xf32>, tensor<1x64x1xf32> -> tensor<1x64x32xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x64x32xf32> -> tensor<2x128x32xf16>
    block.return %21 : tensor<2x128x32xf16>
  }
  func.return %3 : tensor<2x128x32xf16>
}

// online_ragged: 40 rows (the last m16 tile partial) over 3 warps, 32 keys a step
func.func @online_ragged(%0: tensor<2x40x16xf16>, %1: tensor<2x16x96xf16>, %2: tensor<2x96x16xf16>) -> tensor<2x40x16xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [1, 2, 1] block [96, 1, 1] forloop 3 : (tensor<2x40x16xf16>, tensor<2x16x96xf16>, tensor<2x96x16xf16>) -> tensor<2x40x16xf16> {
  ^bb0(%4: tensor<2x40x16xf16>, %5: tensor<2x16x96xf16>, %6: tensor<2x96x16xf16>):
    %7, %8 = block.for_loop : tensor<1x40x16xf32>, tensor<1x40x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x40x16xf16> -> tensor<1x40x16xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x16x96xf16> -> tensor<1x16x32xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x96x16xf16> -> tensor<1x32x16xf16>
      %12 = block.matmul %9, %10 : tensor<1x40x16xf16>, tensor<1x16x32xf16> -> tensor<1x40x32xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x40x32xf32> -> tensor<1x40x1xf32>
      %14 = block.sub %12, %13 : tensor<1x40x32xf32>, tensor<1x40x1xf32> -> tensor<1x40x32xf32>
      %15 = block.exp %14 : tensor<1x40x32xf32> -> tensor<1x40x32xf16>
      %16 = block.matmul %15, %11 : tensor<1x40x32xf16>, tensor<1x32x16xf16> -> tensor<1x40x16xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x40x32xf16> -> tensor<1x40x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x40x16xf32>, tensor<1x40x1xf32> -> tensor<1x40x16xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x40x1xf32>, tensor<1x40x1xf32> -> tensor<1x40x1xf32>
      block.yield %18, %19 : tensor<1x40x16xf32>, tensor<1x40x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x40x16xf32>, tensor<1x40x1xf32> -> tensor<1x40x16xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x40x16xf32> -> tensor<2x40x16xf16>
    block.return %21 : tensor<2x40x16xf16>
  }
  func.return %3 : tensor<2x40x16xf16>
}

// online_batched: both batches in one block, one warp each
func.func @online_batched(%0: tensor<2x32x32xf16>, %1: tensor<2x32x128xf16>, %2: tensor<2x128x32xf16>) -> tensor<2x32x32xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 1, 1] block [64, 1, 1] forloop 2 : (tensor<2x32x32xf16>, tensor<2x32x128xf16>, tensor<2x128x32xf16>) -> tensor<2x32x32xf16> {
  ^bb0(%4: tensor<2x32x32xf16>, %5: tensor<2x32x128xf16>, %6: tensor<2x128x32xf16>):
    %7, %8 = block.for_loop : tensor<2x16x32xf32>, tensor<2x16x1xf32> {
      %9 = block.input %4 imap [1, -1, -1] : tensor<2x32x32xf16> -> tensor<2x16x32xf16>
      %10 = block.input %5 imap [-1, -1, -1] forloop_dim 2 : tensor<2x32x128xf16> -> tensor<2x32x64xf16>
      %11 = block.input %6 imap [-1, -1, -1] forloop_dim 1 : tensor<2x128x32xf16> -> tensor<2x64x32xf16>
      %12 = block.matmul %9, %10 : tensor<2x16x32xf16>, tensor<2x32x64xf16> -> tensor<2x16x64xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<2x16x64xf32> -> tensor<2x16x1xf32>
      %14 = block.sub %12, %13 : tensor<2x16x64xf32>, tensor<2x16x1xf32> -> tensor<2x16x64xf32>
      %15 = block.exp %14 : tensor<2x16x64xf32> -> tensor<2x16x64xf16>
      %16 = block.matmul %15, %11 : tensor<2x16x64xf16>, tensor<2x64x32xf16> -> tensor<2x16x32xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<2x16x64xf16> -> tensor<2x16x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<2x16x32xf32>, tensor<2x16x1xf32> -> tensor<2x16x32xf32>
      %19 = block.accum_rescale %17, %13 : tensor<2x16x1xf32>, tensor<2x16x1xf32> -> tensor<2x16x1xf32>
      block.yield %18, %19 : tensor<2x16x32xf32>, tensor<2x16x1xf32>
    }
    %20 = block.div %7, %8 : tensor<2x16x32xf32>, tensor<2x16x1xf32> -> tensor<2x16x32xf32>
    %21 = block.output %20 omap [1, -1, -1] : tensor<2x16x32xf32> -> tensor<2x32x32xf16>
    block.return %21 : tensor<2x32x32xf16>
  }
  func.return %3 : tensor<2x32x32xf16>
}

// online_split: split-KV, the first kernel's running maxima written (accum_max), then combined
func.func @online_split(%0: tensor<2x64x32xf16>, %1: tensor<2x32x512xf16>, %2: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %3, %4, %5 = kernel.graph(%0, %1, %2) grid [2, 1, 4] block [128, 1, 1] forloop 2 : (tensor<2x64x32xf16>, tensor<2x32x512xf16>, tensor<2x512x32xf16>) -> (tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>) {
  ^bb0(%6: tensor<2x64x32xf16>, %7: tensor<2x32x512xf16>, %8: tensor<2x512x32xf16>):
    %9, %10, %11 = block.for_loop : tensor<1x64x32xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32> {
      %12 = block.input %6 imap [0, 1, -1] : tensor<2x64x32xf16> -> tensor<1x64x32xf16>
      %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<2x32x512xf16> -> tensor<1x32x64xf16>
      %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<2x512x32xf16> -> tensor<1x64x32xf16>
      %15 = block.matmul %12, %13 : tensor<1x64x32xf16>, tensor<1x32x64xf16> -> tensor<1x64x64xf32>
      %16 = block.reduce_max %15 dim 2 : tensor<1x64x64xf32> -> tensor<1x64x1xf32>
      %17 = block.sub %15, %16 : tensor<1x64x64xf32>, tensor<1x64x1xf32> -> tensor<1x64x64xf32>
      %18 = block.exp %17 : tensor<1x64x64xf32> -> tensor<1x64x64xf16>
      %19 = block.matmul %18, %14 : tensor<1x64x64xf16>, tensor<1x64x32xf16> -> tensor<1x64x32xf32>
      %20 = block.reduce_sum %18 dim 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf32>
      %21 = block.accum_rescale %19, %16 : tensor<1x64x32xf32>, tensor<1x64x1xf32> -> tensor<1x64x32xf32>
      %22 = block.accum_rescale %20, %16 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
      %23 = block.accum_max %16 : tensor<1x64x1xf32> -> tensor<1x64x1xf32>
      block.yield %21, %22, %23 : tensor<1x64x32xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32>
    }
    %24 = block.output %9 omap [0, 1, 2] : tensor<1x64x32xf32> -> tensor<2x64x128xf32>
    %25 = block.output %10 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<2x64x4xf32>
    %26 = block.output %11 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<2x64x4xf32>
    block.return %24, %25, %26 : tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>
  }
  %6 = kernel.graph(%3, %4, %5) grid [2, 16, 1] block [128, 1, 1] forloop 4 : (tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>) -> tensor<2x64x32xf16> {
  ^bb0(%7: tensor<2x64x128xf32>, %8: tensor<2x64x4xf32>, %9: tensor<2x64x4xf32>):
    %10, %11 = block.for_loop : tensor<1x4x32xf32>, tensor<1x4x1xf32> {
      %12 = block.input %7 imap [0, 1, -1] forloop_dim 2 : tensor<2x64x128xf32> -> tensor<1x4x32xf32>
      %13 = block.input %8 imap [0, 1, -1] forloop_dim 2 : tensor<2x64x4xf32> -> tensor<1x4x1xf32>
      %14 = block.input %9 imap [0, 1, -1] forloop_dim 2 : tensor<2x64x4xf32> -> tensor<1x4x1xf32>
      %15 = block.accum_rescale %12, %14 : tensor<1x4x32xf32>, tensor<1x4x1xf32> -> tensor<1x4x32xf32>
      %16 = block.accum_rescale %13, %14 : tensor<1x4x1xf32>, tensor<1x4x1xf32> -> tensor<1x4x1xf32>
      block.yield %15, %16 : tensor<1x4x32xf32>, tensor<1x4x1xf32>
    }
    %17 = block.div %10, %11 : tensor<1x4x32xf32>, tensor<1x4x1xf32> -> tensor<1x4x32xf32>
    %18 = block.output %17 omap [0, 1, -1] : tensor<1x4x32xf32> -> tensor<2x64x32xf16>
    block.return %18 : tensor<2x64x32xf16>
  }
  func.return %6 : tensor<2x64x32xf16>
}

// online_scaled: e = exp(S - m) / 2 (not exp(S - m) itself: the step's e V is rescaled apart)
func.func @online_scaled(%0: tensor<2x64x32xf16>, %1: tensor<2x32x192xf16>, %2: tensor<2x192x32xf16>) -> tensor<2x64x32xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [1, 2, 1] block [128, 1, 1] forloop 3 : (tensor<2x64x32xf16>, tensor<2x32x192xf16>, tensor<2x192x32xf16>) -> tensor<2x64x32xf16> {
  ^bb0(%4: tensor<2x64x32xf16>, %5: tensor<2x32x192xf16>, %6: tensor<2x192x32xf16>):
    %7, %8 = block.for_loop : tensor<1x64x32xf32>, tensor<1x64x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x64x32xf16> -> tensor<1x64x32xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x32x192xf16> -> tensor<1x32x64xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x192x32xf16> -> tensor<1x64x32xf16>
      %12 = block.matmul %9, %10 : tensor<1x64x32xf16>, tensor<1x32x64xf16> -> tensor<1x64x64xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x64x64xf32> -> tensor<1x64x1xf32>
      %14 = block.sub %12, %13 : tensor<1x64x64xf32>, tensor<1x64x1xf32> -> tensor<1x64x64xf32>
      %x = block.exp %14 : tensor<1x64x64xf32> -> tensor<1x64x64xf32>
      %15 = block.mul_scalar %x, 5.000000e-01 : tensor<1x64x64xf32> -> tensor<1x64x64xf16>
      %16 = block.matmul %15, %11 : tensor<1x64x64xf16>, tensor<1x64x32xf16> -> tensor<1x64x32xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x64x32xf32>, tensor<1x64x1xf32> -> tensor<1x64x32xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
      block.yield %18, %19 : tensor<1x64x32xf32>, tensor<1x64x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x64x32xf32>, tensor<1x64x1xf32> -> tensor<1x64x32xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x64x32xf32> -> tensor<2x64x32xf16>
    block.return %21 : tensor<2x64x32xf16>
  }
  func.return %3 : tensor<2x64x32xf16>
}

// online_d128: head dim 128 (64 accumulator registers a thread), 64 keys a step
func.func @online_d128(%0: tensor<2x64x128xf16>, %1: tensor<2x128x256xf16>, %2: tensor<2x256x128xf16>) -> tensor<2x64x128xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [1, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x64x128xf16>, tensor<2x128x256xf16>, tensor<2x256x128xf16>) -> tensor<2x64x128xf16> {
  ^bb0(%4: tensor<2x64x128xf16>, %5: tensor<2x128x256xf16>, %6: tensor<2x256x128xf16>):
    %7, %8 = block.for_loop : tensor<1x64x128xf32>, tensor<1x64x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x64x128xf16> -> tensor<1x64x128xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x128x256xf16> -> tensor<1x128x64xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x256x128xf16> -> tensor<1x64x128xf16>
      %12 = block.matmul %9, %10 : tensor<1x64x128xf16>, tensor<1x128x64xf16> -> tensor<1x64x64xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x64x64xf32> -> tensor<1x64x1xf32>
      %14 = block.sub %12, %13 : tensor<1x64x64xf32>, tensor<1x64x1xf32> -> tensor<1x64x64xf32>
      %15 = block.exp %14 : tensor<1x64x64xf32> -> tensor<1x64x64xf16>
      %16 = block.matmul %15, %11 : tensor<1x64x64xf16>, tensor<1x64x128xf16> -> tensor<1x64x128xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x64x64xf16> -> tensor<1x64x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
      block.yield %18, %19 : tensor<1x64x128xf32>, tensor<1x64x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x64x128xf32> -> tensor<2x64x128xf16>
    block.return %21 : tensor<2x64x128xf16>
  }
  func.return %3 : tensor<2x64x128xf16>
}


// online_rows48: 48-row tiles over one warpgroup (wgmma pads them to its m64; mma.sync's
// four warps cannot hold whole rows of three m16 tiles), 32 keys a step
func.func @online_rows48(%0: tensor<2x96x32xf16>, %1: tensor<2x32x128xf16>, %2: tensor<2x128x32xf16>) -> tensor<2x96x32xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x96x32xf16>, tensor<2x32x128xf16>, tensor<2x128x32xf16>) -> tensor<2x96x32xf16> {
  ^bb0(%4: tensor<2x96x32xf16>, %5: tensor<2x32x128xf16>, %6: tensor<2x128x32xf16>):
    %7, %8 = block.for_loop : tensor<1x48x32xf32>, tensor<1x48x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x96x32xf16> -> tensor<1x48x32xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x32x128xf16> -> tensor<1x32x32xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x128x32xf16> -> tensor<1x32x32xf16>
      %12 = block.matmul %9, %10 : tensor<1x48x32xf16>, tensor<1x32x32xf16> -> tensor<1x48x32xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x48x32xf32> -> tensor<1x48x1xf32>
      %14 = block.sub %12, %13 : tensor<1x48x32xf32>, tensor<1x48x1xf32> -> tensor<1x48x32xf32>
      %15 = block.exp %14 : tensor<1x48x32xf32> -> tensor<1x48x32xf16>
      %16 = block.matmul %15, %11 : tensor<1x48x32xf16>, tensor<1x32x32xf16> -> tensor<1x48x32xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x48x32xf16> -> tensor<1x48x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x48x32xf32>, tensor<1x48x1xf32> -> tensor<1x48x32xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x48x1xf32>, tensor<1x48x1xf32> -> tensor<1x48x1xf32>
      block.yield %18, %19 : tensor<1x48x32xf32>, tensor<1x48x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x48x32xf32>, tensor<1x48x1xf32> -> tensor<1x48x32xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x48x32xf32> -> tensor<2x96x32xf16>
    block.return %21 : tensor<2x96x32xf16>
  }
  func.return %3 : tensor<2x96x32xf16>
}

// online_rows128: 128-row tiles, two m64 tiles a warpgroup (two m16 tiles a warp), 64
// keys a step, head dim 48
func.func @online_rows128(%0: tensor<2x256x48xf16>, %1: tensor<2x48x192xf16>, %2: tensor<2x192x48xf16>) -> tensor<2x256x48xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 2, 1] block [128, 1, 1] forloop 3 : (tensor<2x256x48xf16>, tensor<2x48x192xf16>, tensor<2x192x48xf16>) -> tensor<2x256x48xf16> {
  ^bb0(%4: tensor<2x256x48xf16>, %5: tensor<2x48x192xf16>, %6: tensor<2x192x48xf16>):
    %7, %8 = block.for_loop : tensor<1x128x48xf32>, tensor<1x128x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x256x48xf16> -> tensor<1x128x48xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x48x192xf16> -> tensor<1x48x64xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x192x48xf16> -> tensor<1x64x48xf16>
      %12 = block.matmul %9, %10 : tensor<1x128x48xf16>, tensor<1x48x64xf16> -> tensor<1x128x64xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x128x64xf32> -> tensor<1x128x1xf32>
      %14 = block.sub %12, %13 : tensor<1x128x64xf32>, tensor<1x128x1xf32> -> tensor<1x128x64xf32>
      %15 = block.exp %14 : tensor<1x128x64xf32> -> tensor<1x128x64xf16>
      %16 = block.matmul %15, %11 : tensor<1x128x64xf16>, tensor<1x64x48xf16> -> tensor<1x128x48xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x128x64xf16> -> tensor<1x128x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x128x48xf32>, tensor<1x128x1xf32> -> tensor<1x128x48xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
      block.yield %18, %19 : tensor<1x128x48xf32>, tensor<1x128x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x128x48xf32>, tensor<1x128x1xf32> -> tensor<1x128x48xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x128x48xf32> -> tensor<2x256x48xf16>
    block.return %21 : tensor<2x256x48xf16>
  }
  func.return %3 : tensor<2x256x48xf16>
}

// online_wide: 128-row tiles over two warpgroups (eight warps), head dim 128, 128 keys a
// step: tensor work enough per byte loaded that a plain loop would ask for two blocks an
// SM; the chain's loop keeps a ring of stages instead
func.func @online_wide(%0: tensor<2x256x128xf16>, %1: tensor<2x128x512xf16>, %2: tensor<2x512x128xf16>) -> tensor<2x256x128xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 2, 1] block [256, 1, 1] forloop 4 : (tensor<2x256x128xf16>, tensor<2x128x512xf16>, tensor<2x512x128xf16>) -> tensor<2x256x128xf16> {
  ^bb0(%4: tensor<2x256x128xf16>, %5: tensor<2x128x512xf16>, %6: tensor<2x512x128xf16>):
    %7, %8 = block.for_loop : tensor<1x128x128xf32>, tensor<1x128x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<2x256x128xf16> -> tensor<1x128x128xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<2x128x512xf16> -> tensor<1x128x128xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<2x512x128xf16> -> tensor<1x128x128xf16>
      %12 = block.matmul %9, %10 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x128x128xf32> -> tensor<1x128x1xf32>
      %14 = block.sub %12, %13 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
      %15 = block.exp %14 : tensor<1x128x128xf32> -> tensor<1x128x128xf16>
      %16 = block.matmul %15, %11 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x128x128xf16> -> tensor<1x128x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
      block.yield %18, %19 : tensor<1x128x128xf32>, tensor<1x128x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x128x128xf32> -> tensor<2x256x128xf16>
    block.return %21 : tensor<2x256x128xf16>
  }
  func.return %3 : tensor<2x256x128xf16>
}

// online_many: online_wide over 192 blocks (more than one a multiprocessor): one stage
// would let two share an SM for one wave; the chain's loop keeps a ring of stages instead
func.func @online_many(%0: tensor<3x8192x128xf16>, %1: tensor<3x128x256xf16>, %2: tensor<3x256x128xf16>) -> tensor<3x8192x128xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [64, 3, 1] block [256, 1, 1] forloop 2 : (tensor<3x8192x128xf16>, tensor<3x128x256xf16>, tensor<3x256x128xf16>) -> tensor<3x8192x128xf16> {
  ^bb0(%4: tensor<3x8192x128xf16>, %5: tensor<3x128x256xf16>, %6: tensor<3x256x128xf16>):
    %7, %8 = block.for_loop : tensor<1x128x128xf32>, tensor<1x128x1xf32> {
      %9 = block.input %4 imap [1, 0, -1] : tensor<3x8192x128xf16> -> tensor<1x128x128xf16>
      %10 = block.input %5 imap [-1, 0, -1] forloop_dim 2 : tensor<3x128x256xf16> -> tensor<1x128x128xf16>
      %11 = block.input %6 imap [-1, 0, -1] forloop_dim 1 : tensor<3x256x128xf16> -> tensor<1x128x128xf16>
      %12 = block.matmul %9, %10 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x128x128xf32> -> tensor<1x128x1xf32>
      %14 = block.sub %12, %13 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
      %15 = block.exp %14 : tensor<1x128x128xf32> -> tensor<1x128x128xf16>
      %16 = block.matmul %15, %11 : tensor<1x128x128xf16>, tensor<1x128x128xf16> -> tensor<1x128x128xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x128x128xf16> -> tensor<1x128x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
      block.yield %18, %19 : tensor<1x128x128xf32>, tensor<1x128x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x128x128xf32>, tensor<1x128x1xf32> -> tensor<1x128x128xf32>
    %21 = block.output %20 omap [1, 0, -1] : tensor<1x128x128xf32> -> tensor<3x8192x128xf16>
    block.return %21 : tensor<3x8192x128xf16>
  }
  func.return %3 : tensor<3x8192x128xf16>
}
