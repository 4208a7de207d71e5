// RUN: mirage-opt %S/../../lowering/data/split_pairs.mlir -t ptx | FileCheck %s

// A split-KV combine whose key slices' tiles all fit in flight copies every slice before
// its loop and waits for them once: no wait and no barrier a step, since its rescales keep
// their state in registers. The next barrier is the one before the tasks after the loop.
// CHECK-LABEL: .entry split8_k1(
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: ex2.approx.ftz.f32
// CHECK-NOT: bar.sync
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;

// One whose accumulator stays in shared memory still waits once, and has a barrier a
// step after the step's writes (the next step reads them).
// CHECK-LABEL: .entry split4_tall_k1(
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-NOT: cp.async.wait_group
// CHECK: bar.sync 0;
// CHECK: bra.uni
// CHECK: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
