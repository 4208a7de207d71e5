// RUN: mirage-opt %s -p annotate-abstract-expr | FileCheck %s
// Accumulators sum over the loop only what varies across it; concatenations keep their
// pieces; a launch with several results gets an array of expressions.

// CHECK-LABEL: func.func @lora
// CHECK: block.matmul %xt, %wt {abstract_expr = "sum(8, mul(x, w))"}
// CHECK: block.accum_sum %xw {abstract_expr = "sum(32, mul(x, w))"}
// The B tile is the same in every step: the loop adds no sum.
// CHECK: block.accum_max %bt {abstract_expr = "b"}
// CHECK: block.add %acc_xw, %xab {abstract_expr = "add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))"}
func.func @lora(%x: tensor<4x32xf32>, %w: tensor<32x48xf32>, %a: tensor<32x4xf32>, %b: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %o = kernel.graph(%x, %w, %a, %b) grid [4, 1, 1] block [128, 1, 1] forloop 4 : (tensor<4x32xf32>, tensor<32x48xf32>, tensor<32x4xf32>, tensor<4x48xf32>) -> tensor<4x48xf32> {
  ^bb0(%gx: tensor<4x32xf32>, %gw: tensor<32x48xf32>, %ga: tensor<32x4xf32>, %gb: tensor<4x48xf32>):
    %acc_xw, %acc_xa, %acc_b = block.for_loop : tensor<4x12xf32>, tensor<4x4xf32>, tensor<4x12xf32> {
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x32xf32> -> tensor<4x8xf32>
      %wt = block.input %gw imap [1, -1, -1] forloop_dim 0 : tensor<32x48xf32> -> tensor<8x12xf32>
      %at = block.input %ga imap [-1, -1, -1] forloop_dim 0 : tensor<32x4xf32> -> tensor<8x4xf32>
      %bt = block.input %gb imap [1, -1, -1] : tensor<4x48xf32> -> tensor<4x12xf32>
      %xw = block.matmul %xt, %wt : tensor<4x8xf32>, tensor<8x12xf32> -> tensor<4x12xf32>
      %xa = block.matmul %xt, %at : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
      %a0 = block.accum_sum %xw : tensor<4x12xf32> -> tensor<4x12xf32>
      %a1 = block.accum_sum %xa : tensor<4x4xf32> -> tensor<4x4xf32>
      %a2 = block.accum_max %bt : tensor<4x12xf32> -> tensor<4x12xf32>
      block.yield %a0, %a1, %a2 : tensor<4x12xf32>, tensor<4x4xf32>, tensor<4x12xf32>
    }
    %xab = block.matmul %acc_xa, %acc_b : tensor<4x4xf32>, tensor<4x12xf32> -> tensor<4x12xf32>
    %ot = block.add %acc_xw, %xab : tensor<4x12xf32>, tensor<4x12xf32> -> tensor<4x12xf32>
    %out = block.output %ot omap [1, -1, -1] : tensor<4x12xf32> -> tensor<4x48xf32>
    block.return %out : tensor<4x48xf32>
  }
  func.return %o : tensor<4x48xf32>
}

// CHECK-LABEL: func.func @lora_concat
// CHECK: kernel.concat %x, %xa dim 1 {abstract_expr = "cat<1>(32: x, 4: sum(32, mul(x, a)))"}
// CHECK: kernel.concat %w, %b dim 0 {abstract_expr = "cat<0>(32: w, 4: b)"}
// A contraction over the concatenated dim adds its pieces' products.
// CHECK: kernel.matmul %l, %r {abstract_expr = "add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))"}
func.func @lora_concat(%x: tensor<4x32xf32>, %w: tensor<32x48xf32>, %a: tensor<32x4xf32>, %b: tensor<4x48xf32>) -> tensor<4x48xf32> {
  %xa = kernel.matmul %x, %a : tensor<4x32xf32>, tensor<32x4xf32> -> tensor<4x4xf32>
  %l = kernel.concat %x, %xa dim 1 : tensor<4x32xf32>, tensor<4x4xf32> -> tensor<4x36xf32>
  %r = kernel.concat %w, %b dim 0 : tensor<32x48xf32>, tensor<4x48xf32> -> tensor<36x48xf32>
  %o = kernel.matmul %l, %r : tensor<4x36xf32>, tensor<36x48xf32> -> tensor<4x48xf32>
  func.return %o : tensor<4x48xf32>
}

// CHECK-LABEL: func.func @split_kv
// CHECK: kernel.graph(%q, %k, %v) {{.*}} {abstract_expr = ["sum(8, mul(exp(sum(4, mul(q, k))), v))", "sum(8, exp(sum(4, mul(q, k))))"]}
// CHECK: block.accum_sum_last %et {abstract_expr = "sum(8, exp(sum(4, mul(q, k))))"}
func.func @split_kv(%q: tensor<2x8x4xf32>, %k: tensor<2x4x16xf32>, %v: tensor<2x16x4xf32>) -> (tensor<2x8x8xf32>, tensor<2x8x2xf32>) {
  %num, %den = kernel.graph(%q, %k, %v) grid [2, 2, 1] block [128, 1, 1] forloop 2 : (tensor<2x8x4xf32>, tensor<2x4x16xf32>, tensor<2x16x4xf32>) -> (tensor<2x8x8xf32>, tensor<2x8x2xf32>) {
  ^bb0(%gq: tensor<2x8x4xf32>, %gk: tensor<2x4x16xf32>, %gv: tensor<2x16x4xf32>):
    %acc_o, %acc_z = block.for_loop : tensor<1x8x4xf32>, tensor<1x8x1xf32> {
      %qt = block.input %gq imap [0, -1, -1] : tensor<2x8x4xf32> -> tensor<1x8x4xf32>
      %kt = block.input %gk imap [0, 2, -1] forloop_dim 2 : tensor<2x4x16xf32> -> tensor<1x4x4xf32>
      %vt = block.input %gv imap [0, 1, -1] forloop_dim 1 : tensor<2x16x4xf32> -> tensor<1x4x4xf32>
      %st = block.matmul %qt, %kt : tensor<1x8x4xf32>, tensor<1x4x4xf32> -> tensor<1x8x4xf32>
      %et = block.exp %st : tensor<1x8x4xf32> -> tensor<1x8x4xf32>
      %ot = block.matmul %et, %vt : tensor<1x8x4xf32>, tensor<1x4x4xf32> -> tensor<1x8x4xf32>
      %a0 = block.accum_sum %ot : tensor<1x8x4xf32> -> tensor<1x8x4xf32>
      %a1 = block.accum_sum_last %et : tensor<1x8x4xf32> -> tensor<1x8x1xf32>
      block.yield %a0, %a1 : tensor<1x8x4xf32>, tensor<1x8x1xf32>
    }
    %so = block.output %acc_o omap [0, 2, -1] : tensor<1x8x4xf32> -> tensor<2x8x8xf32>
    %sz = block.output %acc_z omap [0, 2, -1] : tensor<1x8x1xf32> -> tensor<2x8x2xf32>
    block.return %so, %sz : tensor<2x8x8xf32>, tensor<2x8x2xf32>
  }
  func.return %num, %den : tensor<2x8x8xf32>, tensor<2x8x2xf32>
}
