// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// The input ends inside a function body.
// CHECK: end_of_input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unexpected end of input
// LINES: {{^ *1$}}

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = kernel.exp %x : tensor<4xf32> -> tensor<4xf32>
