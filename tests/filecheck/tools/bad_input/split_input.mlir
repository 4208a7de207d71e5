// RUN: not mirage-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: rm -f %t.out && not mirage-opt %s --split-input-file -o %t.out && not test -e %t.out
// With --split-input-file, an error in a later chunk names its line in the whole file.

func.func @ok(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  func.return %x : tensor<4x8xf32>
}

// -----

func.func @bad(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.rms_norm %x : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %x : tensor<4x8xf32>
}
// CHECK: split_input.mlir:12:3: error: 'kernel.rms_norm' op result shape 4x1 does not match the expected 4x8
// CHECK-NOT: func.func
