// RUN: mirage-opt %S/../../../fixtures/rmsnorm_linear.mlir -t dot | FileCheck %s
// RUN: mirage-opt %S/../../../fixtures/rmsnorm_linear.mlir -t dot | FileCheck %s --check-prefix=EDGES
// RUN: mirage-opt %S/../../../fixtures/rmsnorm_linear.mlir -t dot | FileCheck %s --check-prefix=FOLD

// The kernel-level program: tensors and kernel ops, one cluster per function.
// CHECK:      digraph "mirage" {
// CHECK:        subgraph cluster_func{{[0-9]+}} {
// CHECK-NEXT:     label="@program"
// CHECK-NEXT:     [[X:t[0-9]+]] [label="%x\n16x4096xf16", shape=ellipse];
// CHECK-NEXT:     [[W:t[0-9]+]] [label="%w\n4096x6144xf16", shape=ellipse];
// CHECK-NEXT:     [[NORM:k[0-9]+]] [label="kernel.rms_norm", shape=box];
// CHECK-NEXT:     [[X]] -> [[NORM]];
// CHECK-NEXT:     [[N:t[0-9]+]] [label="%n\n16x4096xf16", shape=ellipse];
// CHECK-NEXT:     [[NORM]] -> [[N]];
// CHECK-NEXT:     [[MM:k[0-9]+]] [label="kernel.matmul", shape=box];
// CHECK-NEXT:     [[N]] -> [[MM]];
// CHECK-NEXT:     [[W]] -> [[MM]];
// CHECK:        }

// The μGraph: the kernel.graph cluster carries grid, block and loop; the loop body is a
// sub-cluster of its own, and the ops after the loop (the fused thread chain, folded into
// one node labelled with its expression, and the saver) another.
// CHECK:        subgraph cluster_func{{[0-9]+}} {
// CHECK-NEXT:     label="@ugraph"
// CHECK:          subgraph cluster_graph{{[0-9]+}} {
// CHECK-NEXT:       label="kernel.graph  grid [128, 1, 1]  block [128, 1, 1]  forloop 64"
// CHECK-NEXT:       subgraph cluster_loop{{[0-9]+}} {
// CHECK-NEXT:         label="for-loop body: every iteration (x64)"
// CHECK-NEXT:         {{b[0-9]+}} [label="block.input\n16x64xf16", shape=box];
// CHECK-NEXT:         {{b[0-9]+}} [label="block.input\n64x48xf16", shape=box];
// CHECK-NEXT:         {{b[0-9]+}} [label="block.matmul\n16x48xf32", shape=box];
// CHECK-NEXT:         {{b[0-9]+}} [label="block.square\n16x64xf32", shape=box];
// CHECK-NEXT:         {{b[0-9]+}} [label="block.accum_sum\n16x48xf32", shape=box];
// CHECK-NEXT:         {{b[0-9]+}} [label="block.accum_mean_last\n16x1xf32", shape=box];
// CHECK-NEXT:       }
// CHECK-NEXT:       subgraph cluster_after{{[0-9]+}} {
// CHECK-NEXT:         label="after the loop: once per block"
// CHECK-NEXT:         {{b[0-9]+}} [label="thread.fuse\nv / sqrt(ms)\n16x48xf32"
// CHECK-NEXT:         {{b[0-9]+}} [label="block.output", shape=box];
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK:        }
// CHECK-NEXT: }

// The thread ops are in the fused node's expression, not nodes of their own.
// FOLD-NOT: thread.sqrt
// FOLD-NOT: thread.div
// FOLD-NOT: thread.yield

// The maps on the edges into and out of the kernel.graph; the accumulators feed the
// fused chain, each on the edge named by its argument.
// EDGES-LABEL:  label="@ugraph"
// EDGES:        [[GX:t[0-9]+]] [label="%x\n16x4096xf16", shape=ellipse];
// EDGES-NEXT:   [[GW:t[0-9]+]] [label="%w\n4096x6144xf16", shape=ellipse];
// EDGES:        [[XT:b[0-9]+]] [label="block.input\n16x64xf16"
// EDGES-NEXT:   [[WT:b[0-9]+]] [label="block.input\n64x48xf16"
// EDGES:        [[ACC:b[0-9]+]] [label="block.accum_sum\n16x48xf32"
// EDGES-NEXT:   [[MS:b[0-9]+]] [label="block.accum_mean_last
// EDGES:        [[FUSE:b[0-9]+]] [label="thread.fuse
// EDGES-NEXT:   [[OUT:b[0-9]+]] [label="block.output"
// EDGES:        [[GX]] -> [[XT]] [label="imap [-1, -1, -1]\nforloop_dim 1"];
// EDGES-NEXT:   [[GW]] -> [[WT]] [label="imap [1, -1, -1]\nforloop_dim 0"];
// EDGES-DAG:    [[ACC]] -> [[FUSE]] [label="v"];
// EDGES-DAG:    [[MS]] -> [[FUSE]] [label="ms"];
// EDGES-DAG:    [[FUSE]] -> [[OUT]];
// EDGES:        [[Y:t[0-9]+]] [label="%y\n16x6144xf16", shape=ellipse];
// EDGES-NEXT:   [[OUT]] -> [[Y]] [label="omap [1, -1, -1]"];
// EDGES-NEXT:   [[RET:ret[0-9]+]] [label="return", shape=plaintext];
// EDGES-NEXT:   [[Y]] -> [[RET]];
