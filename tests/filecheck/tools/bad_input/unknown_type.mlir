// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// A malformed type.

func.func @f(%x: tensor<4x8xfloat>) -> tensor<4x8xf32> {
  func.return %x : tensor<4x8xf32>
}
// CHECK: unknown_type.mlir:7:29: error: Expected shape type.
// LINES: {{^ *1$}}
