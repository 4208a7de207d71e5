// RUN: not mirage-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '\377\376' > %t.bin.mlir && not mirage-opt %t.bin.mlir 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not mirage-opt %s -p no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// A missing input file, an input that is not text, an unknown pass: one line each.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
// MISSING: does-not-exist.mlir: error: no such file
// MISSING-NOT: Traceback
// BINARY: bin.mlir: error: input is not UTF-8 text
// BINARY-NOT: Traceback
// PASS: mirage-opt: error: Unrecognized passes: ['no-such-pass']
// PASS-NOT: Traceback
