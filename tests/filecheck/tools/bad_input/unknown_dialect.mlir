// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// An op of an unknown dialect, in generic form.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "mystery.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK: unknown_dialect.mlir:6:20: error: Operation mystery.op is not registered
// LINES: {{^ *1$}}
