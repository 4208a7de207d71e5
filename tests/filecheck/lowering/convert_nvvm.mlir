// RUN: mirage-opt %s -p convert-nvvm-to-llvm | FileCheck %s

// CHECK-LABEL: llvm.func @ops
llvm.func @ops(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %f: f32, %i: i32) {
  // CHECK: llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
  %t = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.barrier0"()
  nvvm.barrier0
  // CHECK: llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"
  %x = nvvm.shfl.sync "bfly" %i, %f, %i, %i : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3"
  %m = nvvm.ldmatrix %s x 4 trans : !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16.p3"
  %m2 = nvvm.ldmatrix %s x 2 : !llvm.ptr<3> -> !llvm.struct<(i32, i32)>
  // f16 operands travel as <2 x half>
  // CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
  %d = nvvm.mma.sync.m16n8k16 "f16"(%i, %i, %i, %i), (%i, %i), (%f, %f, %f, %f) : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.bf16"
  %e = nvvm.mma.sync.m16n8k16 "bf16"(%i, %i, %i, %i), (%i, %i), (%f, %f, %f, %f) : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.cp.async.cg.shared.global.16"
  nvvm.cp.async.shared.global %s, %g, 16, "cg" : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.cp.async.ca.shared.global.4"
  nvvm.cp.async.shared.global %s, %g, 4, "ca" : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: llvm.call_intrinsic "llvm.nvvm.cp.async.commit.group"
  nvvm.cp.async.commit.group
  // CHECK: llvm.call_intrinsic "llvm.nvvm.cp.async.wait.group"
  nvvm.cp.async.wait.group 1
  // CHECK: llvm.inline_asm "cvt.rn.bf16.f32 $0, $1;", "=h,f"
  %h = nvvm.cvt.rn.bf16.f32 %f : i16
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f"
  %y = nvvm.ex2.approx.f32 %f : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
  %z = nvvm.ex2.approx.ftz.f32 %f : f32
  // CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
  nvvm.bar.sync 2, 256
  // CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.arrive.aligned.count"
  nvvm.bar.arrive 3, 256
  // CHECK-NOT: nvvm.
  llvm.return
}
