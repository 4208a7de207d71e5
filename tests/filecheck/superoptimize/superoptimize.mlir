// RUN: mirage-opt %s -p 'superoptimize{time-budget=60 workers=1}' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: mirage-opt %s -p 'superoptimize{time-budget=60 workers=1}' | mirage-opt -p 'superoptimize{time-budget=60 workers=1}' 2>&1 | FileCheck %s --check-prefix=AGAIN

// RMSNorm then a matmul: one kernel that divides the product by the root mean square of
// the row (its accumulator, or the row sums of squares beside the product), after a loop
// over k or, in a loop of one step, in the product's epilogue.
// CHECK-LABEL: func.func @rmsnorm_linear
// CHECK-NEXT:    kernel.graph
// CHECK:           block.for_loop
// CHECK-DAG:         {{block.accum_rms_last|block.reduce_sum}}
// CHECK-DAG:         block.matmul
// CHECK:         {{block.div|thread.div}}
// CHECK:         block.output
// CHECK-NOT:   kernel.rms_norm
// CHECK:       func.return
func.func @rmsnorm_linear(%x: tensor<4x2048xf16>, %w: tensor<2048x96xf16>) -> tensor<4x96xf16> {
  %n = kernel.rms_norm %x : tensor<4x2048xf16> -> tensor<4x2048xf16>
  %y = kernel.matmul %n, %w : tensor<4x2048xf16>, tensor<2048x96xf16> -> tensor<4x96xf16>
  func.return %y : tensor<4x96xf16>
}

// Softmax: exp, the row sum and the division in one kernel.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT:    kernel.graph
// CHECK:           block.exp
// CHECK:           block.reduce_sum
// CHECK:           block.div
// CHECK-NOT:   kernel.exp
// CHECK:       func.return
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}

// One small elementwise op (64 elements) is already one block's kernel: unchanged, with a
// remark and no error (a larger one is re-tiled into more blocks than its plain kernel has).
// CHECK-LABEL: func.func @one_exp
// CHECK-NEXT:    %e = kernel.exp %x
// CHECK-NEXT:    func.return %e
// REMARK: remark: superoptimize: @one_exp: no μGraph faster than the function was found; left unchanged
// REMARK-NOT: error
func.func @one_exp(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = kernel.exp %x : tensor<8x8xf32> -> tensor<8x8xf32>
  func.return %e : tensor<8x8xf32>
}

// Running the pass on its own output leaves the μGraphs alone (they are no longer
// kernel-level functions) and only remarks on the function it could not improve.
// AGAIN: remark: superoptimize: @one_exp
// AGAIN: func.func @rmsnorm_linear
// AGAIN-NEXT: kernel.graph
