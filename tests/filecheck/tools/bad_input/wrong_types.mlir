// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// An operand used with a type other than its definition's.

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.exp %x : tensor<4x8xf16> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: wrong_types.mlir:8:19: error: operand is used with type tensor<4x8xf16>, but has been previously used or defined with type tensor<4x8xf32>
// LINES: {{^ *1$}}
