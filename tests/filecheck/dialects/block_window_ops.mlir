// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// block.input windows: the gate and up halves of a fused weight read in place, the up
// half from element 48 of each row on.

// CHECK-LABEL: func.func @swiglu
func.func @swiglu(%x: tensor<16x64xf32>, %w: tensor<64x96xf32>) -> tensor<16x48xf32> {
  %y = kernel.graph(%x, %w, %w) grid [16, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x64xf32>, tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<16x48xf32> {
  ^bb0(%X: tensor<16x64xf32>, %G: tensor<64x96xf32>, %U: tensor<64x96xf32>):
    %a = block.for_loop : tensor<1x48xf32> {
      %t = block.input %X imap [0, -1, -1] : tensor<16x64xf32> -> tensor<1x64xf32>
      // CHECK: block.input %{{.*}} imap [-1, -1, -1] view [64, 48] strides [96, 1] : tensor<64x96xf32> -> tensor<64x48xf32>
      %g = block.input %G imap [-1, -1, -1] view [64, 48] strides [96, 1] : tensor<64x96xf32> -> tensor<64x48xf32>
      // CHECK: block.input %{{.*}} imap [-1, -1, -1] view [64, 48] strides [96, 1] offset 48 : tensor<64x96xf32> -> tensor<64x48xf32>
      %u = block.input %U imap [-1, -1, -1] view [64, 48] strides [96, 1] offset 48 : tensor<64x96xf32> -> tensor<64x48xf32>
      %xg = block.matmul %t, %g : tensor<1x64xf32>, tensor<64x48xf32> -> tensor<1x48xf32>
      %xu = block.matmul %t, %u : tensor<1x64xf32>, tensor<64x48xf32> -> tensor<1x48xf32>
      %s = block.silu %xg : tensor<1x48xf32> -> tensor<1x48xf32>
      %h = block.mul %s, %xu : tensor<1x48xf32>, tensor<1x48xf32> -> tensor<1x48xf32>
      %acc = block.accum_sum %h : tensor<1x48xf32> -> tensor<1x48xf32>
      block.yield %acc : tensor<1x48xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<1x48xf32> -> tensor<16x48xf32>
    block.return %o : tensor<16x48xf32>
  }
  func.return %y : tensor<16x48xf32>
}

// GENERIC: "block.input"(%{{.*}}) <{imap = array<i64: -1, -1, -1>, view = array<i64: 64, 48>, strides = array<i64: 96, 1>, offset = 48 : i64, forloop_dim = -1 : i64}>
