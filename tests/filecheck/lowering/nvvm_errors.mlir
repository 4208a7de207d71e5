// RUN: mirage-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK: cp.async.cg copies 16 bytes only
// CHECK: ldmatrix reads shared memory
// CHECK: m16n8k16 takes 4 A


llvm.func @bad_copy(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>) {
  // expected-error @+1 {{cp.async.cg copies 16 bytes only}}
  nvvm.cp.async.shared.global %s, %g, 8, "cg" : !llvm.ptr<3>, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @bad_ldmatrix(%g: !llvm.ptr<1>) {
  // expected-error @+1 {{ldmatrix reads shared memory: the pointer must be !llvm.ptr<3>}}
  %m = nvvm.ldmatrix %g x 2 : !llvm.ptr<1> -> !llvm.struct<(i32, i32)>
  llvm.return
}

// -----

llvm.func @bad_mma(%a: i32, %f: f32) {
  // expected-error @+1 {{m16n8k16 takes 4 A, 2 B and 4 C registers, got 2, 2 and 4}}
  %d = nvvm.mma.sync.m16n8k16 "f16"(%a, %a), (%a, %a), (%f, %f, %f, %f) : !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}
