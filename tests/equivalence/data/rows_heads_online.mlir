// The one-launch online-softmax form of rows_heads.mlir that the search finds: Q, K, V
// and the output read and written through head-split views.
func.func @candidate(%0: tensor<2x16x64xf32>, %1: tensor<2x16x64xf32>, %2: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %3 = kernel.graph(%0, %1, %2) grid [16, 2, 4] block [128, 1, 1] forloop 1 : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  ^bb0(%4: tensor<2x16x64xf32>, %5: tensor<2x16x64xf32>, %6: tensor<2x16x64xf32>):
    %7, %8 = block.for_loop : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> {
      %9 = block.input %4 imap [2, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<2x16x64xf32> -> tensor<1x1x1x16xf32>
      %10 = block.input %5 imap [-1, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 1, 64] : tensor<2x16x64xf32> -> tensor<1x1x16x16xf32>
      %11 = block.input %6 imap [-1, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<2x16x64xf32> -> tensor<1x1x16x16xf32>
      %12 = block.matmul %9, %10 : tensor<1x1x1x16xf32>, tensor<1x1x16x16xf32> -> tensor<1x1x1x16xf32>
      %13 = block.mul_scalar %12, 2.500000e-01 : tensor<1x1x1x16xf32> -> tensor<1x1x1x16xf32>
      %14 = block.reduce_max %13 dim 3 : tensor<1x1x1x16xf32> -> tensor<1x1x1x1xf32>
      %15 = thread.fuse(%13, %14) : (tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x16xf32> {
      ^bb0(%16: f32, %17: f32):
        %18 = thread.sub %16, %17 : f32
        %19 = thread.exp %18 : f32
        thread.yield %19 : f32
      }
      %20 = block.matmul %15, %11 : tensor<1x1x1x16xf32>, tensor<1x1x16x16xf32> -> tensor<1x1x1x16xf32>
      %21 = block.reduce_sum %15 dim 3 : tensor<1x1x1x16xf32> -> tensor<1x1x1x1xf32>
      %22 = block.accum_rescale %20, %14 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x16xf32>
      %23 = block.accum_rescale %21, %14 : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x1xf32>
      block.yield %22, %23 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>
    }
    %24 = block.div %7, %8 : tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x1x16xf32>
    %25 = block.output %24 omap [2, 0, 1] view [2, 4, 16, 16] strides [1024, 16, 64, 1] : tensor<1x1x1x16xf32> -> tensor<2x16x64xf32>
    block.return %25 : tensor<2x16x64xf32>
  }
  func.return %3 : tensor<2x16x64xf32>
}

