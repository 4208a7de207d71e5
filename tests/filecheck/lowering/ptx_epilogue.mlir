// RUN: mirage-opt %S/../../lowering/data/epilogue.mlir -p lower-to-llvm -t 'ptx{arch=sm_90a}' | FileCheck %s
// RUN: mirage-opt %S/../../lowering/data/epilogue.mlir -p lower-to-llvm -t 'ptx{arch=sm_80}' | FileCheck %s

// An epilogue operand (the bias of x @ w + b, a block.input after the loop): the loop
// accumulates the product in registers; after its last iteration and a barrier, the bias
// tile is copied once (one 16-byte copy per thread that has a chunk), waited for, and
// added where the output saver reads the accumulator.
// CHECK-LABEL: .entry linear_bias_k0(
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: mma.sync
// CHECK: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NOT: mma.sync
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: cp.async
// CHECK: cvt.f32.f16
// CHECK: add.rn.f32
// CHECK: st.global.v4.b32
