// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: llvm.func @ops
llvm.func @ops(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %f: f32) {
  // CHECK: nvvm.read.ptx.sreg.tid.x : i32
  %t = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: nvvm.read.ptx.sreg.ctaid.y : i32
  %b = nvvm.read.ptx.sreg.ctaid.y : i32
  // CHECK: nvvm.barrier0
  nvvm.barrier0
  // CHECK: nvvm.shfl.sync "bfly" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32
  %x = nvvm.shfl.sync "bfly" %t, %f, %t, %t : f32
  // CHECK: nvvm.ldmatrix %{{.*}} x 4 trans : !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32)>
  %m = nvvm.ldmatrix %s x 4 trans : !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: nvvm.mma.sync.m16n8k16 "bf16"(%{{.*}}), (%{{.*}}), (%{{.*}}) : !llvm.struct<(f32, f32, f32, f32)>
  %d = nvvm.mma.sync.m16n8k16 "bf16"(%t, %t, %t, %t), (%b, %b), (%f, %f, %f, %f) : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, "cg" : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.shared.global %s, %g, 16, "cg" : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: nvvm.cp.async.commit.group
  nvvm.cp.async.commit.group
  // CHECK: nvvm.cp.async.wait.group 2
  nvvm.cp.async.wait.group 2
  // CHECK: nvvm.cvt.rn.bf16.f32 %{{.*}} : i16
  %h = nvvm.cvt.rn.bf16.f32 %f : i16
  // CHECK: nvvm.ex2.approx.f32 %{{.*}} : f32
  %e = nvvm.ex2.approx.f32 %f : f32
  // CHECK: nvvm.ex2.approx.ftz.f32 %{{.*}} : f32
  %z = nvvm.ex2.approx.ftz.f32 %f : f32
  // CHECK: nvvm.bar.arrive 3, 256
  nvvm.bar.arrive 3, 256
  llvm.return
}

