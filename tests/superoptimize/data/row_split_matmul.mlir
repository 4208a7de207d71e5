// A matmul found at a small member: its 16 rows split over two blocks.
func.func @found(%x: tensor<16x64xf16>, %w: tensor<64x96xf16>) -> tensor<16x96xf16> {
  %y = kernel.graph(%x, %w) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<16x64xf16>, tensor<64x96xf16>) -> tensor<16x96xf16> {
  ^bb0(%a: tensor<16x64xf16>, %b: tensor<64x96xf16>):
    %s = block.for_loop : tensor<8x48xf32> {
      %i = block.input %a imap [0, -1, -1] : tensor<16x64xf16> -> tensor<8x64xf16>
      %j = block.input %b imap [-1, 1, -1] : tensor<64x96xf16> -> tensor<64x48xf16>
      %m = block.matmul %i, %j : tensor<8x64xf16>, tensor<64x48xf16> -> tensor<8x48xf32>
      %t = block.accum_sum %m : tensor<8x48xf32> -> tensor<8x48xf32>
      block.yield %t : tensor<8x48xf32>
    }
    %o = block.output %s omap [0, 1, -1] : tensor<8x48xf32> -> tensor<16x96xf16>
    block.return %o : tensor<16x96xf16>
  }
  func.return %y : tensor<16x96xf16>
}
