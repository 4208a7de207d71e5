// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear.mlir -p "plan-ugraph{loads=cp-async}" | FileCheck %s

// The Figure 3 μGraph: both input iterators pipelined, the matmul on tensor cores with its
// accumulator in registers, the square and the final division fused, one barrier per
// iteration. (cp.async asked for: on sm_90a the default loads these 48-column tiles by
// tensor maps, lowering/ptx_tma.mlir.)
// CHECK-LABEL: func.func @ugraph
// CHECK: kernel.graph
// CHECK-SAME: mirage.smem_bytes = {{[0-9]+}} : i64, mirage.stages = [[STAGES:[0-9]+]] : i64, mirage.barriers = 1 : i64
// CHECK: block.input {{.*}}mirage.tile = #mirage.tile<16x64xf16, offset {{[0-9]+}}, pitch 72, stages [[STAGES]]>
// CHECK: block.input {{.*}}mirage.tile = #mirage.tile<64x48xf16, offset {{[0-9]+}}, pitch 56, stages [[STAGES]]>
// CHECK: block.matmul {{.*}}mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps 1x1x1x4 regs,
// CHECK: block.square {{.*}}mirage.fused
// CHECK: block.accum_sum {{.*}}mirage.tile = #mirage.tile<16x48xf32, offset {{[0-9]+}}, planes 4>
// CHECK: block.accum_mean_last {{.*}}mirage.tile = #mirage.tile<16x1xf32
// CHECK: thread.fuse{{.*}}mirage.fused
