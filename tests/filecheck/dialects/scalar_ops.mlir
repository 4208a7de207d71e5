// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic > %t.generic.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: mirage-opt %t.generic.mlir | FileCheck %s

// The immediate forms of the binary kinds (x op c, c the `scalar` property) at the three
// levels, in custom form; the generic form holds the constant as an f64 property.

// CHECK-LABEL: func.func @kernel_forms
func.func @kernel_forms(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // CHECK-NEXT: %[[A:.*]] = kernel.add_scalar %{{.*}}, 1.000000e+00 : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %[[S:.*]] = kernel.sub_scalar %[[A]], 2.500000e-01 : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %[[D:.*]] = kernel.div_scalar %[[S]], 3.000000e+00 : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: %[[P:.*]] = kernel.pow_scalar %[[D]], 2.000000e+00 : tensor<4x8xf16> -> tensor<4x8xf16>
  // CHECK-NEXT: func.return %[[P]] : tensor<4x8xf16>
  %a = kernel.add_scalar %x, 1.0 : tensor<4x8xf16> -> tensor<4x8xf16>
  %s = kernel.sub_scalar %a, 0.25 : tensor<4x8xf16> -> tensor<4x8xf16>
  %d = kernel.div_scalar %s, 3.0 : tensor<4x8xf16> -> tensor<4x8xf16>
  %p = kernel.pow_scalar %d, 2.0 : tensor<4x8xf16> -> tensor<4x8xf16>
  func.return %p : tensor<4x8xf16>
}

// GENERIC: "kernel.add_scalar"(%{{.*}}) <{scalar = 1.000000e+00 : f64}> : (tensor<4x8xf16>) -> tensor<4x8xf16>
// GENERIC: "kernel.sub_scalar"(%{{.*}}) <{scalar = 2.500000e-01 : f64}>
// GENERIC: "kernel.div_scalar"(%{{.*}}) <{scalar = 3.000000e+00 : f64}>
// GENERIC: "kernel.pow_scalar"(%{{.*}}) <{scalar = 2.000000e+00 : f64}>

// CHECK-LABEL: func.func @block_and_thread_forms
func.func @block_and_thread_forms(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<4x16xf32> {
      %t = block.input %X imap [0, -1, -1] : tensor<8x16xf32> -> tensor<4x16xf32>
      // CHECK: %[[BA:.*]] = block.add_scalar %{{.*}}, -1.000000e+00 : tensor<4x16xf32> -> tensor<4x16xf32>
      // CHECK-NEXT: %[[BD:.*]] = block.div_scalar %[[BA]], 8.000000e+00 : tensor<4x16xf32> -> tensor<4x16xf32>
      // CHECK-NEXT: %[[BS:.*]] = block.sub_scalar %[[BD]], 2.000000e+00 : tensor<4x16xf32> -> tensor<4x16xf32>
      // CHECK-NEXT: %[[BP:.*]] = block.pow_scalar %[[BS]], 2.000000e+00 : tensor<4x16xf32> -> tensor<4x16xf32>
      // CHECK-NEXT: %[[BM:.*]] = block.mul_scalar %[[BP]], 5.000000e-01 : tensor<4x16xf32> -> tensor<4x16xf32>
      %ba = block.add_scalar %t, -1.0 : tensor<4x16xf32> -> tensor<4x16xf32>
      %bd = block.div_scalar %ba, 8.0 : tensor<4x16xf32> -> tensor<4x16xf32>
      %bs = block.sub_scalar %bd, 2.0 : tensor<4x16xf32> -> tensor<4x16xf32>
      %bp = block.pow_scalar %bs, 2.0 : tensor<4x16xf32> -> tensor<4x16xf32>
      %bm = block.mul_scalar %bp, 0.5 : tensor<4x16xf32> -> tensor<4x16xf32>
      %s = block.accum_sum %bm : tensor<4x16xf32> -> tensor<4x16xf32>
      block.yield %s : tensor<4x16xf32>
    }
    // CHECK: thread.fuse(%{{.*}}) : (tensor<4x16xf32>) -> tensor<4x16xf32> {
    // CHECK-NEXT: ^{{.*}}(%[[E:.*]]: f32):
    // CHECK-NEXT:   %[[TA:.*]] = thread.add_scalar %[[E]], 1.000000e+00 : f32
    // CHECK-NEXT:   %[[TS:.*]] = thread.sub_scalar %[[TA]], 5.000000e-01 : f32
    // CHECK-NEXT:   %[[TD:.*]] = thread.div_scalar %[[TS]], 4.000000e+00 : f32
    // CHECK-NEXT:   %[[TP:.*]] = thread.pow_scalar %[[TD]], 3.000000e+00 : f32
    // CHECK-NEXT:   thread.yield %[[TP]] : f32
    %f = thread.fuse(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32> {
    ^bb1(%e: f32):
      %ta = thread.add_scalar %e, 1.0 : f32
      %ts = thread.sub_scalar %ta, 0.5 : f32
      %td = thread.div_scalar %ts, 4.0 : f32
      %tp = thread.pow_scalar %td, 3.0 : f32
      thread.yield %tp : f32
    }
    %o = block.output %f omap [0, -1, -1] : tensor<4x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}

// GENERIC: "block.add_scalar"(%{{.*}}) <{scalar = -1.000000e+00 : f64}>
// GENERIC: "thread.pow_scalar"(%{{.*}}) <{scalar = 3.000000e+00 : f64}> : (f32) -> f32
