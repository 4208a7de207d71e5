// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: one case per verifier message of kernel.slice.

func.func @slice_past_the_end(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = kernel.slice %x offsets [0, 5] : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.slice' op slice [5, 9) of dim 1 is outside its extent 8 (offsets must be >= 0, sizes >= 1)

// -----

func.func @slice_negative_offset(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = kernel.slice %x offsets [-1, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.slice' op slice [-1, 3) of dim 0 is outside its extent 4 (offsets must be >= 0, sizes >= 1)

// -----

func.func @slice_offsets_count(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = kernel.slice %x offsets [0] : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.slice' op slice of 4x8 needs 2 offsets and sizes, got 1 offsets and 2 sizes

// -----

func.func @slice_rank(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %y = kernel.slice %x offsets [0, 0] : tensor<4x8xf32> -> tensor<32xf32>
  func.return %y : tensor<32xf32>
}
// CHECK: 'kernel.slice' op result rank 1 differs from the operand rank 2

// -----

func.func @slice_element_type(%x: tensor<4x8xf32>) -> tensor<4x4xf16> {
  %y = kernel.slice %x offsets [0, 0] : tensor<4x8xf32> -> tensor<4x4xf16>
  func.return %y : tensor<4x4xf16>
}
// CHECK: 'kernel.slice' op result element type f16 differs from the operand's f32 (a slice only selects elements)
