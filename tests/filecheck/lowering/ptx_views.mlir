// RUN: mirage-opt %S/../../lowering/data/views.mlir -p lower-to-llvm -t 'ptx{arch=sm_90a}' | FileCheck %s

// nn.Linear's weight read transposed in place: x's rows arrive 16 bytes at a time, the
// weight's columns (stride 64 in its storage) one element at a time, and the next loop
// iteration's weight tile starts 16 elements (64 bytes) further along its contiguous dim.
// CHECK-LABEL: .entry transposed_weight_k0(
// CHECK: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd[[W:[0-9]+]]], 4;
// CHECK: cp.async.ca.shared.global [%r{{[0-9]+}}+1024], [%rd[[W]]+64], 4;
// CHECK: st.global.v4.b32
// Heads split by view/transpose: Q's and V's head rows are contiguous (16-byte copies), K
// is read transposed (4-byte copies); the output saver merges the heads back in place.
// CHECK-LABEL: .entry head_split_attention_k0(
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 4;
// CHECK: st.global.v4.b32
