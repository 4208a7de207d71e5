// RUN: mirage-opt %S/../../../fixtures/attention.mlir -t dot | FileCheck %s

// The split-KV pair: two kernel.graph clusters; the first one's partial results are
// tensors between them, saved with omap [0, 2, -1] and read back with forloop_dim 2.
// CHECK-LABEL:  label="@ugraph"
// CHECK:        [[Q:t[0-9]+]] [label="%q\n2x256x64xf16"
// CHECK-NEXT:   [[K:t[0-9]+]] [label="%k\n2x64x4096xf16"
// CHECK-NEXT:   [[V:t[0-9]+]] [label="%v\n2x4096x64xf16"
// CHECK-NEXT:   subgraph cluster_graph{{[0-9]+}} {
// CHECK-NEXT:     label="kernel.graph  grid [2, 16, 1]  block [128, 1, 1]  forloop 4"
// CHECK-NEXT:     subgraph cluster_loop{{[0-9]+}} {
// CHECK-NEXT:       label="for-loop body: every iteration (x4)"
// CHECK-NEXT:       [[QT:b[0-9]+]] [label="block.input\n1x256x64xf16"
// CHECK-NEXT:       [[KT:b[0-9]+]] [label="block.input\n1x64x64xf16"
// CHECK-NEXT:       [[VT:b[0-9]+]] [label="block.input\n1x64x64xf16"
// CHECK-NEXT:       {{b[0-9]+}} [label="block.matmul
// CHECK-NEXT:       {{b[0-9]+}} [label="block.exp
// CHECK-NEXT:       {{b[0-9]+}} [label="block.matmul
// CHECK-NEXT:       [[AO:b[0-9]+]] [label="block.accum_sum\n1x256x64xf32"
// CHECK-NEXT:       [[AZ:b[0-9]+]] [label="block.accum_sum_last\n1x256x1xf32"
// CHECK-NEXT:     }
// CHECK-NEXT:     subgraph cluster_after{{[0-9]+}} {
// CHECK-NEXT:       label="after the loop: once per block"
// CHECK-NEXT:       [[SO:b[0-9]+]] [label="block.output", shape=box];
// CHECK-NEXT:       [[SZ:b[0-9]+]] [label="block.output", shape=box];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   [[Q]] -> [[QT]] [label="imap [0, -1, -1]"];
// CHECK-NEXT:   [[K]] -> [[KT]] [label="imap [0, 2, -1]\nforloop_dim 2"];
// CHECK-NEXT:   [[V]] -> [[VT]] [label="imap [0, 1, -1]\nforloop_dim 1"];
// CHECK:        [[AO]] -> [[SO]];
// CHECK-NEXT:   [[NUM:t[0-9]+]] [label="%num\n2x256x1024xf32", shape=ellipse];
// CHECK-NEXT:   [[SO]] -> [[NUM]] [label="omap [0, 2, -1]"];
// CHECK-NEXT:   [[AZ]] -> [[SZ]];
// CHECK-NEXT:   [[DEN:t[0-9]+]] [label="%den\n2x256x16xf32", shape=ellipse];
// CHECK-NEXT:   [[SZ]] -> [[DEN]] [label="omap [0, 2, -1]"];

// The second kernel sums the partials over its loop and divides once, after it.
// CHECK-NEXT:   subgraph cluster_graph{{[0-9]+}} {
// CHECK-NEXT:     label="kernel.graph  grid [2, 4, 1]  block [128, 1, 1]  forloop 16"
// CHECK-NEXT:     subgraph cluster_loop{{[0-9]+}} {
// CHECK-NEXT:       label="for-loop body: every iteration (x16)"
// CHECK-NEXT:       [[NT:b[0-9]+]] [label="block.input\n1x64x64xf32"
// CHECK-NEXT:       [[DT:b[0-9]+]] [label="block.input\n1x64x1xf32"
// CHECK-NEXT:       {{b[0-9]+}} [label="block.accum_sum
// CHECK-NEXT:       {{b[0-9]+}} [label="block.accum_sum
// CHECK-NEXT:     }
// CHECK-NEXT:     subgraph cluster_after{{[0-9]+}} {
// CHECK-NEXT:       label="after the loop: once per block"
// CHECK-NEXT:       {{b[0-9]+}} [label="block.div\n1x64x64xf32"
// CHECK-NEXT:       {{b[0-9]+}} [label="block.output"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   [[NUM]] -> [[NT]] [label="imap [0, 1, -1]\nforloop_dim 2"];
// CHECK-NEXT:   [[DEN]] -> [[DT]] [label="imap [0, 1, -1]\nforloop_dim 2"];
