// The μGraphs the search found for the benchmark programs (benchmarks/found, written by
// benchmarks/search_bench.py --write) are equivalent to their programs, and have the
// kernels the search is meant to find.
// RUN: mirage-opt %S/../../../benchmarks/found/gated_mlp.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=GATED_MLP
// RUN: mirage-opt %S/../../../benchmarks/found/gqa_b1.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=GQA
// RUN: mirage-opt %S/../../../benchmarks/found/gqa_b8.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=GQA
// RUN: mirage-opt %S/../../../benchmarks/found/lora.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=LORA
// RUN: mirage-opt %S/../../../benchmarks/found/ntrans_b1.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=NTRANS
// RUN: mirage-opt %S/../../../benchmarks/found/ntrans_b8.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=NTRANS
// RUN: mirage-opt %S/../../../benchmarks/found/qknorm_b1.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=QKNORM
// RUN: mirage-opt %S/../../../benchmarks/found/qknorm_b8.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=QKNORM
// RUN: mirage-opt %S/../../../benchmarks/found/rmsnorm_linear_b1.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=RMSNORM_LINEAR
// RUN: mirage-opt %S/../../../benchmarks/found/rmsnorm_linear_b8.mlir -p 'check-equivalence{reference=program candidate=ugraph}' | FileCheck %s --check-prefix=RMSNORM_LINEAR

// One kernel: the matmul in the loop, the normalization after it.
// RMSNORM_LINEAR-LABEL: func.func @ugraph
// RMSNORM_LINEAR-COUNT-1: kernel.graph
// RMSNORM_LINEAR:     block.accum_rms_last
// RMSNORM_LINEAR:     block.matmul
// RMSNORM_LINEAR:     block.yield
// RMSNORM_LINEAR:   block.div
// RMSNORM_LINEAR-NOT: kernel.graph

// One kernel: both matmuls in the loop, silu and the product after it.
// GATED_MLP-LABEL: func.func @ugraph
// GATED_MLP-COUNT-1: kernel.graph
// GATED_MLP:     block.matmul
// GATED_MLP:     block.matmul
// GATED_MLP:     block.yield
// GATED_MLP:   thread.silu
// GATED_MLP:   thread.mul
// GATED_MLP-NOT: kernel.graph

// One kernel: X W + (X A) B.
// LORA-LABEL: func.func @ugraph
// LORA-COUNT-1: kernel.graph
// LORA-COUNT-3: block.matmul
// LORA-NOT: kernel.graph

// One kernel: both norms and the elementwise chain.
// NTRANS-LABEL: func.func @ugraph
// NTRANS-COUNT-1: kernel.graph
// NTRANS-NOT: kernel.graph

// Attention: an online-softmax split-KV pair. Each block of the first kernel walks one
// slice of the keys with both matmuls, keeps the row maximum, rescales its running
// numerator and denominator by it (accum_rescale) and leaves them with the slice's maximum;
// the second combines the slices by their maxima and divides: finite in f16 where a plain
// exp overflows, and enough blocks for few query rows.
// GQA-LABEL: func.func @ugraph
// GQA:       %{{.*}}, %{{.*}}, %{{.*}} = kernel.graph
// GQA:         block.matmul
// GQA:         block.reduce_max
// GQA:         block.exp
// GQA:         block.matmul
// GQA:         block.accum_rescale
// GQA:         block.accum_rescale
// GQA:         block.accum_max
// GQA:       kernel.graph
// GQA:         block.accum_rescale
// GQA:         block.accum_rescale
// GQA:         block.div
// GQA-NOT:   kernel.graph

// qknorm: an online-softmax split-KV pair with both norms inside its first kernel (each
// block normalizes the Q rows and K columns it loads and leaves its slice's numerator,
// denominator and row maximum), then the slices combined by their maxima and divided.
// QKNORM-LABEL: func.func @ugraph
// QKNORM:       %{{.*}}, %{{.*}}, %{{.*}} = kernel.graph
// QKNORM:         block.rms_norm
// QKNORM:         block.matmul
// QKNORM:         block.reduce_max
// QKNORM:         block.exp
// QKNORM:         block.matmul
// QKNORM:         block.accum_rescale
// QKNORM:         block.accum_rescale
// QKNORM:         block.accum_max
// QKNORM:       kernel.graph
// QKNORM:         block.accum_rescale
// QKNORM:         block.accum_rescale
// QKNORM:         block.div
// QKNORM-NOT:   kernel.graph
