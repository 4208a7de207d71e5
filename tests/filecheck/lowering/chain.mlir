// RUN: mirage-opt %S/../../lowering/data/chain.mlir -p plan-ugraph | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/chain.mlir -t ptx | FileCheck %s --check-prefix=PTX

// exp(Q K) never reaches shared memory: it is the A operand of the second matmul, in
// registers, and its row sums are kept in registers too; one barrier per iteration.
// CHECK: kernel.graph
// CHECK-SAME: mirage.barriers = 1 : i64
// CHECK: block.matmul {{.*}}mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps 1x4x1x1 chain,
// CHECK: block.exp {{.*}}mirage.fused
// CHECK: block.matmul {{.*}}mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps 1x4x1x1 regs,

// PTX-LABEL: .entry chain_k0(
// PTX: cvt.rn.f16x2.f32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: st.shared.b16
// PTX-LABEL: .entry chain_k1(
