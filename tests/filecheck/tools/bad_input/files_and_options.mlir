// RUN: not mirage-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: printf '\377\376' > %t.bin.mlir && not mirage-opt %t.bin.mlir 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not mirage-opt %s -p no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not mirage-opt %s -t no-such-target 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mirage-opt %s --no-such-option 2>&1 | FileCheck %s --check-prefix=OPTION
// A missing input file, an input that is not text, an unknown pass, target or option: one
// line each, and no usage text.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
// MISSING: does-not-exist.mlir: error: no such file
// MISSING-NOT: Traceback
// BINARY: bin.mlir: error: input is not UTF-8 text
// BINARY-NOT: Traceback
// PASS: mirage-opt: error: Unrecognized passes: ['no-such-pass']
// PASS-NOT: Traceback
// TARGET-NOT: usage
// TARGET: mirage-opt: error: argument -t/--target: invalid choice: 'no-such-target'
// OPTION-NOT: usage
// OPTION: mirage-opt: error: unrecognized arguments: --no-such-option
