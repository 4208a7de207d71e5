// A block op on a tile the loop does not walk: X is loaded once (a hoisted input), W walks
// its columns over 4 iterations; rms_norm(X) is the same in every iteration.
func.func @norm_then_matmul(%x: tensor<16x64xf16>, %w: tensor<64x256xf16>) -> tensor<16x64xf16> {
  %y = kernel.graph(%x, %w) grid [1, 1, 1] block [128, 1, 1] forloop 4 : (tensor<16x64xf16>, tensor<64x256xf16>) -> tensor<16x64xf16> {
  ^bb0(%gx: tensor<16x64xf16>, %gw: tensor<64x256xf16>):
    %r = block.for_loop : tensor<16x64xf32> {
      %tx = block.input %gx imap [-1, -1, -1] : tensor<16x64xf16> -> tensor<16x64xf16>
      %tw = block.input %gw imap [-1, -1, -1] forloop_dim 1 : tensor<64x256xf16> -> tensor<64x64xf16>
      %n = block.rms_norm %tx : tensor<16x64xf16> -> tensor<16x64xf16>
      %p = block.matmul %n, %tw : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf32>
      %acc = block.accum_sum %p : tensor<16x64xf32> -> tensor<16x64xf32>
      block.yield %acc : tensor<16x64xf32>
    }
    %out = block.output %r omap [-1, -1, -1] : tensor<16x64xf32> -> tensor<16x64xf16>
    block.return %out : tensor<16x64xf16>
  }
  func.return %y : tensor<16x64xf16>
}
