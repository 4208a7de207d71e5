// y = x @ w + b as one kernel whose loop walks k: the bias is an epilogue operand, a
// block.input after the loop, read once per block and added to the accumulated product.
func.func @linear_bias(%x: tensor<16x256xf16>, %w: tensor<256x64xf16>, %b: tensor<1x64xf16>) -> tensor<16x64xf16> {
  %y = kernel.graph(%x, %w, %b) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<16x256xf16>, tensor<256x64xf16>, tensor<1x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%X: tensor<16x256xf16>, %W: tensor<256x64xf16>, %B: tensor<1x64xf16>):
    %acc = block.for_loop : tensor<16x32xf32> {
      %xt = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<16x256xf16> -> tensor<16x64xf16>
      %wt = block.input %W imap [1, -1, -1] forloop_dim 0 : tensor<256x64xf16> -> tensor<64x32xf16>
      %p = block.matmul %xt, %wt : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf32>
      %s = block.accum_sum %p : tensor<16x32xf32> -> tensor<16x32xf32>
      block.yield %s : tensor<16x32xf32>
    }
    %bt = block.input %B imap [1, -1, -1] : tensor<1x64xf16> -> tensor<1x32xf16>
    %r = block.add %acc, %bt : tensor<16x32xf32>, tensor<1x32xf16> -> tensor<16x32xf32>
    %o = block.output %r omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x64xf16>
    block.return %o : tensor<16x64xf16>
  }
  func.return %y : tensor<16x64xf16>
}

// nn.Linear's x @ W.T + b (W read transposed through a view), as the search finds it at x
// 16x8192, W 256x8192: no block holds whole rows of x, so the loop walks k.
func.func @nn_linear_bias(%0: tensor<16x8192xf16>, %1: tensor<256x8192xf16>, %2: tensor<1x256xf16>) -> tensor<16x256xf16> {
  %3 = kernel.graph(%0, %1, %2) grid [4, 16, 1] block [256, 1, 1] forloop 16 : (tensor<16x8192xf16>, tensor<256x8192xf16>, tensor<1x256xf16>) -> tensor<16x256xf16> {
  ^bb0(%4: tensor<16x8192xf16>, %5: tensor<256x8192xf16>, %6: tensor<1x256xf16>):
    %7 = block.for_loop : tensor<4x16xf32> {
      %8 = block.input %4 imap [0, -1, -1] forloop_dim 1 : tensor<16x8192xf16> -> tensor<4x512xf16>
      %9 = block.input %5 imap [-1, 1, -1] forloop_dim 0 view [8192, 256] strides [1, 8192] : tensor<256x8192xf16> -> tensor<512x16xf16>
      %10 = block.matmul %8, %9 : tensor<4x512xf16>, tensor<512x16xf16> -> tensor<4x16xf32>
      %11 = block.accum_sum %10 : tensor<4x16xf32> -> tensor<4x16xf32>
      block.yield %11 : tensor<4x16xf32>
    }
    %12 = block.input %6 imap [-1, 1, -1] : tensor<1x256xf16> -> tensor<1x16xf16>
    %13 = block.add %7, %12 : tensor<4x16xf32>, tensor<1x16xf16> -> tensor<4x16xf32>
    %14 = block.output %13 omap [0, 1, -1] : tensor<4x16xf32> -> tensor<16x256xf16>
    block.return %14 : tensor<16x256xf16>
  }
  func.return %3 : tensor<16x256xf16>
}

// GPT-2's fc layer (x 64x2048, W 8192x2048, b 8192, f16) as the search finds it: one
// kernel, the loop walking k in 8 steps, the bias added after it.
func.func @gpt2_fc(%0: tensor<64x2048xf16>, %1: tensor<8192x2048xf16>, %2: tensor<8192xf16>) -> tensor<64x8192xf16> {
  %3 = kernel.reshape %2 : tensor<8192xf16> -> tensor<1x8192xf16>
  %4 = kernel.graph(%0, %1, %3) grid [128, 1, 1] block [128, 1, 1] forloop 8 : (tensor<64x2048xf16>, tensor<8192x2048xf16>, tensor<1x8192xf16>) -> tensor<64x8192xf16> {
  ^bb0(%5: tensor<64x2048xf16>, %6: tensor<8192x2048xf16>, %7: tensor<1x8192xf16>):
    %8 = block.for_loop : tensor<64x64xf32> {
      %9 = block.input %5 imap [-1, -1, -1] forloop_dim 1 : tensor<64x2048xf16> -> tensor<64x256xf16>
      %10 = block.input %6 imap [1, -1, -1] forloop_dim 0 view [2048, 8192] strides [1, 2048] : tensor<8192x2048xf16> -> tensor<256x64xf16>
      %11 = block.matmul %9, %10 : tensor<64x256xf16>, tensor<256x64xf16> -> tensor<64x64xf32>
      %12 = block.accum_sum %11 : tensor<64x64xf32> -> tensor<64x64xf32>
      block.yield %12 : tensor<64x64xf32>
    }
    %13 = block.input %7 imap [1, -1, -1] : tensor<1x8192xf16> -> tensor<1x64xf16>
    %14 = block.add %8, %13 : tensor<64x64xf32>, tensor<1x64xf16> -> tensor<64x64xf32>
    %15 = block.output %14 omap [1, -1, -1] : tensor<64x64xf32> -> tensor<64x8192xf16>
    block.return %15 : tensor<64x8192xf16>
  }
  func.return %4 : tensor<64x8192xf16>
}
