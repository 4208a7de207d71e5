// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// An unknown op of a known dialect: one line naming the op and its place.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = kernel.frobnicate %x : tensor<4xf32> -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK: unknown_op.mlir:6:26: error: Operation kernel.frobnicate is not registered
// LINES: {{^ *1$}}
