// Immediate forms (x op c, the constant a property): fused in a thread graph, and as
// kernel-level ops of their own.

func.func @immediates(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%X: tensor<8x32xf32>):
    %a = block.for_loop : tensor<4x32xf32> {
      %t = block.input %X imap [0, -1, -1] : tensor<8x32xf32> -> tensor<4x32xf32>
      %f = thread.fuse(%t) : (tensor<4x32xf32>) -> tensor<4x32xf32> {
      ^bb1(%e: f32):
        %p = thread.add_scalar %e, 1.0 : f32
        %q = thread.sub_scalar %p, 0.5 : f32
        %r = thread.div_scalar %q, 3.0 : f32
        %s = thread.pow_scalar %r, 3.0 : f32
        thread.yield %s : f32
      }
      %s = block.accum_sum %f : tensor<4x32xf32> -> tensor<4x32xf32>
      block.yield %s : tensor<4x32xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<4x32xf32> -> tensor<8x32xf32>
    block.return %o : tensor<8x32xf32>
  }
  func.return %y : tensor<8x32xf32>
}

func.func @kernel_immediates(%x: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %a = kernel.add_scalar %x, 2.0 : tensor<8x32xf16> -> tensor<8x32xf16>
  %p = kernel.pow_scalar %a, 2.0 : tensor<8x32xf16> -> tensor<8x32xf16>
  %d = kernel.div_scalar %p, 4.0 : tensor<8x32xf16> -> tensor<8x32xf16>
  %s = kernel.sub_scalar %d, 0.25 : tensor<8x32xf16> -> tensor<8x32xf16>
  func.return %s : tensor<8x32xf16>
}
