// misc
func.func @misc(%0: tensor<64x256xf16>, %1: tensor<64x256xbf16>) -> (tensor<64x8xf32>, tensor<64x1xf16>, tensor<64x64xbf16>) {
  %2, %3, %4 = kernel.graph(%0, %1) grid [4, 1, 1] block [128, 1, 1] forloop 4 : (tensor<64x256xf16>, tensor<64x256xbf16>) -> (tensor<64x8xf32>, tensor<64x1xf16>, tensor<64x64xbf16>) {
  ^bb0(%5: tensor<64x256xf16>, %6: tensor<64x256xbf16>):
    %7, %8, %9, %10 = block.for_loop : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x64xf32>, tensor<16x1xf32> {
      %11 = block.input %5 imap [0, -1, -1] forloop_dim 1 : tensor<64x256xf16> -> tensor<16x64xf16>
      %12 = block.input %6 imap [0, -1, -1] forloop_dim 1 : tensor<64x256xbf16> -> tensor<16x64xbf16>
      %13 = block.reduce_max %11 dim 1 size 8 : tensor<16x64xf16> -> tensor<16x8xf32>
      %14 = block.rms_norm %12 : tensor<16x64xbf16> -> tensor<16x64xbf16>
      %15 = block.concat %11, %14 dim 1 : tensor<16x64xf16>, tensor<16x64xbf16> -> tensor<16x128xf16>
      %16 = block.mul_scalar %15, 7.500000e-01 : tensor<16x128xf16> -> tensor<16x128xf32>
      %17 = block.relu %11 : tensor<16x64xf16> -> tensor<16x64xf16>
      %18, %19 = thread.fuse(%11, %17) : (tensor<16x64xf16>, tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
      ^bb0(%20: f16, %21: f16):
        %22 = thread.mul %20, %21 : f16
        %23 = thread.add %22, %20 : f16
        %24 = thread.max %20, %21 : f16
        thread.yield %23, %24 : f16, f16
      }
      %25 = block.accum_max %13 : tensor<16x8xf32> -> tensor<16x8xf32>
      %26 = block.accum_rms_last %16 : tensor<16x128xf32> -> tensor<16x1xf32>
      %27 = block.accum_sum %18 : tensor<16x64xf16> -> tensor<16x64xf32>
      %28 = block.accum_sum_last %19 : tensor<16x64xf16> -> tensor<16x1xf32>
      block.yield %25, %26, %27, %28 : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x64xf32>, tensor<16x1xf32>
    }
    %29 = block.output %7 omap [0, -1, -1] : tensor<16x8xf32> -> tensor<64x8xf32>
    %30 = block.output %8 omap [0, -1, -1] : tensor<16x1xf32> -> tensor<64x1xf16>
    %31 = block.add %9, %10 : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
    %32 = block.output %31 omap [0, -1, -1] : tensor<16x64xf32> -> tensor<64x64xbf16>
    block.return %29, %30, %32 : tensor<64x8xf32>, tensor<64x1xf16>, tensor<64x64xbf16>
  }
  func.return %2, %3, %4 : tensor<64x8xf32>, tensor<64x1xf16>, tensor<64x64xbf16>
}
// online_softmax
func.func @online_softmax(%0: tensor<2x32x32xf16>, %1: tensor<2x32x128xf16>, %2: tensor<2x128x32xf16>) -> tensor<2x32x32xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 2, 1] block [128, 1, 1] forloop 4 : (tensor<2x32x32xf16>, tensor<2x32x128xf16>, tensor<2x128x32xf16>) -> tensor<2x32x32xf16> {
  ^bb0(%4: tensor<2x32x32xf16>, %5: tensor<2x32x128xf16>, %6: tensor<2x128x32xf16>):
    %7, %8 = block.for_loop : tensor<1x16x32xf32>, tensor<1x16x1xf32> {
      %9 = block.input %4 imap [0, 1, -1] : tensor<2x32x32xf16> -> tensor<1x16x32xf16>
      %10 = block.input %5 imap [0, -1, -1] forloop_dim 2 : tensor<2x32x128xf16> -> tensor<1x32x32xf16>
      %11 = block.input %6 imap [0, -1, -1] forloop_dim 1 : tensor<2x128x32xf16> -> tensor<1x32x32xf16>
      %12 = block.matmul %9, %10 : tensor<1x16x32xf16>, tensor<1x32x32xf16> -> tensor<1x16x32xf32>
      %13 = block.reduce_max %12 dim 2 : tensor<1x16x32xf32> -> tensor<1x16x1xf32>
      %14 = block.sub %12, %13 : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf32>
      %15 = block.exp %14 : tensor<1x16x32xf32> -> tensor<1x16x32xf16>
      %16 = block.matmul %15, %11 : tensor<1x16x32xf16>, tensor<1x32x32xf16> -> tensor<1x16x32xf32>
      %17 = block.reduce_sum %15 dim 2 : tensor<1x16x32xf16> -> tensor<1x16x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x16x1xf32>, tensor<1x16x1xf32> -> tensor<1x16x1xf32>
      block.yield %18, %19 : tensor<1x16x32xf32>, tensor<1x16x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf16>
    %21 = block.output %20 omap [0, 1, -1] : tensor<1x16x32xf16> -> tensor<2x32x32xf16>
    block.return %21 : tensor<2x32x32xf16>
  }
  func.return %3 : tensor<2x32x32xf16>
}
// post_matmul
func.func @post_matmul(%0: tensor<32x128xf16>, %1: tensor<128x64xf16>, %2: tensor<64x48xf16>) -> tensor<32x48xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<32x128xf16>, tensor<128x64xf16>, tensor<64x48xf16>) -> tensor<32x48xf16> {
  ^bb0(%4: tensor<32x128xf16>, %5: tensor<128x64xf16>, %6: tensor<64x48xf16>):
    %7, %8 = block.for_loop : tensor<16x64xf16>, tensor<64x48xf16> {
      %9 = block.input %4 imap [0, -1, -1] forloop_dim 1 : tensor<32x128xf16> -> tensor<16x64xf16>
      %10 = block.input %5 imap [-1, -1, -1] forloop_dim 0 : tensor<128x64xf16> -> tensor<64x64xf16>
      %11 = block.input %6 imap [-1, -1, -1] : tensor<64x48xf16> -> tensor<64x48xf16>
      %12 = block.matmul %9, %10 : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %13 = block.accum_sum %12 : tensor<16x64xf16> -> tensor<16x64xf16>
      %14 = block.accum_max %11 : tensor<64x48xf16> -> tensor<64x48xf16>
      block.yield %13, %14 : tensor<16x64xf16>, tensor<64x48xf16>
    }
    %15 = block.matmul %7, %8 : tensor<16x64xf16>, tensor<64x48xf16> -> tensor<16x48xf32>
    %16 = block.relu %15 : tensor<16x48xf32> -> tensor<16x48xf32>
    %17 = block.output %16 omap [0, -1, -1] : tensor<16x48xf32> -> tensor<32x48xf16>
    block.return %17 : tensor<32x48xf16>
  }
  func.return %3 : tensor<32x48xf16>
}
