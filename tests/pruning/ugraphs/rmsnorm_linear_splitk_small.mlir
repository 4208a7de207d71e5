// RMSNorm followed by a linear layer, Y = rms_norm(X) W, at a small shape: X 4x64, W 64x96.
// @ugraph: split-K in two kernels. Kernel 1: blocks (column block, K half) walk their half
// of K in 4 steps, accumulating X W and the sum of squares of X; every column block
// computes the same sum of squares and saves it beside the others (4 copies along dim 1).
// Kernel 2 adds the two halves and sums the 4 copies too, which mul_scalar compensates
// (1 / (4 * 64)): a sum of copies is a constant factor, not a sum over K.

func.func @program(%x: tensor<4x64xf32>, %w: tensor<64x96xf32>) -> tensor<4x96xf32> {
  %n = kernel.rms_norm %x : tensor<4x64xf32> -> tensor<4x64xf32>
  %y = kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x96xf32> -> tensor<4x96xf32>
  func.return %y : tensor<4x96xf32>
}

func.func @ugraph(%x: tensor<4x64xf32>, %w: tensor<64x96xf32>) -> tensor<4x96xf32> {
  %p, %s = kernel.graph(%x, %w) grid [4, 2, 1] block [128, 1, 1] forloop 4 : (tensor<4x64xf32>, tensor<64x96xf32>) -> (tensor<8x96xf32>, tensor<8x4xf32>) {
  ^bb0(%gx: tensor<4x64xf32>, %gw: tensor<64x96xf32>):
    %acc_xw, %acc_sq = block.for_loop : tensor<4x24xf32>, tensor<4x1xf32> {
      %xt = block.input %gx imap [-1, 1, -1] forloop_dim 1 : tensor<4x64xf32> -> tensor<4x8xf32>
      %wt = block.input %gw imap [1, 0, -1] forloop_dim 0 : tensor<64x96xf32> -> tensor<8x24xf32>
      %xw = block.matmul %xt, %wt : tensor<4x8xf32>, tensor<8x24xf32> -> tensor<4x24xf32>
      %a0 = block.accum_sum %xw : tensor<4x24xf32> -> tensor<4x24xf32>
      %sq = block.square %xt : tensor<4x8xf32> -> tensor<4x8xf32>
      %a1 = block.accum_sum_last %sq : tensor<4x8xf32> -> tensor<4x1xf32>
      block.yield %a0, %a1 : tensor<4x24xf32>, tensor<4x1xf32>
    }
    %sp = block.output %acc_xw omap [1, 0, -1] : tensor<4x24xf32> -> tensor<8x96xf32>
    %ss = block.output %acc_sq omap [1, 0, -1] : tensor<4x1xf32> -> tensor<8x4xf32>
    block.return %sp, %ss : tensor<8x96xf32>, tensor<8x4xf32>
  }
  %y = kernel.graph(%p, %s) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x96xf32>, tensor<8x4xf32>) -> tensor<4x96xf32> {
  ^bb0(%gp: tensor<8x96xf32>, %gs: tensor<8x4xf32>):
    %acc_p, %acc_s = block.for_loop : tensor<4x24xf32>, tensor<4x1xf32> {
      %pt = block.input %gp imap [1, -1, -1] : tensor<8x96xf32> -> tensor<8x24xf32>
      %st = block.input %gs imap [-1, -1, -1] : tensor<8x4xf32> -> tensor<8x4xf32>
      %ph = block.reduce_sum %pt dim 0 size 4 : tensor<8x24xf32> -> tensor<4x24xf32>
      %b0 = block.accum_sum %ph : tensor<4x24xf32> -> tensor<4x24xf32>
      %sh = block.reduce_sum %st dim 0 size 4 : tensor<8x4xf32> -> tensor<4x4xf32>
      %sc = block.reduce_sum %sh dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
      %b1 = block.accum_sum %sc : tensor<4x1xf32> -> tensor<4x1xf32>
      block.yield %b0, %b1 : tensor<4x24xf32>, tensor<4x1xf32>
    }
    %ms = block.mul_scalar %acc_s, 3.906250e-03 : tensor<4x1xf32> -> tensor<4x1xf32>
    %r = block.rsqrt %ms : tensor<4x1xf32> -> tensor<4x1xf32>
    %yt = block.mul %acc_p, %r : tensor<4x24xf32>, tensor<4x1xf32> -> tensor<4x24xf32>
    %out = block.output %yt omap [1, -1, -1] : tensor<4x24xf32> -> tensor<4x96xf32>
    block.return %out : tensor<4x96xf32>
  }
  func.return %y : tensor<4x96xf32>
}
