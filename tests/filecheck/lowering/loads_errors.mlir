// A load strategy no one knows is one error line, whichever stage is asked for it.
// RUN: not mirage-opt %s -t 'ptx{loads=tensor-maps}' 2>&1 | FileCheck %s
// RUN: not mirage-opt %s -p 'plan-ugraph{loads=tmaa}' 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: not mirage-opt %s -p 'lower-to-llvm{loads=cp_async}' 2>&1 | FileCheck %s --check-prefix=LOWER

// CHECK: error: loads must be one of cp-async, bulk-rows, tma, got 'tensor-maps'
// CHECK-NOT: Traceback
// PLAN: error: loads must be one of cp-async, bulk-rows, tma, got 'tmaa'
// PLAN-NOT: Traceback
// LOWER: error: loads must be one of cp-async, bulk-rows, tma, got 'cp_async'
// LOWER-NOT: Traceback

func.func @f(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %y = kernel.exp %x : tensor<16x64xf16> -> tensor<16x64xf16>
  func.return %y : tensor<16x64xf16>
}
