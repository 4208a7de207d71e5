// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: one case per verifier message of kernel.constant,
// kernel.transpose and kernel.reshape.

func.func @constant_f64() -> tensor<1x1xf64> {
  %c = kernel.constant 1.0 : tensor<1x1xf64>
  func.return %c : tensor<1x1xf64>
}
// CHECK: 'kernel.constant' op element type f64 is not supported (use f16, bf16 or f32)

// -----

func.func @constant_dynamic() -> tensor<?x4xf32> {
  %c = kernel.constant 1.0 : tensor<?x4xf32>
  func.return %c : tensor<?x4xf32>
}
// CHECK: 'kernel.constant' op result must have a static shape of positive extents, got tensor<?x4xf32>

// -----

func.func @transpose_not_a_permutation(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = kernel.transpose %x permutation [1, 1] : tensor<4x8xf32> -> tensor<8x4xf32>
  func.return %y : tensor<8x4xf32>
}
// CHECK: 'kernel.transpose' op permutation [1, 1] is not a permutation of the 2 dims

// -----

func.func @transpose_rank(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = kernel.transpose %x permutation [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  func.return %y : tensor<8x4xf32>
}
// CHECK: 'kernel.transpose' op permutation [1, 0, 2] is not a permutation of the 2 dims

// -----

func.func @transpose_result(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.transpose %x permutation [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.transpose' op result shape 4x8 does not match the expected 8x4

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = kernel.reshape %x : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.reshape' op reshape from 4x8 (32 elements) to 4x4 (16 elements) changes the number of elements

// -----

func.func @reshape_element(%x: tensor<4x8xi32>) -> tensor<32xi32> {
  %y = kernel.reshape %x : tensor<4x8xi32> -> tensor<32xi32>
  func.return %y : tensor<32xi32>
}
// CHECK: 'kernel.reshape' op element type i32 is not supported (use f16, bf16 or f32)
