// REQUIRES: torch-mlir-opt
// RUN: mirage-opt %s -p convert-kernel-to-linalg --print-op-generic | torch-mlir-opt --canonicalize --cse | mirage-opt -p convert-linalg-to-kernel | FileCheck %s
// RUN: torch-mlir-opt --mlir-print-op-generic --canonicalize %S/../../linalg/fixtures/gated_mlp_small.mlir | mirage-opt -p convert-linalg-to-kernel | FileCheck %s --check-prefix=TORCH

// A real MLIR driver (torch-mlir-opt) reads what convert-kernel-to-linalg writes, and
// what it writes back (canonicalized, in generic form) imports to the same program.

// CHECK-LABEL: func.func @program
// CHECK-NEXT:    kernel.rms_norm %arg0 : tensor<4x64xf16> -> tensor<4x64xf16>
// CHECK-NEXT:    kernel.transpose %arg1 permutation [1, 0]
// CHECK-NEXT:    kernel.matmul {{.*}} : tensor<4x64xf16>, tensor<64x96xf16> -> tensor<4x96xf32>
// CHECK-NEXT:    kernel.exp
// CHECK-NEXT:    kernel.reduce_max {{.*}} dim 1
// CHECK-NEXT:    kernel.reshape {{.*}} : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return
func.func @program(%x: tensor<4x64xf16>, %w: tensor<96x64xf16>) -> tensor<4xf32> {
  %n = kernel.rms_norm %x : tensor<4x64xf16> -> tensor<4x64xf16>
  %wt = kernel.transpose %w permutation [1, 0] : tensor<96x64xf16> -> tensor<64x96xf16>
  %y = kernel.matmul %n, %wt : tensor<4x64xf16>, tensor<64x96xf16> -> tensor<4x96xf32>
  %e = kernel.exp %y : tensor<4x96xf32> -> tensor<4x96xf32>
  %m = kernel.reduce_max %e dim 1 : tensor<4x96xf32> -> tensor<4x1xf32>
  %r = kernel.reshape %m : tensor<4x1xf32> -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// TORCH-LABEL: func.func @gated_mlp
// TORCH-NEXT:    %[[A:.*]] = kernel.matmul %arg0, %arg1
// TORCH-NEXT:    %[[S:.*]] = kernel.silu %[[A]]
// TORCH-NEXT:    %[[B:.*]] = kernel.matmul %arg0, %arg2
// TORCH-NEXT:    kernel.mul %[[S]], %[[B]]
// TORCH-NEXT:    func.return
