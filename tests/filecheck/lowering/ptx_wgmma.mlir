// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "ptx{arch=sm_90a loads=tma matmuls=wgmma}" | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -p "plan-ugraph{arch=sm_90a loads=tma matmuls=wgmma}" | FileCheck %s --check-prefix=PLAN
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -p "plan-ugraph{arch=sm_90 matmuls=wgmma}" | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -p "lower-to-llvm{arch=sm_90 matmuls=wgmma}" | FileCheck %s --check-prefix=LAUNCH
// RUN: mirage-opt %S/../../lowering/data/wgmma.mlir -t "ptx{arch=sm_90a}" | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %S/../../lowering/data/chain.mlir -t "ptx{arch=sm_90a matmuls=wgmma}" | FileCheck %s --check-prefix=CHAIN
// RUN: not mirage-opt %S/../../lowering/data/wgmma.mlir -t "ptx{matmuls=tensor-cores}" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mirage-opt %S/../../lowering/data/wgmma.mlir -p "lower-to-llvm{matmuls=mma_sync}" 2>&1 | FileCheck %s --check-prefix=BAD2

// A and B through descriptors (two 32-bit words each, made 64-bit in the instruction), B
// N-major (imm-trans-b 1): fence, the k16 steps of one tile as one group, then the wait
// before the stage is released to the producer warp
// CHECK-LABEL: .entry plain_k0(
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: mov.b64 da, {[[ALO:%r[0-9]+]], [[HI:%r[0-9]+]]}; mov.b64 db, {{{%r[0-9]+}}, [[HI]]};
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{(%r[0-9]+, ){63}%r[0-9]+}}}, da, db, p, 1, 1, 0, 1;
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: mbarrier.arrive.shared::cta.b64 _,

// two warpgroups: 256 consumers and the producer warp
// CHECK-LABEL: .entry two_groups_k0(
// CHECK: .maxntid 288, 1, 1
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

// 24 rows: A from registers (ldmatrix, this warp's 16 rows, then a fence before the wgmma
// reads them), B of 96 columns filled by cp.async; a barrier after threads write shared
// memory fences the async proxy first
// CHECK-LABEL: .entry skinny_k0(
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16 {{{(%r[0-9]+, ){47}%r[0-9]+}}}, {{{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+}}}, db, p, 1, 1, 1;
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NEXT: // end inline asm
// CHECK-NEXT: bar.sync 0;

// bf16, the accumulator of each task fed through the fused epilogue
// CHECK-LABEL: .entry epilogue_k0(
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: ex2.approx

// CHECK-LABEL: .entry batched_max_k0(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

// S = Q K on wgmma, exp(S) packed to f16 pairs in registers, then O += exp(S) V with
// those registers as A (a fence before each, as they were just written)
// CHAIN-LABEL: .entry chain_k0(
// CHAIN: wgmma.fence.sync.aligned;
// CHAIN-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, da, db, p, 1, 1, 0, 1;
// CHAIN: wgmma.wait_group.sync.aligned 0;
// CHAIN: ex2.approx
// CHAIN: cvt.rn.f16x2.f32
// CHAIN: wgmma.fence.sync.aligned;
// CHAIN-NEXT: // end inline asm
// CHAIN: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {{{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+}}}, db, p, 1, 1, 1;
// CHAIN-COUNT-3: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, {{{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+}}}, db
// CHAIN: wgmma.wait_group.sync.aligned 0;
// the row sums: a quad's lanes combine theirs
// CHAIN: shfl.sync.bfly.b32

// PLAN-LABEL: func.func @plain
// PLAN: mirage.tile = #mirage.tile<64x64xf16, offset {{[0-9]+}}, stages 3, swizzle 128>
// PLAN: mirage.tile = #mirage.tile<64x128xf16, offset 0, pitch 64, stages 3, swizzle 128>
// PLAN: mirage.mma = #mirage.mma<wgmma.m64nNk16 warpgroups 1x1x1x1 regs, a 2, b 3, target 5>
// PLAN-LABEL: func.func @two_groups
// PLAN: mirage.mma = #mirage.mma<wgmma.m64nNk16 warpgroups 1x2x1x1 regs
// PLAN-LABEL: func.func @skinny
// PLAN: mirage.tile = #mirage.tile<24x128xf16, offset {{[0-9]+}}, pitch 136, stages {{[0-9]+}}>
// PLAN: mirage.tile = #mirage.tile<128x96xf16, offset 0, pitch 64, stages {{[0-9]+}}, swizzle 128>
// PLAN-LABEL: func.func @batched_max
// PLAN: mirage.mma = #mirage.mma<wgmma.m64nNk16 warpgroups 2x1x1x1 accumulate, combine max
// PLAN-NOT: mirage.remarks

// sm_90 (not sm_90a) has no wgmma: mma.sync, and the graph says why
// SM90: mirage.remarks = ["matmul op 2: wgmma: sm_90 has no wgmma (sm_90a only): runs mma-sync"]
// SM90: mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps

// the lowered launch keeps the remark
// LAUNCH: kernel = @mirage_kernels::@plain_k0
// LAUNCH-SAME: mirage.remarks = ["matmul op 2: wgmma: sm_90 has no wgmma (sm_90a only): runs mma-sync"]

// unasked, matmuls run on mma.sync as before
// DEFAULT-NOT: wgmma
// DEFAULT: mma.sync.aligned.m16n8k16
// DEFAULT-NOT: wgmma

// BAD: error: matmuls must be one of auto, mma-sync, wgmma, fma, got 'tensor-cores'
// BAD-NOT: Traceback
// BAD2: error: matmuls must be one of auto, mma-sync, wgmma, fma, got 'mma_sync'
// BAD2-NOT: Traceback
