// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear.mlir -p "lower-to-llvm{loads=cp-async}" -t ptx | FileCheck %s
// RUN: mirage-opt %S/../../fixtures/rmsnorm_linear.mlir -t "ptx{arch=sm_80}" | FileCheck %s --check-prefix=SM80

// CHECK: .target sm_90a
// CHECK-LABEL: .entry ugraph_k0(
// CHECK: .maxntid 128, 1, 1
// 16-byte asynchronous copies of the input tiles, several iterations ahead
// CHECK-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// CHECK-DAG: cp.async.commit_group;
// CHECK-DAG: cp.async.wait_group {{[1-9]}};
// CHECK-DAG: bar.sync 0;
// tensor cores: ldmatrix fragments into mma.sync
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// the mean of squares: a shuffle reduction
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK: ret;

// SM80: .target sm_80
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
