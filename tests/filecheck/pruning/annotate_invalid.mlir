// RUN: not mirage-opt %s -p annotate-abstract-expr > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// A function that is not a μGraph: one line naming the function and the op.

// CHECK: annotate_invalid.mlir: error: annotate-abstract-expr: @not_a_ugraph: 'arith.addf' is not an op of the μGraph dialects
// LINES: 1
func.func @not_a_ugraph(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  func.return %b : f32
}
