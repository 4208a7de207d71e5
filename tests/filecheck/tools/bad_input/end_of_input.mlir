// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s 2>&1 | wc -l | FileCheck %s --check-prefix=LINES
// The input ends inside a function body.
// CHECK: end_of_input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unexpected end of input
// LINES: {{^ *1$}}

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = kernel.exp %x : tensor<4xf32> -> tensor<4xf32>
