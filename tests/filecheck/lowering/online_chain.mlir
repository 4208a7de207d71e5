// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/online_chain.mlir -t ptx | FileCheck %s --check-prefix=PTX

// Online softmax as FlashAttention runs it: S, its row maxima, exp(S - m), e V and the
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
// PTX: ex2.approx.f32
// PTX: cvt.rn.f16x2.f32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: st.shared
// PTX: bra.uni
// PTX: st.shared
