// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic > %t.generic.mlir
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: mirage-opt %t.generic.mlir | FileCheck %s

// tanh at the three levels, in custom form and back from the generic form.

// CHECK-LABEL: func.func @tanh
func.func @tanh(%x: tensor<8x32xf16>) -> (tensor<8x32xf32>, tensor<8x16xf16>) {
  // CHECK-NEXT: %[[K:.*]] = kernel.tanh %{{.*}} : tensor<8x32xf16> -> tensor<8x32xf32>
  // GENERIC: "kernel.tanh"
  %k = kernel.tanh %x : tensor<8x32xf16> -> tensor<8x32xf32>
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x32xf16>) -> tensor<8x16xf16> {
  ^bb0(%X: tensor<8x32xf16>):
    %a = block.for_loop : tensor<8x8xf32> {
      %xt = block.input %X imap [1, -1, -1] forloop_dim 1 : tensor<8x32xf16> -> tensor<8x8xf16>
      // CHECK: block.tanh %{{.*}} : tensor<8x8xf16> -> tensor<8x8xf32>
      // GENERIC: "block.tanh"
      %t = block.tanh %xt : tensor<8x8xf16> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %f = thread.fuse(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb1(%v: f32):
      // CHECK: thread.tanh %{{.*}} : f32
      // GENERIC: "thread.tanh"
      %w = thread.tanh %v : f32
      thread.yield %w : f32
    }
    %o = block.output %f omap [1, -1, -1] : tensor<8x8xf32> -> tensor<8x16xf16>
    block.return %o : tensor<8x16xf16>
  }
  func.return %k, %y : tensor<8x32xf32>, tensor<8x16xf16>
}
