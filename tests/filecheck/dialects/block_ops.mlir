// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic > %t.generic.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: mirage-opt %t.generic.mlir | FileCheck %s

// Every block-level op in custom form; the second RUN line round-trips the generic form.

// Input iterators: replicated, cut by the grid, walked by the loop, and a dim cut by both.
// CHECK-LABEL: func.func @iterators
func.func @iterators(%x: tensor<8x64xbf16>) -> (tensor<8x16xbf16>, tensor<16x128xbf16>, tensor<16x32xbf16>) {
  // CHECK: kernel.graph(%{{.*}}) grid [2, 2, 1] block [128, 1, 1] forloop 4
  %y:3 = kernel.graph(%x) grid [2, 2, 1] block [128, 1, 1] forloop 4 : (tensor<8x64xbf16>) -> (tensor<8x16xbf16>, tensor<16x128xbf16>, tensor<16x32xbf16>) {
  ^bb0(%X: tensor<8x64xbf16>):
    // CHECK: block.for_loop : tensor<4x8xbf16>, tensor<8x64xbf16>, tensor<8x16xbf16> {
    %a:3 = block.for_loop : tensor<4x8xbf16>, tensor<8x64xbf16>, tensor<8x16xbf16> {
      // CHECK-NEXT: block.input %{{.*}} imap [0, 1, -1] forloop_dim 1 : tensor<8x64xbf16> -> tensor<4x8xbf16>
      %t0 = block.input %X imap [0, 1, -1] forloop_dim 1 : tensor<8x64xbf16> -> tensor<4x8xbf16>
      // CHECK-NEXT: block.input %{{.*}} imap [-1, -1, -1] : tensor<8x64xbf16> -> tensor<8x64xbf16>
      %t1 = block.input %X imap [-1, -1, -1] : tensor<8x64xbf16> -> tensor<8x64xbf16>
      // CHECK-NEXT: block.input %{{.*}} imap [-1, -1, -1] forloop_dim 1 : tensor<8x64xbf16> -> tensor<8x16xbf16>
      %t2 = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x64xbf16> -> tensor<8x16xbf16>
      // CHECK-NEXT: block.accum_sum
      %s0 = block.accum_sum %t0 : tensor<4x8xbf16> -> tensor<4x8xbf16>
      // CHECK-NEXT: block.accum_max
      %s1 = block.accum_max %t1 : tensor<8x64xbf16> -> tensor<8x64xbf16>
      // CHECK-NEXT: block.accum_sum
      %s2 = block.accum_sum %t2 : tensor<8x16xbf16> -> tensor<8x16xbf16>
      // CHECK-NEXT: block.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x64xbf16>, tensor<8x16xbf16>
      block.yield %s0, %s1, %s2 : tensor<4x8xbf16>, tensor<8x64xbf16>, tensor<8x16xbf16>
    }
    // CHECK: block.output %{{.*}} omap [0, 1, -1] : tensor<4x8xbf16> -> tensor<8x16xbf16>
    %o = block.output %a#0 omap [0, 1, -1] : tensor<4x8xbf16> -> tensor<8x16xbf16>
    // CHECK-NEXT: block.output %{{.*}} omap [1, 0, -1] : tensor<8x64xbf16> -> tensor<16x128xbf16>
    %p = block.output %a#1 omap [1, 0, -1] : tensor<8x64xbf16> -> tensor<16x128xbf16>
    // CHECK-NEXT: block.output %{{.*}} omap [1, 0, -1] : tensor<8x16xbf16> -> tensor<16x32xbf16>
    %q = block.output %a#2 omap [1, 0, -1] : tensor<8x16xbf16> -> tensor<16x32xbf16>
    // CHECK-NEXT: block.return %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x128xbf16>, tensor<16x32xbf16>
    block.return %o, %p, %q : tensor<8x16xbf16>, tensor<16x128xbf16>, tensor<16x32xbf16>
  }
  func.return %y#0, %y#1, %y#2 : tensor<8x16xbf16>, tensor<16x128xbf16>, tensor<16x32xbf16>
}

// Every accumulator, every elementwise kind in the loop, and the other ops before and after it.
// CHECK-LABEL: func.func @ops
func.func @ops(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> (tensor<16x32xf16>, tensor<16x2xf32>) {
  %y, %z = kernel.graph(%x, %w) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<16x64xf16>, tensor<64x32xf16>) -> (tensor<16x32xf16>, tensor<16x2xf32>) {
  ^bb0(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>):
    // CHECK: block.for_loop : tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x32xf32>, tensor<8x16xf16>, tensor<8x32xf32> {
    %acc:7 = block.for_loop : tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x32xf32>, tensor<8x16xf16>, tensor<8x32xf32> {
      // CHECK-NEXT: %[[XT:.*]] = block.input %{{.*}} imap [0, -1, -1] forloop_dim 1 : tensor<16x64xf16> -> tensor<8x16xf16>
      %xt = block.input %X imap [0, -1, -1] forloop_dim 1 : tensor<16x64xf16> -> tensor<8x16xf16>
      // CHECK-NEXT: %[[WT:.*]] = block.input %{{.*}} imap [-1, -1, -1] forloop_dim 0 : tensor<64x32xf16> -> tensor<16x32xf16>
      %wt = block.input %W imap [-1, -1, -1] forloop_dim 0 : tensor<64x32xf16> -> tensor<16x32xf16>
      // CHECK-NEXT: %[[M:.*]] = block.matmul %[[XT]], %[[WT]] : tensor<8x16xf16>, tensor<16x32xf16> -> tensor<8x32xf32>
      %m = block.matmul %xt, %wt : tensor<8x16xf16>, tensor<16x32xf16> -> tensor<8x32xf32>
      // CHECK-NEXT: block.exp %[[M]] : tensor<8x32xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.square
      // CHECK-NEXT: block.sqrt
      // CHECK-NEXT: block.rsqrt
      // CHECK-NEXT: block.silu
      // CHECK-NEXT: block.gelu
      // CHECK-NEXT: block.relu
      // CHECK-NEXT: block.add
      // CHECK-NEXT: block.sub
      // CHECK-NEXT: block.mul
      // CHECK-NEXT: block.div
      // CHECK-NEXT: block.pow
      // CHECK-NEXT: block.max
      %e0 = block.exp %m : tensor<8x32xf32> -> tensor<8x32xf32>
      %e1 = block.square %e0 : tensor<8x32xf32> -> tensor<8x32xf32>
      %e2 = block.sqrt %e1 : tensor<8x32xf32> -> tensor<8x32xf32>
      %e3 = block.rsqrt %e2 : tensor<8x32xf32> -> tensor<8x32xf32>
      %e4 = block.silu %e3 : tensor<8x32xf32> -> tensor<8x32xf32>
      %e5 = block.gelu %e4 : tensor<8x32xf32> -> tensor<8x32xf32>
      %e6 = block.relu %e5 : tensor<8x32xf32> -> tensor<8x32xf32>
      %b0 = block.add %e6, %m : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      %b1 = block.sub %b0, %e6 : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      %b2 = block.mul %b1, %e0 : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      %b3 = block.div %b2, %e0 : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      %b4 = block.pow %e0, %b3 : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      %b5 = block.max %b4, %m : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.mul_scalar %{{.*}}, 5.000000e-01 : tensor<8x32xf32> -> tensor<8x32xf32>
      %ms = block.mul_scalar %b5, 0.5 : tensor<8x32xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.reduce_max %{{.*}} dim 1 : tensor<8x32xf32> -> tensor<8x1xf32>
      %mx = block.reduce_max %m dim 1 : tensor<8x32xf32> -> tensor<8x1xf32>
      // CHECK-NEXT: block.reduce_sum %{{.*}} dim 1 size 16 : tensor<8x32xf32> -> tensor<8x16xf32>
      %rs = block.reduce_sum %m dim 1 size 16 : tensor<8x32xf32> -> tensor<8x16xf32>
      // CHECK-NEXT: block.rms_norm %{{.*}} : tensor<8x16xf16> -> tensor<8x16xf16>
      %rn = block.rms_norm %xt : tensor<8x16xf16> -> tensor<8x16xf16>
      // CHECK-NEXT: block.concat %{{.*}}, %{{.*}} dim 1 : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x32xf32>
      %cc = block.concat %rs, %rs dim 1 : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.accum_sum %{{.*}} : tensor<8x32xf32> -> tensor<8x32xf32>
      %a0 = block.accum_sum %ms : tensor<8x32xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.accum_sum_last %{{.*}} : tensor<8x16xf16> -> tensor<8x1xf32>
      %a1 = block.accum_sum_last %xt : tensor<8x16xf16> -> tensor<8x1xf32>
      // CHECK-NEXT: block.accum_mean_last %{{.*}} : tensor<8x16xf16> -> tensor<8x1xf32>
      %a2 = block.accum_mean_last %xt : tensor<8x16xf16> -> tensor<8x1xf32>
      // CHECK-NEXT: block.accum_rms_last %{{.*}} : tensor<8x16xf16> -> tensor<8x1xf32>
      %a3 = block.accum_rms_last %xt : tensor<8x16xf16> -> tensor<8x1xf32>
      // CHECK-NEXT: block.accum_rescale %{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<8x1xf32> -> tensor<8x32xf32>
      %a4 = block.accum_rescale %m, %mx : tensor<8x32xf32>, tensor<8x1xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.accum_max %{{.*}} : tensor<8x16xf16> -> tensor<8x16xf16>
      %a5 = block.accum_max %rn : tensor<8x16xf16> -> tensor<8x16xf16>
      // CHECK-NEXT: block.accum_sum %{{.*}} : tensor<8x32xf32> -> tensor<8x32xf32>
      %a6 = block.accum_sum %cc : tensor<8x32xf32> -> tensor<8x32xf32>
      // CHECK-NEXT: block.yield
      block.yield %a0, %a1, %a2, %a3, %a4, %a5, %a6 : tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x32xf32>, tensor<8x16xf16>, tensor<8x32xf32>
    }
    // Once per block, after the loop:
    // CHECK: %[[D:.*]] = block.div %{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<8x1xf32> -> tensor<8x32xf32>
    %d = block.div %acc#4, %acc#3 : tensor<8x32xf32>, tensor<8x1xf32> -> tensor<8x32xf32>
    // CHECK-NEXT: block.add %[[D]], %{{.*}}
    %s = block.add %d, %acc#0 : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
    // CHECK-NEXT: block.rms_norm
    %n = block.rms_norm %s : tensor<8x32xf32> -> tensor<8x32xf32>
    // CHECK-NEXT: block.concat %{{.*}}, %{{.*}} dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
    %c = block.concat %acc#1, %acc#2 dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
    // CHECK-NEXT: block.output %{{.*}} omap [0, -1, -1] : tensor<8x32xf32> -> tensor<16x32xf16>
    %o = block.output %n omap [0, -1, -1] : tensor<8x32xf32> -> tensor<16x32xf16>
    // CHECK-NEXT: block.output %{{.*}} omap [0, -1, -1] : tensor<8x2xf32> -> tensor<16x2xf32>
    %p = block.output %c omap [0, -1, -1] : tensor<8x2xf32> -> tensor<16x2xf32>
    // CHECK-NEXT: block.return %{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<16x2xf32>
    block.return %o, %p : tensor<16x32xf16>, tensor<16x2xf32>
  }
  func.return %y, %z : tensor<16x32xf16>, tensor<16x2xf32>
}

// GENERIC: "block.input"(%{{.*}}) <{imap = array<i64: 0, 1, -1>, forloop_dim = 1 : i64}>
// GENERIC: "block.input"(%{{.*}}) <{imap = array<i64: -1, -1, -1>, forloop_dim = -1 : i64}>
// GENERIC: "block.output"(%{{.*}}) <{omap = array<i64: 0, 1, -1>}>
// GENERIC: "block.for_loop"() ({
// GENERIC: "block.reduce_sum"(%{{.*}}) <{dim = 1 : i64, size = 16 : i64}>
// GENERIC: "block.accum_rescale"(%m, %mx) : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
// GENERIC: "block.yield"
// GENERIC-NEXT: }) : () -> (tensor<8x32xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x32xf32>, tensor<8x16xf16>, tensor<8x32xf32>)

// An epilogue operand: a block.input after the loop (forloop_dim -1), read once per block
// (y = x @ w + b with the loop walking k).
// CHECK-LABEL: func.func @epilogue_input
func.func @epilogue_input(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>, %b: tensor<1x32xf16>) -> tensor<16x32xf16> {
  %y = kernel.graph(%x, %w, %b) grid [2, 1, 1] block [128, 1, 1] forloop 4 : (tensor<16x64xf16>, tensor<64x32xf16>, tensor<1x32xf16>) -> tensor<16x32xf16> {
  ^bb0(%X: tensor<16x64xf16>, %W: tensor<64x32xf16>, %B: tensor<1x32xf16>):
    %acc = block.for_loop : tensor<16x16xf32> {
      %xt = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<16x64xf16> -> tensor<16x16xf16>
      %wt = block.input %W imap [1, -1, -1] forloop_dim 0 : tensor<64x32xf16> -> tensor<16x16xf16>
      %p = block.matmul %xt, %wt : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      %s = block.accum_sum %p : tensor<16x16xf32> -> tensor<16x16xf32>
      block.yield %s : tensor<16x16xf32>
    }
    // CHECK: block.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: %[[BT:.*]] = block.input %{{.*}} imap [1, -1, -1] : tensor<1x32xf16> -> tensor<1x16xf16>
    %bt = block.input %B imap [1, -1, -1] : tensor<1x32xf16> -> tensor<1x16xf16>
    // CHECK-NEXT: block.add %{{.*}}, %[[BT]] : tensor<16x16xf32>, tensor<1x16xf16> -> tensor<16x16xf32>
    %r = block.add %acc, %bt : tensor<16x16xf32>, tensor<1x16xf16> -> tensor<16x16xf32>
    %o = block.output %r omap [1, -1, -1] : tensor<16x16xf32> -> tensor<16x32xf16>
    block.return %o : tensor<16x32xf16>
  }
  func.return %y : tensor<16x32xf16>
}
// GENERIC-LABEL: "func.func"() <{sym_name = "epilogue_input"
// GENERIC: "block.yield"
// GENERIC: "block.input"(%{{.*}}) <{imap = array<i64: 1, -1, -1>, forloop_dim = -1 : i64}> : (tensor<1x32xf16>) -> tensor<1x16xf16>
