// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// An operand used with a type other than its definition's.

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.exp %x : tensor<4x8xf16> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: wrong_types.mlir:6:19: error: operand is used with type tensor<4x8xf16>, but has been previously used or defined with type tensor<4x8xf32>
// LINES: {{^ *1$}}
