// RUN: mirage-opt %S/../../lowering/data/immediates.mlir -p lower-to-llvm -t 'ptx{arch=sm_80}' | FileCheck %s

// A fused chain with immediate forms: each constant is an f32 immediate of its instruction
// (no constant tensor is read). x + 1 adds 0f3F800000 (1.0), x - 0.5 adds 0fBF000000
// (-0.5, as the code generator writes a subtraction of a constant), x / 3 divides by
// 0f40400000.
// CHECK-LABEL: .entry immediates_k0(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 immediates_k0_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 immediates_k0_param_1
// CHECK-NEXT: )
// CHECK: add.rn.f32 %r[[X:[0-9]+]], %r{{[0-9]+}}, 0f3F800000;
// CHECK-NEXT: add.rn.f32 %r[[Y:[0-9]+]], %r[[X]], 0fBF000000;
// CHECK-NEXT: div.rn.f32 %r{{[0-9]+}}, %r[[Y]], 0f40400000;
// CHECK: st.global
// Kernel-level immediate forms: one launch each, the constant an immediate.
// CHECK-LABEL: .entry kernel_immediates_k0(
// CHECK: add.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0f40000000;
// CHECK: st.global
