// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// An op of an unknown dialect, in generic form.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "mystery.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK: unknown_dialect.mlir:8:20: error: Operation mystery.op is not registered
// LINES: {{^ *1$}}
