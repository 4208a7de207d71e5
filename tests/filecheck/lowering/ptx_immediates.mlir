// RUN: mirage-opt %s -p lower-to-llvm -t 'ptx{arch=sm_80}' | FileCheck %s

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
func.func @immediates(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%X: tensor<8x32xf32>):
    %a = block.for_loop : tensor<4x32xf32> {
      %t = block.input %X imap [0, -1, -1] : tensor<8x32xf32> -> tensor<4x32xf32>
      %f = thread.fuse(%t) : (tensor<4x32xf32>) -> tensor<4x32xf32> {
      ^bb1(%e: f32):
        %p = thread.add_scalar %e, 1.0 : f32
        %q = thread.sub_scalar %p, 0.5 : f32
        %r = thread.div_scalar %q, 3.0 : f32
        thread.yield %r : f32
      }
      %s = block.accum_sum %f : tensor<4x32xf32> -> tensor<4x32xf32>
      block.yield %s : tensor<4x32xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<4x32xf32> -> tensor<8x32xf32>
    block.return %o : tensor<8x32xf32>
  }
  func.return %y : tensor<8x32xf32>
}
