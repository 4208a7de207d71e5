// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -p 'plan-ugraph{matmuls=mma-sync}' | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -t 'ptx{matmuls=mma-sync}' | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -p 'plan-ugraph{matmuls=wgmma}' | FileCheck %s --check-prefix=WG
// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -p plan-ugraph | FileCheck %s --check-prefix=AUTO
// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -t 'ptx{matmuls=wgmma}' | FileCheck %s --check-prefix=WGPTX

// Online softmax as FlashAttention runs it (here on mma.sync): S, its row maxima, exp(S - m), e V and the
// row sums stay in registers; one chain task, one barrier per iteration; the running
// maxima are registers too (no rescale tiles), written out only where accum_max asks.
// CHECK-LABEL: func.func @online_rows64
// CHECK: kernel.graph
// CHECK-SAME: rescale []
// CHECK-SAME: loop [#mirage.task<chain 3 [3, 4, 5] -> [] phase 0>]
// CHECK-SAME: mirage.barriers = 1 : i64
// CHECK: block.matmul {{.*}}#mirage.mma<mma.sync.m16n8k16 warps 1x4x1x1 chain, {{.*}}rowsum 13, rowmax 7>
// CHECK: block.reduce_max {{.*}}mirage.fused
// CHECK: block.matmul {{.*}}#mirage.mma<mma.sync.m16n8k16 warps 1x4x1x1 regs, {{.*}}prev 3>
// CHECK: block.reduce_sum {{.*}}mirage.fused
// CHECK-LABEL: func.func @online_split
// CHECK: kernel.graph
// CHECK-SAME: #mirage.task<rowmax 3 [] -> [14] phase 0>

// The row maximum: a thread's elements, then two butterfly shuffles over the quad that
// holds the row; the exponentials of the step; its e V; no shared-memory store before
// the loop ends (the materialized accumulators come after the loop's back edge).
// PTX-LABEL: .entry online_rows64_k0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: max.f32
// PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31,
// PTX-NEXT: max.f32
// PTX-NEXT: shfl.sync.bfly.b32 {{.*}}, 2, 31,
// PTX-NEXT: max.f32
// PTX: ex2.approx.ftz.f32
// PTX: cvt.rn.f16x2.f32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: st.shared
// PTX: bra.uni
// PTX: st.shared

// On wgmma the same loop: one warpgroup holds the 64 rows (each warp 16 of them, as
// mma.sync's accumulators), S from one m64n64 instruction a k16 step, e as the A operand
// of e V from registers, both waited for inside the loop; 48 rows pad wgmma's m64 tile.
// WG-LABEL: func.func @online_rows64
// WG: loop [#mirage.task<chain 3 [3, 4, 5] -> [] phase 0>]
// WG: block.matmul {{.*}}#mirage.mma<wgmma.m64nNk16 warpgroups 1x1x1x1 chain, {{.*}}rowsum 13, rowmax 7>
// WG: block.matmul {{.*}}#mirage.mma<wgmma.m64nNk16 warpgroups 1x1x1x1 regs, {{.*}}prev 3>
// WG-LABEL: func.func @online_rows48
// WG: loop [#mirage.task<chain 3 [3, 4, 5] -> [] phase 0>]
// WG-LABEL: func.func @online_rows128
// WG: #mirage.mma<wgmma.m64nNk16 warpgroups 1x1x1x1 chain,

// WGPTX-LABEL: .entry online_rows64_k0(
// WGPTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// WGPTX: wgmma.wait_group.sync.aligned 0;
// WGPTX: shfl.sync.bfly.b32 {{.*}}, 1, 31,
// WGPTX-NEXT: max.f32
// WGPTX-NEXT: shfl.sync.bfly.b32 {{.*}}, 2, 31,
// WGPTX: ex2.approx.ftz.f32
// WGPTX: cvt.rn.f16x2.f32
// WGPTX: wgmma.fence.sync.aligned;
// WGPTX: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// WGPTX: wgmma.wait_group.sync.aligned 0;
// WGPTX-NOT: st.shared
// WGPTX: bar.sync
// WGPTX: bra.uni
// WGPTX-NOT: mma.sync
// WGPTX: st.shared

// matmuls=auto on sm_90a: wgmma where the rows fill m64 tiles, mma.sync where they do not.
// AUTO-LABEL: func.func @online_rows64
// AUTO: #mirage.mma<wgmma.m64nNk16 warpgroups 1x1x1x1 chain, {{.*}}rowmax 7>
// AUTO-LABEL: func.func @online_batched
// AUTO: #mirage.mma<mma.sync.m16n8k16 warps 2x1x1x1 chain,

