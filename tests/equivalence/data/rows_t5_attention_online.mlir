// The online-softmax form of rows_t5_attention.mlir: grid x over the batch, y over the
// heads, z over query tiles of 16; the loop over key tiles of 16, K read transposed.
func.func @candidate(%0: tensor<2x4x32x8xf32>, %1: tensor<2x4x32x8xf32>, %2: tensor<2x4x32x8xf32>) -> tensor<2x4x32x8xf32> {
  %3 = kernel.graph(%0, %1, %2) grid [2, 4, 2] block [128, 1, 1] forloop 2 : (tensor<2x4x32x8xf32>, tensor<2x4x32x8xf32>, tensor<2x4x32x8xf32>) -> tensor<2x4x32x8xf32> {
  ^bb0(%4: tensor<2x4x32x8xf32>, %5: tensor<2x4x32x8xf32>, %6: tensor<2x4x32x8xf32>):
    %7, %8 = block.for_loop : tensor<1x1x16x8xf32>, tensor<1x1x16x1xf32> {
      %9 = block.input %4 imap [0, 1, 2] : tensor<2x4x32x8xf32> -> tensor<1x1x16x8xf32>
      %10 = block.input %5 imap [0, 1, -1] forloop_dim 3 view [2, 4, 8, 32] strides [1024, 256, 1, 8] : tensor<2x4x32x8xf32> -> tensor<1x1x8x16xf32>
      %11 = block.input %6 imap [0, 1, -1] forloop_dim 2 : tensor<2x4x32x8xf32> -> tensor<1x1x16x8xf32>
      %12 = block.matmul %9, %10 : tensor<1x1x16x8xf32>, tensor<1x1x8x16xf32> -> tensor<1x1x16x16xf32>
      %13 = block.reduce_max %12 dim 3 : tensor<1x1x16x16xf32> -> tensor<1x1x16x1xf32>
      %14 = block.sub %12, %13 : tensor<1x1x16x16xf32>, tensor<1x1x16x1xf32> -> tensor<1x1x16x16xf32>
      %15 = block.exp %14 : tensor<1x1x16x16xf32> -> tensor<1x1x16x16xf32>
      %16 = block.matmul %15, %11 : tensor<1x1x16x16xf32>, tensor<1x1x16x8xf32> -> tensor<1x1x16x8xf32>
      %17 = block.reduce_sum %15 dim 3 : tensor<1x1x16x16xf32> -> tensor<1x1x16x1xf32>
      %18 = block.accum_rescale %16, %13 : tensor<1x1x16x8xf32>, tensor<1x1x16x1xf32> -> tensor<1x1x16x8xf32>
      %19 = block.accum_rescale %17, %13 : tensor<1x1x16x1xf32>, tensor<1x1x16x1xf32> -> tensor<1x1x16x1xf32>
      block.yield %18, %19 : tensor<1x1x16x8xf32>, tensor<1x1x16x1xf32>
    }
    %20 = block.div %7, %8 : tensor<1x1x16x8xf32>, tensor<1x1x16x1xf32> -> tensor<1x1x16x8xf32>
    %21 = block.output %20 omap [0, 1, 2] : tensor<1x1x16x8xf32> -> tensor<2x4x32x8xf32>
    block.return %21 : tensor<2x4x32x8xf32>
  }
  func.return %3 : tensor<2x4x32x8xf32>
}
