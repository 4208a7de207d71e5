// RUN: not mirage-opt %s > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stderr
// RUN: wc -l < %t.stderr | FileCheck %s --check-prefix=LINES
// RUN: not test -s %t.stdout
// RUN: rm -f %t.out && not mirage-opt %s -o %t.out && not test -e %t.out
// A verifier error names the offending op's line and column, and no output file is
// written (not even the valid function before it).

func.func @ok(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

func.func @bad(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %z = kernel.reduce_sum %y dim 1 size 3 : tensor<4x8xf32> -> tensor<4x3xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: verifier_error.mlir:16:3: error: 'kernel.reduce_sum' op reduction size 3 does not divide dim 1 of extent 8
// LINES: {{^ *1$}}
