// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "ptx{arch=sm_90a loads=tma}" | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -p "plan-ugraph{arch=sm_90a loads=tma}" | FileCheck %s --check-prefix=PLAN
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "ptx{arch=sm_80 loads=tma}" | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t ptx | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %S/../../lowering/data/tma.mlir -t "ptx{arch=sm_90a loads=cp-async}" | FileCheck %s --check-prefix=CPASYNC

// CHECK-LABEL: .entry stream_k0(
// the tensor maps: 128-byte __grid_constant__ parameters after the pointers
// CHECK: .param .align 64 .b8 stream_k0_param_3[128],
// CHECK-NEXT: .param .align 64 .b8 stream_k0_param_4[128]
// the graph's 4 warps and the producer warp
// CHECK: .maxntid 160, 1, 1
// CHECK: mbarrier.init.shared::cta.b64
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// the role split: thread 128 (lane 0 of warp 4) produces ...
// CHECK-NEXT: setp.ne.b32 [[PRODUCER:%p[0-9]+]], [[TID:%r[0-9]+]], 128;
// CHECK-NEXT: @[[PRODUCER]] bra
// CHECK-DAG: cvta.param.u64
// one arrival announcing a stage's bytes: a 16x64 and a 64x64 f16 box
// CHECK-DAG: mov.b32 [[BYTES:%r[0-9]+]], 10240;
// CHECK-DAG: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%r[0-9]+}}], [[BYTES]];
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [{{%r[0-9]+}}];
// CHECK-DAG: mbarrier.try_wait.parity.shared::cta.b64
// ... and the 128 threads of warps 0-3 consume
// CHECK: setp.lt.u32 {{%p[0-9]+}}, [[TID]], 128;
// CHECK-NOT: cp.async.bulk.tensor
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: cp.async.bulk.tensor
// CHECK: mbarrier.arrive.shared::cta.b64 _,
// consumers' barriers leave the producer out
// CHECK: bar.sync 1, 128;
// CHECK-NOT: bar.sync 0;
// CHECK-LABEL: .entry stream_wide_k0(
// a 64x128 tile: two boxes of 64 columns each, 16x128 + 2x64x128 bytes a stage
// CHECK: mov.b32 {{%r[0-9]+}}, 18432;
// CHECK-LABEL: .entry running_max_k0(
// CHECK: bar.sync 0;
// a loop task writes shared memory: a consumer barrier in each iteration
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: bar.sync 1, 128;
// CHECK: mbarrier.arrive.shared::cta.b64 _,
// CHECK-LABEL: .entry narrow_deep_k0(
// a 512x48 tile (96-byte rows): whole 128-byte panel boxes of 256 rows, two a stage;
// x's 2x512 tile in 8 boxes: 8x2x128 + 512x128 bytes expected a stage
// CHECK: mov.b32 [[NB:%r[0-9]+]], 67584;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{%r[0-9]+}}], [[NB]];
// CHECK-COUNT-10: cp.async.bulk.tensor.2d.shared::cluster.global
// CHECK-LABEL: .entry slim_k0(
// 128x16 tiles (32-byte rows): no tensor maps, cp.async
// CHECK-NOT: cp.async.bulk
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: cp.async.bulk

// as many stages as shared memory allows, swizzled tiles at 1024-byte offsets
// PLAN: mirage.plan = #mirage.plan<sm_90a, stages 16, smem 165120, loads 2,
// PLAN: mirage.tile = #mirage.tile<16x64xf16, offset 131072, stages 16, swizzle 128>
// PLAN: mirage.tile = #mirage.tile<64x64xf16, offset 0, stages 16, swizzle 128>
// PLAN: mirage.tile = #mirage.tile<64x128xf16, offset 0, pitch 64, stages 12, swizzle 128>

// sm_80 has no tensor maps: cp.async, as without the option
// SM80-NOT: cp.async.bulk
// SM80: cp.async.cg.shared.global
// SM80-NOT: cp.async.bulk

// sm_90a loads by tensor maps where nobody asks: the producer warp beside the 128 threads
// DEFAULT: .maxntid 160, 1, 1
// DEFAULT: cp.async.bulk.tensor.2d

// asked for, cp.async on sm_90a
// CPASYNC-NOT: cp.async.bulk
// CPASYNC: .maxntid 128, 1, 1
// CPASYNC-NOT: cp.async.bulk
