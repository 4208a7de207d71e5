// RUN: mirage-opt %S/../../lowering/data/immediates.mlir -p lower-to-llvm -t 'ptx{arch=sm_80}' | FileCheck %s

// A fused chain with immediate forms: each constant is an f32 immediate of its instruction
// (no constant tensor is read). x + 1 adds 0f3F800000 (1.0), x - 0.5 adds 0fBF000000
// (-0.5, as the code generator writes a subtraction of a constant), x / 3 divides (div.full)
// by 0f40400000, moved into a register.
// CHECK-LABEL: .entry immediates_k0(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 immediates_k0_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 immediates_k0_param_1
// CHECK-NEXT: )
// CHECK: add.rn.f32 %r[[X:[0-9]+]], %r{{[0-9]+}}, 0f3F800000;
// CHECK-NEXT: add.rn.f32 %r[[Y:[0-9]+]], %r[[X]], 0fBF000000;
// CHECK-NEXT: mov.b32 %r[[THREE:[0-9]+]], 0f40400000;
// CHECK-NEXT: div.full.f32 %r{{[0-9]+}}, %r[[Y]], %r[[THREE]];
// CHECK: st.global
// Kernel-level immediate forms: one launch each, the constant an immediate. The first
// kernel adds in f16 what it reads and stores in f16 (its loop runs once: no f32 tile in
// between), so LLVM narrows its add: the constant is a 16-bit immediate, 0x4000 (2.0).
// CHECK-LABEL: .entry kernel_immediates_k0(
// CHECK: mov.b16 %rs[[TWO:[0-9]+]], 0x4000;
// CHECK: add.rn.f16 %rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs[[TWO]];
// CHECK: st.global
