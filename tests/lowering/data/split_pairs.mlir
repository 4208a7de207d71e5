// Split-KV pairs that run as one launch of thread-block clusters (cluster_join): shapes
// and splits the benchmark programs do not use.
builtin.module {
  // 8 key slices (clusters of 8 along z), 64 query rows a block, 8 rows a combine block.
  func.func @split8(%0: tensor<4x128x32xf16>, %1: tensor<4x32x1024xf16>, %2: tensor<4x1024x32xf16>) -> tensor<4x128x32xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [4, 2, 8] block [128, 1, 1] forloop 2 : (tensor<4x128x32xf16>, tensor<4x32x1024xf16>, tensor<4x1024x32xf16>) -> (tensor<4x128x256xf32>, tensor<4x128x8xf32>, tensor<4x128x8xf32>) {
    ^bb0(%6: tensor<4x128x32xf16>, %7: tensor<4x32x1024xf16>, %8: tensor<4x1024x32xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x64x32xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32> {
        %12 = block.input %6 imap [0, 1, -1] : tensor<4x128x32xf16> -> tensor<1x64x32xf16>
        %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<4x32x1024xf16> -> tensor<1x32x64xf16>
        %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<4x1024x32xf16> -> tensor<1x64x32xf16>
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
      %24 = block.output %9 omap [0, 1, 2] : tensor<1x64x32xf32> -> tensor<4x128x256xf32>
      %25 = block.output %10 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<4x128x8xf32>
      %26 = block.output %11 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<4x128x8xf32>
      block.return %24, %25, %26 : tensor<4x128x256xf32>, tensor<4x128x8xf32>, tensor<4x128x8xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [4, 16, 1] block [64, 1, 1] forloop 8 : (tensor<4x128x256xf32>, tensor<4x128x8xf32>, tensor<4x128x8xf32>) -> tensor<4x128x32xf16> {
    ^bb0(%7: tensor<4x128x256xf32>, %8: tensor<4x128x8xf32>, %9: tensor<4x128x8xf32>):
      %10, %11 = block.for_loop : tensor<1x8x32xf32>, tensor<1x8x1xf32> {
        %12 = block.input %7 imap [0, 1, -1] forloop_dim 2 : tensor<4x128x256xf32> -> tensor<1x8x32xf32>
        %13 = block.input %8 imap [0, 1, -1] forloop_dim 2 : tensor<4x128x8xf32> -> tensor<1x8x1xf32>
        %14 = block.input %9 imap [0, 1, -1] forloop_dim 2 : tensor<4x128x8xf32> -> tensor<1x8x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x8x32xf32>, tensor<1x8x1xf32> -> tensor<1x8x32xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x8x1xf32>, tensor<1x8x1xf32> -> tensor<1x8x1xf32>
        block.yield %15, %16 : tensor<1x8x32xf32>, tensor<1x8x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x8x32xf32>, tensor<1x8x1xf32> -> tensor<1x8x32xf32>
      %18 = block.output %17 omap [0, 1, -1] : tensor<1x8x32xf32> -> tensor<4x128x32xf16>
      block.return %18 : tensor<4x128x32xf16>
    }
    func.return %6 : tensor<4x128x32xf16>
  }

  // The same pair with the combine's rows split over grid x and the batch over y: the
  // cluster's ranks map to the combine's x coordinate.
  func.func @split4_swapped(%0: tensor<2x64x32xf16>, %1: tensor<2x32x512xf16>, %2: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [2, 1, 4] block [128, 1, 1] forloop 2 : (tensor<2x64x32xf16>, tensor<2x32x512xf16>, tensor<2x512x32xf16>) -> (tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>) {
    ^bb0(%6: tensor<2x64x32xf16>, %7: tensor<2x32x512xf16>, %8: tensor<2x512x32xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x64x32xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32> {
        %12 = block.input %6 imap [0, -1, -1] : tensor<2x64x32xf16> -> tensor<1x64x32xf16>
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
      %24 = block.output %9 omap [0, -1, 2] : tensor<1x64x32xf32> -> tensor<2x64x128xf32>
      %25 = block.output %10 omap [0, -1, 2] : tensor<1x64x1xf32> -> tensor<2x64x4xf32>
      %26 = block.output %11 omap [0, -1, 2] : tensor<1x64x1xf32> -> tensor<2x64x4xf32>
      block.return %24, %25, %26 : tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [4, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x64x128xf32>, tensor<2x64x4xf32>, tensor<2x64x4xf32>) -> tensor<2x64x32xf16> {
    ^bb0(%7: tensor<2x64x128xf32>, %8: tensor<2x64x4xf32>, %9: tensor<2x64x4xf32>):
      %10, %11 = block.for_loop : tensor<1x16x32xf32>, tensor<1x16x1xf32> {
        %12 = block.input %7 imap [1, 0, -1] forloop_dim 2 : tensor<2x64x128xf32> -> tensor<1x16x32xf32>
        %13 = block.input %8 imap [1, 0, -1] forloop_dim 2 : tensor<2x64x4xf32> -> tensor<1x16x1xf32>
        %14 = block.input %9 imap [1, 0, -1] forloop_dim 2 : tensor<2x64x4xf32> -> tensor<1x16x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x16x1xf32>, tensor<1x16x1xf32> -> tensor<1x16x1xf32>
        block.yield %15, %16 : tensor<1x16x32xf32>, tensor<1x16x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf32>
      %18 = block.output %17 omap [1, 0, -1] : tensor<1x16x32xf32> -> tensor<2x64x32xf16>
      block.return %18 : tensor<2x64x32xf16>
    }
    func.return %6 : tensor<2x64x32xf16>
  }
  // 4 key slices of 4 steps at head dim 64 (tiles of whole 128-byte rows: tensor-map
  // loads on sm_90a), 64 query rows a block, 16 rows a combine block.
  func.func @split4_tma(%0: tensor<2x128x64xf16>, %1: tensor<2x64x2048xf16>, %2: tensor<2x2048x64xf16>) -> tensor<2x128x64xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [2, 2, 4] block [128, 1, 1] forloop 4 : (tensor<2x128x64xf16>, tensor<2x64x2048xf16>, tensor<2x2048x64xf16>) -> (tensor<2x128x256xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) {
    ^bb0(%6: tensor<2x128x64xf16>, %7: tensor<2x64x2048xf16>, %8: tensor<2x2048x64xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x64x64xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32> {
        %12 = block.input %6 imap [0, 1, -1] : tensor<2x128x64xf16> -> tensor<1x64x64xf16>
        %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<2x64x2048xf16> -> tensor<1x64x128xf16>
        %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<2x2048x64xf16> -> tensor<1x128x64xf16>
        %15 = block.matmul %12, %13 : tensor<1x64x64xf16>, tensor<1x64x128xf16> -> tensor<1x64x128xf32>
        %16 = block.reduce_max %15 dim 2 : tensor<1x64x128xf32> -> tensor<1x64x1xf32>
        %17 = block.sub %15, %16 : tensor<1x64x128xf32>, tensor<1x64x1xf32> -> tensor<1x64x128xf32>
        %18 = block.exp %17 : tensor<1x64x128xf32> -> tensor<1x64x128xf16>
        %19 = block.matmul %18, %14 : tensor<1x64x128xf16>, tensor<1x128x64xf16> -> tensor<1x64x64xf32>
        %20 = block.reduce_sum %18 dim 2 : tensor<1x64x128xf16> -> tensor<1x64x1xf32>
        %21 = block.accum_rescale %19, %16 : tensor<1x64x64xf32>, tensor<1x64x1xf32> -> tensor<1x64x64xf32>
        %22 = block.accum_rescale %20, %16 : tensor<1x64x1xf32>, tensor<1x64x1xf32> -> tensor<1x64x1xf32>
        %23 = block.accum_max %16 : tensor<1x64x1xf32> -> tensor<1x64x1xf32>
        block.yield %21, %22, %23 : tensor<1x64x64xf32>, tensor<1x64x1xf32>, tensor<1x64x1xf32>
      }
      %24 = block.output %9 omap [0, 1, 2] : tensor<1x64x64xf32> -> tensor<2x128x256xf32>
      %25 = block.output %10 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<2x128x4xf32>
      %26 = block.output %11 omap [0, 1, 2] : tensor<1x64x1xf32> -> tensor<2x128x4xf32>
      block.return %24, %25, %26 : tensor<2x128x256xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [2, 8, 1] block [128, 1, 1] forloop 4 : (tensor<2x128x256xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) -> tensor<2x128x64xf16> {
    ^bb0(%7: tensor<2x128x256xf32>, %8: tensor<2x128x4xf32>, %9: tensor<2x128x4xf32>):
      %10, %11 = block.for_loop : tensor<1x16x64xf32>, tensor<1x16x1xf32> {
        %12 = block.input %7 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x256xf32> -> tensor<1x16x64xf32>
        %13 = block.input %8 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x16x1xf32>
        %14 = block.input %9 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x16x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x16x64xf32>, tensor<1x16x1xf32> -> tensor<1x16x64xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x16x1xf32>, tensor<1x16x1xf32> -> tensor<1x16x1xf32>
        block.yield %15, %16 : tensor<1x16x64xf32>, tensor<1x16x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x16x64xf32>, tensor<1x16x1xf32> -> tensor<1x16x64xf32>
      %18 = block.output %17 omap [0, 1, -1] : tensor<1x16x64xf32> -> tensor<2x128x64xf16>
      block.return %18 : tensor<2x128x64xf16>
    }
    func.return %6 : tensor<2x128x64xf16>
  }

  // Slices of one key tile (a loop of one iteration), 128 query rows a block on one
  // warpgroup: the running maximum is stored after the loop as in longer loops.
  func.func @split4_once(%0: tensor<2x128x32xf16>, %1: tensor<2x32x256xf16>, %2: tensor<2x256x32xf16>) -> tensor<2x128x32xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [2, 1, 4] block [128, 1, 1] forloop 1 : (tensor<2x128x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> (tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) {
    ^bb0(%6: tensor<2x128x32xf16>, %7: tensor<2x32x256xf16>, %8: tensor<2x256x32xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x128x32xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32> {
        %12 = block.input %6 imap [0, -1, -1] : tensor<2x128x32xf16> -> tensor<1x128x32xf16>
        %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<2x32x256xf16> -> tensor<1x32x64xf16>
        %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<2x256x32xf16> -> tensor<1x64x32xf16>
        %15 = block.matmul %12, %13 : tensor<1x128x32xf16>, tensor<1x32x64xf16> -> tensor<1x128x64xf32>
        %16 = block.reduce_max %15 dim 2 : tensor<1x128x64xf32> -> tensor<1x128x1xf32>
        %17 = block.sub %15, %16 : tensor<1x128x64xf32>, tensor<1x128x1xf32> -> tensor<1x128x64xf32>
        %18 = block.exp %17 : tensor<1x128x64xf32> -> tensor<1x128x64xf16>
        %19 = block.matmul %18, %14 : tensor<1x128x64xf16>, tensor<1x64x32xf16> -> tensor<1x128x32xf32>
        %20 = block.reduce_sum %18 dim 2 : tensor<1x128x64xf16> -> tensor<1x128x1xf32>
        %21 = block.accum_rescale %19, %16 : tensor<1x128x32xf32>, tensor<1x128x1xf32> -> tensor<1x128x32xf32>
        %22 = block.accum_rescale %20, %16 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        %23 = block.accum_max %16 : tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        block.yield %21, %22, %23 : tensor<1x128x32xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32>
      }
      %24 = block.output %9 omap [0, 1, 2] : tensor<1x128x32xf32> -> tensor<2x128x128xf32>
      %25 = block.output %10 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<2x128x4xf32>
      %26 = block.output %11 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<2x128x4xf32>
      block.return %24, %25, %26 : tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [2, 4, 1] block [128, 1, 1] forloop 4 : (tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) -> tensor<2x128x32xf16> {
    ^bb0(%7: tensor<2x128x128xf32>, %8: tensor<2x128x4xf32>, %9: tensor<2x128x4xf32>):
      %10, %11 = block.for_loop : tensor<1x32x32xf32>, tensor<1x32x1xf32> {
        %12 = block.input %7 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x128xf32> -> tensor<1x32x32xf32>
        %13 = block.input %8 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x32x1xf32>
        %14 = block.input %9 imap [0, 1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x32x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x32x32xf32>, tensor<1x32x1xf32> -> tensor<1x32x32xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x32x1xf32>, tensor<1x32x1xf32> -> tensor<1x32x1xf32>
        block.yield %15, %16 : tensor<1x32x32xf32>, tensor<1x32x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x32x32xf32>, tensor<1x32x1xf32> -> tensor<1x32x32xf32>
      %18 = block.output %17 omap [0, 1, -1] : tensor<1x32x32xf32> -> tensor<2x128x32xf16>
      block.return %18 : tensor<2x128x32xf16>
    }
    func.return %6 : tensor<2x128x32xf16>
  }

  // split4_once's slices, combined by blocks of two warps over all 128 rows: the row
  // sums' rescale runs two passes in registers, the 128x32 one (64 elements a lane) in
  // shared memory.
  func.func @split4_tall(%0: tensor<2x128x32xf16>, %1: tensor<2x32x256xf16>, %2: tensor<2x256x32xf16>) -> tensor<2x128x32xf16> {
    %3, %4, %5 = kernel.graph(%0, %1, %2) grid [2, 1, 4] block [128, 1, 1] forloop 1 : (tensor<2x128x32xf16>, tensor<2x32x256xf16>, tensor<2x256x32xf16>) -> (tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) {
    ^bb0(%6: tensor<2x128x32xf16>, %7: tensor<2x32x256xf16>, %8: tensor<2x256x32xf16>):
      %9, %10, %11 = block.for_loop : tensor<1x128x32xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32> {
        %12 = block.input %6 imap [0, -1, -1] : tensor<2x128x32xf16> -> tensor<1x128x32xf16>
        %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<2x32x256xf16> -> tensor<1x32x64xf16>
        %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<2x256x32xf16> -> tensor<1x64x32xf16>
        %15 = block.matmul %12, %13 : tensor<1x128x32xf16>, tensor<1x32x64xf16> -> tensor<1x128x64xf32>
        %16 = block.reduce_max %15 dim 2 : tensor<1x128x64xf32> -> tensor<1x128x1xf32>
        %17 = block.sub %15, %16 : tensor<1x128x64xf32>, tensor<1x128x1xf32> -> tensor<1x128x64xf32>
        %18 = block.exp %17 : tensor<1x128x64xf32> -> tensor<1x128x64xf16>
        %19 = block.matmul %18, %14 : tensor<1x128x64xf16>, tensor<1x64x32xf16> -> tensor<1x128x32xf32>
        %20 = block.reduce_sum %18 dim 2 : tensor<1x128x64xf16> -> tensor<1x128x1xf32>
        %21 = block.accum_rescale %19, %16 : tensor<1x128x32xf32>, tensor<1x128x1xf32> -> tensor<1x128x32xf32>
        %22 = block.accum_rescale %20, %16 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        %23 = block.accum_max %16 : tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        block.yield %21, %22, %23 : tensor<1x128x32xf32>, tensor<1x128x1xf32>, tensor<1x128x1xf32>
      }
      %24 = block.output %9 omap [0, 1, 2] : tensor<1x128x32xf32> -> tensor<2x128x128xf32>
      %25 = block.output %10 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<2x128x4xf32>
      %26 = block.output %11 omap [0, 1, 2] : tensor<1x128x1xf32> -> tensor<2x128x4xf32>
      block.return %24, %25, %26 : tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>
    }
    %6 = kernel.graph(%3, %4, %5) grid [2, 1, 1] block [64, 1, 1] forloop 4 : (tensor<2x128x128xf32>, tensor<2x128x4xf32>, tensor<2x128x4xf32>) -> tensor<2x128x32xf16> {
    ^bb0(%7: tensor<2x128x128xf32>, %8: tensor<2x128x4xf32>, %9: tensor<2x128x4xf32>):
      %10, %11 = block.for_loop : tensor<1x128x32xf32>, tensor<1x128x1xf32> {
        %12 = block.input %7 imap [0, -1, -1] forloop_dim 2 : tensor<2x128x128xf32> -> tensor<1x128x32xf32>
        %13 = block.input %8 imap [0, -1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x128x1xf32>
        %14 = block.input %9 imap [0, -1, -1] forloop_dim 2 : tensor<2x128x4xf32> -> tensor<1x128x1xf32>
        %15 = block.accum_rescale %12, %14 : tensor<1x128x32xf32>, tensor<1x128x1xf32> -> tensor<1x128x32xf32>
        %16 = block.accum_rescale %13, %14 : tensor<1x128x1xf32>, tensor<1x128x1xf32> -> tensor<1x128x1xf32>
        block.yield %15, %16 : tensor<1x128x32xf32>, tensor<1x128x1xf32>
      }
      %17 = block.div %10, %11 : tensor<1x128x32xf32>, tensor<1x128x1xf32> -> tensor<1x128x32xf32>
      %18 = block.output %17 omap [0, -1, -1] : tensor<1x128x32xf32> -> tensor<2x128x32xf16>
      block.return %18 : tensor<2x128x32xf16>
    }
    func.return %6 : tensor<2x128x32xf16>
  }

}
