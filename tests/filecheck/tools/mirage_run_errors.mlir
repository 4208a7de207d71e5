// RUN: not mirage-run %s --function f 2>&1 | FileCheck %s
// A verifier error in the input names the file, line and column of the offending op.

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  %y = kernel.exp %x : tensor<4x8xf32> -> tensor<4x9xf32>
  func.return %y : tensor<4x9xf32>
}
// CHECK: mirage_run_errors.mlir:5:3: error: 'kernel.exp' op result shape 4x9 does not match the expected 4x8
// CHECK-NOT: Traceback
