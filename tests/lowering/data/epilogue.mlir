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
