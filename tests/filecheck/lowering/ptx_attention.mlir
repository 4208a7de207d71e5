// RUN: mirage-opt %S/../../fixtures/attention.mlir -p lower-to-llvm -t ptx | FileCheck %s

// The plain program: five kernels, one per kernel op.
// CHECK-DAG: .entry program_k0(
// CHECK-DAG: .entry program_k4(
// The split-KV μGraph: two kernels; exp is computed on the first matmul's fragments.
// CHECK-LABEL: .entry ugraph_k0(
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG: ex2.approx.f32
// CHECK-LABEL: .entry ugraph_k1(
// CHECK: div.full.f32
