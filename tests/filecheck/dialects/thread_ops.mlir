// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic > %t.generic.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: mirage-opt %t.generic.mlir | FileCheck %s

// thread.fuse with every thread-level op, in the loop and after it, with broadcasting
// inputs and two results.

// CHECK-LABEL: func.func @fused
func.func @fused(%x: tensor<8x32xf16>, %g: tensor<1x32xf16>) -> (tensor<8x16xf16>, tensor<8x16xf32>) {
  %y:2 = kernel.graph(%x, %g) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x32xf16>, tensor<1x32xf16>) -> (tensor<8x16xf16>, tensor<8x16xf32>) {
  ^bb0(%X: tensor<8x32xf16>, %G: tensor<1x32xf16>):
    %a:2 = block.for_loop : tensor<4x16xf16>, tensor<4x1xf32> {
      %xt = block.input %X imap [0, -1, -1] forloop_dim 1 : tensor<8x32xf16> -> tensor<4x16xf16>
      %gt = block.input %G imap [-1, -1, -1] forloop_dim 1 : tensor<1x32xf16> -> tensor<1x16xf16>
      // CHECK: %{{.*}} = thread.fuse(%{{.*}}, %{{.*}}) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16> {
      // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f16, %[[B:.*]]: f16):
      // CHECK-NEXT:   %[[E0:.*]] = thread.exp %[[A]] : f16
      // CHECK-NEXT:   %[[E1:.*]] = thread.square %[[E0]] : f16
      // CHECK-NEXT:   %[[E2:.*]] = thread.sqrt %[[E1]] : f16
      // CHECK-NEXT:   %[[E3:.*]] = thread.rsqrt %[[E2]] : f16
      // CHECK-NEXT:   %[[E4:.*]] = thread.silu %[[E3]] : f16
      // CHECK-NEXT:   %[[E5:.*]] = thread.gelu %[[E4]] : f16
      // CHECK-NEXT:   %[[E6:.*]] = thread.relu %[[E5]] : f16
      // CHECK-NEXT:   %[[B0:.*]] = thread.add %[[E6]], %[[B]] : f16
      // CHECK-NEXT:   %[[B1:.*]] = thread.sub %[[B0]], %[[A]] : f16
      // CHECK-NEXT:   %[[B2:.*]] = thread.mul %[[B1]], %[[B]] : f16
      // CHECK-NEXT:   %[[B3:.*]] = thread.div %[[B2]], %[[B]] : f16
      // CHECK-NEXT:   %[[B4:.*]] = thread.pow %[[B3]], %[[A]] : f16
      // CHECK-NEXT:   %[[B5:.*]] = thread.max %[[B4]], %[[A]] : f16
      // CHECK-NEXT:   %[[S:.*]] = thread.mul_scalar %[[B5]], -2.500000e-01 : f16
      // CHECK-NEXT:   thread.yield %[[S]] : f16
      // CHECK-NEXT: }
      %f = thread.fuse(%xt, %gt) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16> {
      ^bb1(%p: f16, %q: f16):
        %e0 = thread.exp %p : f16
        %e1 = thread.square %e0 : f16
        %e2 = thread.sqrt %e1 : f16
        %e3 = thread.rsqrt %e2 : f16
        %e4 = thread.silu %e3 : f16
        %e5 = thread.gelu %e4 : f16
        %e6 = thread.relu %e5 : f16
        %b0 = thread.add %e6, %q : f16
        %b1 = thread.sub %b0, %p : f16
        %b2 = thread.mul %b1, %q : f16
        %b3 = thread.div %b2, %q : f16
        %b4 = thread.pow %b3, %p : f16
        %b5 = thread.max %b4, %p : f16
        %s = thread.mul_scalar %b5, -0.25 : f16
        thread.yield %s : f16
      }
      %s0 = block.accum_sum %f : tensor<4x16xf16> -> tensor<4x16xf16>
      %s1 = block.accum_sum_last %xt : tensor<4x16xf16> -> tensor<4x1xf32>
      block.yield %s0, %s1 : tensor<4x16xf16>, tensor<4x1xf32>
    }
    // After the loop: two results, one input broadcast along the last dim.
    // CHECK: %{{.*}}, %{{.*}} = thread.fuse(%{{.*}}, %{{.*}}) : (tensor<4x16xf16>, tensor<4x1xf32>) -> (tensor<4x16xf16>, tensor<4x16xf32>) {
    // CHECK-NEXT: ^{{.*}}(%{{.*}}: f16, %{{.*}}: f32):
    // CHECK-NEXT:   thread.yield %{{.*}}, %{{.*}} : f16, f32
    %u, %v = thread.fuse(%a#0, %a#1) : (tensor<4x16xf16>, tensor<4x1xf32>) -> (tensor<4x16xf16>, tensor<4x16xf32>) {
    ^bb2(%p: f16, %q: f32):
      thread.yield %p, %q : f16, f32
    }
    %o = block.output %u omap [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    %w = block.output %v omap [0, -1, -1] : tensor<4x16xf32> -> tensor<8x16xf32>
    block.return %o, %w : tensor<8x16xf16>, tensor<8x16xf32>
  }
  func.return %y#0, %y#1 : tensor<8x16xf16>, tensor<8x16xf32>
}

// GENERIC: "thread.fuse"(%{{.*}}, %{{.*}}) ({
// GENERIC: "thread.mul_scalar"(%{{.*}}) <{scalar = -2.500000e-01 : f64}> : (f16) -> f16
// GENERIC: "thread.yield"(%{{.*}}) : (f16) -> ()
// GENERIC-NEXT: }) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
