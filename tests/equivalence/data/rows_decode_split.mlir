// A split-KV form of rows_decode.mlir whose first launch gives each block 4 heads.
func.func @candidate(%0: tensor<64x1x8xf32>, %1: tensor<64x8x512xf32>, %2: tensor<64x512x8xf32>) -> tensor<64x1x8xf32> {
  %3, %4, %5 = kernel.graph(%0, %1, %2) grid [16, 1, 2] block [128, 1, 1] forloop 1 : (tensor<64x1x8xf32>, tensor<64x8x512xf32>, tensor<64x512x8xf32>) -> (tensor<64x1x16xf32>, tensor<64x1x2xf32>, tensor<64x1x2xf32>) {
  ^bb0(%6: tensor<64x1x8xf32>, %7: tensor<64x8x512xf32>, %8: tensor<64x512x8xf32>):
    %9, %10, %11 = block.for_loop : tensor<4x1x8xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32> {
      %12 = block.input %6 imap [0, -1, -1] : tensor<64x1x8xf32> -> tensor<4x1x8xf32>
      %13 = block.input %7 imap [0, -1, 2] forloop_dim 2 : tensor<64x8x512xf32> -> tensor<4x8x256xf32>
      %14 = block.input %8 imap [0, -1, 1] forloop_dim 1 : tensor<64x512x8xf32> -> tensor<4x256x8xf32>
      %15 = block.matmul %12, %13 : tensor<4x1x8xf32>, tensor<4x8x256xf32> -> tensor<4x1x256xf32>
      %16 = block.reduce_max %15 dim 2 : tensor<4x1x256xf32> -> tensor<4x1x1xf32>
      %17 = thread.fuse(%15, %16) : (tensor<4x1x256xf32>, tensor<4x1x1xf32>) -> tensor<4x1x256xf32> {
      ^bb0(%18: f32, %19: f32):
        %20 = thread.sub %18, %19 : f32
        %21 = thread.exp %20 : f32
        thread.yield %21 : f32
      }
      %22 = block.matmul %17, %14 : tensor<4x1x256xf32>, tensor<4x256x8xf32> -> tensor<4x1x8xf32>
      %23 = block.reduce_sum %17 dim 2 : tensor<4x1x256xf32> -> tensor<4x1x1xf32>
      %24 = block.accum_rescale %22, %16 : tensor<4x1x8xf32>, tensor<4x1x1xf32> -> tensor<4x1x8xf32>
      %25 = block.accum_rescale %23, %16 : tensor<4x1x1xf32>, tensor<4x1x1xf32> -> tensor<4x1x1xf32>
      %26 = block.accum_max %16 : tensor<4x1x1xf32> -> tensor<4x1x1xf32>
      block.yield %24, %25, %26 : tensor<4x1x8xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>
    }
    %27 = block.output %9 omap [0, -1, 2] : tensor<4x1x8xf32> -> tensor<64x1x16xf32>
    %28 = block.output %10 omap [0, -1, 2] : tensor<4x1x1xf32> -> tensor<64x1x2xf32>
    %29 = block.output %11 omap [0, -1, 2] : tensor<4x1x1xf32> -> tensor<64x1x2xf32>
    block.return %27, %28, %29 : tensor<64x1x16xf32>, tensor<64x1x2xf32>, tensor<64x1x2xf32>
  }
  %6 = kernel.graph(%3, %4, %5) grid [64, 1, 1] block [256, 1, 1] forloop 2 : (tensor<64x1x16xf32>, tensor<64x1x2xf32>, tensor<64x1x2xf32>) -> tensor<64x1x8xf32> {
  ^bb0(%7: tensor<64x1x16xf32>, %8: tensor<64x1x2xf32>, %9: tensor<64x1x2xf32>):
    %10, %11 = block.for_loop : tensor<1x1x8xf32>, tensor<1x1x1xf32> {
      %12 = block.input %7 imap [0, -1, -1] forloop_dim 2 : tensor<64x1x16xf32> -> tensor<1x1x8xf32>
      %13 = block.input %8 imap [0, -1, -1] forloop_dim 2 : tensor<64x1x2xf32> -> tensor<1x1x1xf32>
      %14 = block.input %9 imap [0, -1, -1] forloop_dim 2 : tensor<64x1x2xf32> -> tensor<1x1x1xf32>
      %15 = block.accum_rescale %12, %14 : tensor<1x1x8xf32>, tensor<1x1x1xf32> -> tensor<1x1x8xf32>
      %16 = block.accum_rescale %13, %14 : tensor<1x1x1xf32>, tensor<1x1x1xf32> -> tensor<1x1x1xf32>
      block.yield %15, %16 : tensor<1x1x8xf32>, tensor<1x1x1xf32>
    }
    %17 = block.div %10, %11 : tensor<1x1x8xf32>, tensor<1x1x1xf32> -> tensor<1x1x8xf32>
    %18 = block.output %17 omap [0, -1, -1] : tensor<1x1x8xf32> -> tensor<64x1x8xf32>
    block.return %18 : tensor<64x1x8xf32>
  }
  func.return %6 : tensor<64x1x8xf32>
}
