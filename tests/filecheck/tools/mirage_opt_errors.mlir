// RUN: not mirage-opt %s 2>&1 | FileCheck %s
// RUN: not mirage-opt %s -o %t.out 2>&1 && not test -e %t.out
// Malformed text: one line with file, line and column; no output file.

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.exp %x : tensor<4x8xf32 -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: mirage_opt_errors.mlir:6:39: error: Expected '>' after builtin parameter list
// CHECK-NOT: Traceback
