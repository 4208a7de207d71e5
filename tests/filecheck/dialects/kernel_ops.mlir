// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic > %t.generic.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: mirage-opt %t.generic.mlir | FileCheck %s

// Every kernel-level op, in custom form; the second RUN line shows that the generic form
// parses back to the same program.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf16>) {
  // CHECK-NEXT: %{{.*}} = kernel.exp %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %{{.*}} = kernel.square %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %{{.*}} = kernel.sqrt %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %{{.*}} = kernel.rsqrt %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %{{.*}} = kernel.silu %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.gelu %{{.*}} : tensor<4x8xf16> -> tensor<4x8xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.relu %{{.*}} : tensor<4x8xf16> -> tensor<4x8xf16>
  %0 = kernel.exp %x : tensor<4x8xf16> -> tensor<4x8xf16>
  %1 = kernel.square %x : tensor<4x8xf16> -> tensor<4x8xf16>
  %2 = kernel.sqrt %x : tensor<4x8xf16> -> tensor<4x8xf16>
  %3 = kernel.rsqrt %x : tensor<4x8xf16> -> tensor<4x8xf16>
  %4 = kernel.silu %x : tensor<4x8xf16> -> tensor<4x8xf32>
  %5 = kernel.gelu %x : tensor<4x8xf16> -> tensor<4x8xbf16>
  %6 = kernel.relu %x : tensor<4x8xf16> -> tensor<4x8xf16>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>, %c: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK-NEXT: %{{.*}} = kernel.add %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.sub %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.mul %{{.*}}, %{{.*}} : tensor<1x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.div %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.pow %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: %{{.*}} = kernel.max %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %0 = kernel.add %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = kernel.sub %a, %b : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %2 = kernel.mul %c, %a : tensor<1x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = kernel.div %b, %c : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %4 = kernel.pow %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %5 = kernel.max %a, %c : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @structured
func.func @structured(%x: tensor<2x16x64xbf16>, %w: tensor<1x64x32xbf16>, %v: tensor<2x16x8xbf16>) -> (tensor<2x16x32xf32>, tensor<2x16x64xbf16>, tensor<2x16x1xbf16>, tensor<2x16x4xbf16>, tensor<2x2x64xbf16>, tensor<2x16x64xbf16>, tensor<2x16x80xbf16>) {
  // CHECK-NEXT: %{{.*}} = kernel.matmul %{{.*}}, %{{.*}} : tensor<2x16x64xbf16>, tensor<1x64x32xbf16> -> tensor<2x16x32xf32>
  // CHECK-NEXT: %{{.*}} = kernel.mul_scalar %{{.*}}, 1.250000e-01 : tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.reduce_sum %{{.*}} dim 2 : tensor<2x16x64xbf16> -> tensor<2x16x1xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.reduce_sum %{{.*}} dim 2 size 4 : tensor<2x16x64xbf16> -> tensor<2x16x4xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.reduce_max %{{.*}} dim 1 size 2 : tensor<2x16x64xbf16> -> tensor<2x2x64xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.rms_norm %{{.*}} : tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  // CHECK-NEXT: %{{.*}} = kernel.concat %{{.*}}, %{{.*}}, %{{.*}} dim 2 : tensor<2x16x64xbf16>, tensor<2x16x8xbf16>, tensor<2x16x8xbf16> -> tensor<2x16x80xbf16>
  %0 = kernel.matmul %x, %w : tensor<2x16x64xbf16>, tensor<1x64x32xbf16> -> tensor<2x16x32xf32>
  %1 = kernel.mul_scalar %x, 0.125 : tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  %2 = kernel.reduce_sum %x dim 2 : tensor<2x16x64xbf16> -> tensor<2x16x1xbf16>
  %3 = kernel.reduce_sum %x dim 2 size 4 : tensor<2x16x64xbf16> -> tensor<2x16x4xbf16>
  %4 = kernel.reduce_max %x dim 1 size 2 : tensor<2x16x64xbf16> -> tensor<2x2x64xbf16>
  %5 = kernel.rms_norm %x : tensor<2x16x64xbf16> -> tensor<2x16x64xbf16>
  %6 = kernel.concat %x, %v, %v dim 2 : tensor<2x16x64xbf16>, tensor<2x16x8xbf16>, tensor<2x16x8xbf16> -> tensor<2x16x80xbf16>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<2x16x32xf32>, tensor<2x16x64xbf16>, tensor<2x16x1xbf16>, tensor<2x16x4xbf16>, tensor<2x2x64xbf16>, tensor<2x16x64xbf16>, tensor<2x16x80xbf16>
}

// The graph-defined op with all its properties: a 3-D grid, a 2-D block, a loop range;
// two inputs, two outputs.
// CHECK-LABEL: func.func @graph
func.func @graph(%x: tensor<4x8x64xf16>, %w: tensor<1x64x32xf16>) -> (tensor<4x8x32xf16>, tensor<4x8x2xf32>) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = kernel.graph(%{{.*}}, %{{.*}}) grid [4, 2, 1] block [64, 2, 1] forloop 4 : (tensor<4x8x64xf16>, tensor<1x64x32xf16>) -> (tensor<4x8x32xf16>, tensor<4x8x2xf32>) {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<4x8x64xf16>, %{{.*}}: tensor<1x64x32xf16>):
  // CHECK-NEXT:   %{{.*}}, %{{.*}} = block.for_loop : tensor<1x8x16xf32>, tensor<1x8x1xf32> {
  // CHECK-NEXT:     %{{.*}} = block.input %{{.*}} imap [0, -1, -1] forloop_dim 2 : tensor<4x8x64xf16> -> tensor<1x8x16xf16>
  // CHECK-NEXT:     %{{.*}} = block.input %{{.*}} imap [-1, 2, -1] forloop_dim 1 : tensor<1x64x32xf16> -> tensor<1x16x16xf16>
  // CHECK-NEXT:     %{{.*}} = block.input %{{.*}} imap [-1, 2, -1] : tensor<1x64x32xf16> -> tensor<1x64x16xf16>
  // CHECK-NEXT:     %{{.*}} = block.reduce_sum %{{.*}} dim 1 size 16 : tensor<1x64x16xf16> -> tensor<1x16x16xf16>
  // CHECK-NEXT:     %{{.*}} = block.add %{{.*}}, %{{.*}} : tensor<1x16x16xf16>, tensor<1x16x16xf16> -> tensor<1x16x16xf16>
  // CHECK-NEXT:     %{{.*}} = block.matmul %{{.*}}, %{{.*}} : tensor<1x8x16xf16>, tensor<1x16x16xf16> -> tensor<1x8x16xf32>
  // CHECK-NEXT:     %{{.*}} = block.accum_sum %{{.*}} : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
  // CHECK-NEXT:     %{{.*}} = block.accum_rms_last %{{.*}} : tensor<1x8x16xf16> -> tensor<1x8x1xf32>
  // CHECK-NEXT:     block.yield %{{.*}}, %{{.*}} : tensor<1x8x16xf32>, tensor<1x8x1xf32>
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %{{.*}} = block.div %{{.*}}, %{{.*}} : tensor<1x8x16xf32>, tensor<1x8x1xf32> -> tensor<1x8x16xf32>
  // CHECK-NEXT:   %{{.*}} = block.output %{{.*}} omap [0, 2, -1] : tensor<1x8x16xf32> -> tensor<4x8x32xf16>
  // CHECK-NEXT:   %{{.*}} = block.output %{{.*}} omap [0, 2, -1] : tensor<1x8x1xf32> -> tensor<4x8x2xf32>
  // CHECK-NEXT:   block.return %{{.*}}, %{{.*}} : tensor<4x8x32xf16>, tensor<4x8x2xf32>
  // CHECK-NEXT: }
  %y, %r = kernel.graph(%x, %w) grid [4, 2, 1] block [64, 2, 1] forloop 4 : (tensor<4x8x64xf16>, tensor<1x64x32xf16>) -> (tensor<4x8x32xf16>, tensor<4x8x2xf32>) {
  ^bb0(%X: tensor<4x8x64xf16>, %W: tensor<1x64x32xf16>):
    %acc:2 = block.for_loop : tensor<1x8x16xf32>, tensor<1x8x1xf32> {
      %xt = block.input %X imap [0, -1, -1] forloop_dim 2 : tensor<4x8x64xf16> -> tensor<1x8x16xf16>
      %wt = block.input %W imap [-1, 2, -1] forloop_dim 1 : tensor<1x64x32xf16> -> tensor<1x16x16xf16>
      %ww = block.input %W imap [-1, 2, -1] : tensor<1x64x32xf16> -> tensor<1x64x16xf16>
      %wr = block.reduce_sum %ww dim 1 size 16 : tensor<1x64x16xf16> -> tensor<1x16x16xf16>
      %w2 = block.add %wt, %wr : tensor<1x16x16xf16>, tensor<1x16x16xf16> -> tensor<1x16x16xf16>
      %m = block.matmul %xt, %w2 : tensor<1x8x16xf16>, tensor<1x16x16xf16> -> tensor<1x8x16xf32>
      %a = block.accum_sum %m : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      %s = block.accum_rms_last %xt : tensor<1x8x16xf16> -> tensor<1x8x1xf32>
      block.yield %a, %s : tensor<1x8x16xf32>, tensor<1x8x1xf32>
    }
    %d = block.div %acc#0, %acc#1 : tensor<1x8x16xf32>, tensor<1x8x1xf32> -> tensor<1x8x16xf32>
    %o = block.output %d omap [0, 2, -1] : tensor<1x8x16xf32> -> tensor<4x8x32xf16>
    %p = block.output %acc#1 omap [0, 2, -1] : tensor<1x8x1xf32> -> tensor<4x8x2xf32>
    block.return %o, %p : tensor<4x8x32xf16>, tensor<4x8x2xf32>
  }
  func.return %y, %r : tensor<4x8x32xf16>, tensor<4x8x2xf32>
}

// GENERIC: "kernel.mul_scalar"(%{{.*}}) <{scalar = 1.250000e-01 : f64}>
// GENERIC: "kernel.graph"(%{{.*}}, %{{.*}}) <{grid = array<i64: 4, 2, 1>, block = array<i64: 64, 2, 1>, forloop_range = 4 : i64}>

// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>, %b: tensor<1x8xf16>) -> (tensor<4x8xf32>, tensor<4x8xf16>) {
  // CHECK-NEXT: kernel.rms_norm %{{.*}} affine(%{{.*}} : tensor<1x8xf32>) eps 1.000000e-06 : tensor<4x8xf32> -> tensor<4x8xf32>
  %n = kernel.rms_norm %x affine(%g : tensor<1x8xf32>) eps 1.0e-06 : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK-NEXT: kernel.rms_norm %{{.*}} affine(%{{.*}}, %{{.*}} : tensor<1x8xf32>, tensor<1x8xf16>) : tensor<4x8xf32> -> tensor<4x8xf16>
  %l = kernel.rms_norm %n affine(%g, %b : tensor<1x8xf32>, tensor<1x8xf16>) : tensor<4x8xf32> -> tensor<4x8xf16>
  func.return %n, %l : tensor<4x8xf32>, tensor<4x8xf16>
}
// GENERIC: "kernel.rms_norm"(%{{.*}}, %{{.*}}) <{eps = 1.000000e-06 : f64}>
