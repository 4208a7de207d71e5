// Softmax attention as PyTorch exports it (torch.softmax subtracts the row max): its output
// comes from one kernel whose loop walks the keys with the online-softmax accumulators, and
// no op of the softmax is left unfused. That kernel is the whole program, or it reads the
// scores from a kernel before it (the long program's segments, composed, may rank first by
// the cost model; each segment is searched with at most `max-kernel-ops` kernel ops).
// RUN: mirage-opt %S/../../superoptimize/data/softmax_attention_float16.mlir -p 'convert-linalg-to-kernel,superoptimize{time-budget=30 max-kernel-ops=1}' 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @softmax_attention
// CHECK-NOT:     kernel.{{(exp|reduce_max|reduce_sum|sub|div|mul_scalar|matmul)}} 
// CHECK:         kernel.graph{{.*}} forloop {{([2-9]|[1-9][0-9]+)}} : {{.*}} -> tensor<4x256x64xf16> {
// CHECK:         block.for_loop
// CHECK:         block.input {{.*}} forloop_dim 1 : tensor<4x2048x64xf16>
// CHECK:         block.reduce_max
// CHECK:         block.sub
// CHECK:         {{(block|thread)}}.exp
// CHECK:         block.matmul
// CHECK:         block.reduce_sum
// CHECK:         block.accum_rescale
// CHECK:         block.accum_rescale
// CHECK:         block.yield
// CHECK:         block.div
// CHECK-NOT:     kernel.
// CHECK:         func.return
