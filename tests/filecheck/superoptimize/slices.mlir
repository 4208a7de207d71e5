// RUN: mirage-opt %S/../../../benchmarks/corpus/fused_gate_up_mlp_small.mlir -p 'convert-linalg-to-kernel,superoptimize{time-budget=15 workers=1}' 2>&1 | FileCheck %s
// RUN: mirage-opt %S/../../../benchmarks/corpus/fused_gate_up_mlp_small.mlir -p 'convert-linalg-to-kernel,superoptimize{time-budget=5 workers=1 normalize=false}' 2>&1 | FileCheck %s --check-prefix=ASIS

// Phi-3's MLP as torch exports it: one gate_up projection, chunk(2, -1), silu(gate) * up,
// the down projection. Normalized, the chunks move onto the fused weight: the search
// fuses the whole MLP, reading the up half of the weight as a window (from row 96 on,
// transposed) in place; no slice is left.
// CHECK-LABEL: func.func @fused_gate_up_mlp
// CHECK-NOT: kernel.slice
// CHECK: kernel.graph
// CHECK: block.input %{{.*}} view [64, 96] strides [1, 64] offset 6144 : tensor<192x64xf32>
// CHECK-NOT: kernel.slice
// CHECK: func.return
// As it is, the search generates none of the chunks: they stay as they are in the
// program it searches, and fold into the views of the kernels beside them only after.
// ASIS: remark: {{.*}}(slice, slice) not searched
