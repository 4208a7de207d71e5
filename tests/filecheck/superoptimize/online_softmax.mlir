// Softmax attention as PyTorch exports it (torch.softmax subtracts the row max) becomes one
// kernel whose loop walks the keys, with the online-softmax accumulators.
// RUN: mirage-opt %S/../../superoptimize/data/softmax_attention_float16.mlir -p 'convert-linalg-to-kernel,superoptimize{time-budget=30 max-kernel-ops=1}' 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @softmax_attention
// CHECK-COUNT-1: kernel.graph
// CHECK-SAME:    forloop {{[1-9][0-9]*}}
// CHECK:         block.input {{.*}} forloop_dim 2
// CHECK:         block.input {{.*}} forloop_dim 1
// CHECK:         block.matmul
// CHECK:         block.reduce_max
// CHECK:         {{(block|thread)}}.exp
// CHECK:         block.matmul
// CHECK:         block.reduce_sum
// CHECK:         block.accum_rescale
// CHECK:         block.accum_rescale
// CHECK:         block.yield
// CHECK:       block.div
// CHECK-NOT:   kernel.graph
