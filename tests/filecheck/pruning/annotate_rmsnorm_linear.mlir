// RUN: mirage-opt %s -p annotate-abstract-expr | FileCheck %s
// RUN: mirage-opt %s -p annotate-abstract-expr | mirage-opt | FileCheck %s
// Every value's abstract expression, at the three levels: RMSNorm + MatMul and the fused
// μGraph that defers the normalization past the matmul (paper Figure 3).

// CHECK-LABEL: func.func @program
// CHECK: kernel.rms_norm %x {abstract_expr = "div(x, sqrt(sum(64, mul(x, x))))"}
// CHECK: kernel.matmul %n, %w {abstract_expr = "sum(64, mul(div(x, sqrt(sum(64, mul(x, x)))), w))"}
func.func @program(%x: tensor<4x64xf16>, %w: tensor<64x96xf16>) -> tensor<4x96xf16> {
  %n = kernel.rms_norm %x : tensor<4x64xf16> -> tensor<4x64xf16>
  %y = kernel.matmul %n, %w : tensor<4x64xf16>, tensor<64x96xf16> -> tensor<4x96xf16>
  func.return %y : tensor<4x96xf16>
}

// CHECK-LABEL: func.func @ugraph
// CHECK: kernel.graph(%x, %w) {{.*}} {abstract_expr = "div(sum(64, mul(x, w)), sqrt(sum(64, mul(x, x))))"}
// Input iterators are the identity, whatever they cut.
// CHECK: block.input %gx {{.*}} {abstract_expr = "x"}
// CHECK: block.input %gw {{.*}} {abstract_expr = "w"}
// A tile's matmul sums its 16 products; the loop's 4 steps make it 64.
// CHECK: block.matmul %xt, %wt {abstract_expr = "sum(16, mul(x, w))"}
// CHECK: block.square %xt {abstract_expr = "mul(x, x)"}
// CHECK: block.accum_sum %xw {abstract_expr = "sum(64, mul(x, w))"}
// A mean is the sum it divides: constants are not part of the abstraction.
// CHECK: block.accum_mean_last %sq {abstract_expr = "sum(64, mul(x, x))"}
// CHECK: thread.fuse(%acc_xw, %acc_ms) {abstract_expr = "div(sum(64, mul(x, w)), sqrt(sum(64, mul(x, x))))"}
// CHECK: thread.sqrt %ms {abstract_expr = "sqrt(sum(64, mul(x, x)))"}
// CHECK: thread.div %v, %r {abstract_expr = "div(sum(64, mul(x, w)), sqrt(sum(64, mul(x, x))))"}
// CHECK: block.output %yt {{.*}} {abstract_expr = "div(sum(64, mul(x, w)), sqrt(sum(64, mul(x, x))))"}
func.func @ugraph(%x: tensor<4x64xf16>, %w: tensor<64x96xf16>) -> tensor<4x96xf16> {
  %y = kernel.graph(%x, %w) grid [4, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x64xf16>, tensor<64x96xf16>) -> tensor<4x96xf16> {
  ^bb0(%gx: tensor<4x64xf16>, %gw: tensor<64x96xf16>):
    %acc_xw, %acc_ms = block.for_loop : tensor<4x24xf32>, tensor<4x1xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x64xf16> -> tensor<4x16xf16>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<64x96xf16> -> tensor<16x24xf16>
      %xw = block.matmul %xt, %wt : tensor<4x16xf16>, tensor<16x24xf16> -> tensor<4x24xf32>
      %sq = block.square %xt : tensor<4x16xf16> -> tensor<4x16xf32>
      %a0 = block.accum_sum %xw : tensor<4x24xf32> -> tensor<4x24xf32>
      %a1 = block.accum_mean_last %sq : tensor<4x16xf32> -> tensor<4x1xf32>
      block.yield %a0, %a1 : tensor<4x24xf32>, tensor<4x1xf32>
    }
    %yt = thread.fuse(%acc_xw, %acc_ms) : (tensor<4x24xf32>, tensor<4x1xf32>) -> tensor<4x24xf32> {
    ^bb1(%v: f32, %ms: f32):
      %r = thread.sqrt %ms : f32
      %o = thread.div %v, %r : f32
      thread.yield %o : f32
    }
    %out = block.output %yt omap [1, -1, -1] : tensor<4x24xf32> -> tensor<4x96xf16>
    block.return %out : tensor<4x96xf16>
  }
  func.return %y : tensor<4x96xf16>
}
