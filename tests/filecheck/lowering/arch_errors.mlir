// An architecture no target describes, or text that names none, is one error line.
// RUN: not mirage-opt %s -t 'ptx{arch=sm_100}' 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not mirage-opt %s -p 'lower-to-llvm{arch=sm80}' 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not mirage-opt %s -p 'plan-ugraph{arch=sm_75}' 2>&1 | FileCheck %s --check-prefix=PLAN

// PTX: error: unsupported GPU architecture 'sm_100' (use one of sm_80, sm_86, sm_89, sm_90, sm_90a)
// PTX-NOT: Traceback
// PASS: error: 'sm80' is not a GPU architecture (expected sm_XY or sm_XYa, e.g. sm_90a)
// PASS-NOT: Traceback
// PLAN: error: unsupported GPU architecture 'sm_75'
// PLAN-NOT: Traceback

func.func @f(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %y = kernel.exp %x : tensor<16x64xf16> -> tensor<16x64xf16>
  func.return %y : tensor<16x64xf16>
}
