// The attention μGraphs found at head dim 128 and long key sequences
// (benchmarks/found_attention, timed by benchmarks/attention_gpu.py) run their loops as the
// online chain on wgmma, two warpgroups a block (128 query rows): S, its row maxima and
// exp(S - m) never leave registers; a ring of stages, one barrier an iteration.
// RUN: mirage-opt %S/../../../benchmarks/found_attention/gqa_16x256x128_8192.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../../benchmarks/found_attention/gqa_64x256x128_8192.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../../benchmarks/found_attention/gqa_16x256x128_32768.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../../benchmarks/found_attention/gqa_64x256x128_32768.mlir -p plan-ugraph | FileCheck %s

// CHECK-LABEL: func.func @ugraph
// CHECK: kernel.graph
// CHECK-SAME: mirage.barriers = 1 : i64
// CHECK: block.matmul {{.*}}#mirage.mma<wgmma.m64nNk16 warpgroups 1x2x1x1 chain, {{.*}}rowmax
// CHECK: block.matmul {{.*}}#mirage.mma<wgmma.m64nNk16 warpgroups 1x2x1x1 regs,
