// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// A malformed type.

func.func @f(%x: tensor<4x8xfloat>) -> tensor<4x8xf32> {
  func.return %x : tensor<4x8xf32>
}
// CHECK: unknown_type.mlir:5:29: error: Expected shape type.
// LINES: {{^ *1$}}
