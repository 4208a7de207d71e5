// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// An unknown op of a known dialect: one line naming the op and its place.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = kernel.frobnicate %x : tensor<4xf32> -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK: unknown_op.mlir:8:26: error: Operation kernel.frobnicate is not registered
// LINES: {{^ *1$}}
