// RUN: mirage-opt %s -p annotate-abstract-expr | FileCheck %s
// Split-K RMSNorm + MatMul: every column block saves the same sum of squares (4 copies
// along dim 1 of %s); kernel 2 sums the two halves of K (a sum) and the copies (not one).

// CHECK-LABEL: func.func @ugraph
// CHECK: block.accum_sum_last %sq {abstract_expr = "sum(32, mul(x, x))"}
// CHECK: block.reduce_sum %pt dim 0 size 4 {abstract_expr = "sum(64, mul(x, w))"}
// CHECK: block.reduce_sum %st dim 0 size 4 {abstract_expr = "sum(64, mul(x, x))"}
// CHECK: block.reduce_sum %sh dim 1 {abstract_expr = "sum(64, mul(x, x))"}
// CHECK: block.mul %acc_p, %r {abstract_expr = "mul(sum(64, mul(x, w)), div(1, sqrt(sum(64, mul(x, x)))))"}
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
