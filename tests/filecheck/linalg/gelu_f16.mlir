// RUN: mirage-opt %s -p convert-linalg-to-kernel | FileCheck %s

// A body computed in f16 rounds its constants to f16 (torch exports gelu in f16 with
// sqrt(2.0) folded to 1.4140625): it is still gelu, within what f16 itself rounds. The
// same rounded constant in an f32 body is another function (unsupported/gelu_f32_rounded.mlir).

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @gelu_f16
// CHECK-NEXT:    %[[G:.*]] = kernel.gelu %x : tensor<4x8xf16> -> tensor<4x8xf16>
// CHECK-NEXT:    func.return %[[G]]
func.func @gelu_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %one = arith.constant 1.000000e+00 : f16
  %half = arith.constant 5.000000e-01 : f16
  %sqrt2 = arith.constant 1.414060e+00 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.divf %in, %sqrt2 : f16
    %1 = math.erf %0 : f16
    %2 = arith.addf %1, %one : f16
    %3 = arith.mulf %2, %half : f16
    %4 = arith.mulf %in, %3 : f16
    linalg.yield %4 : f16
  } -> tensor<4x8xf16>
  func.return %g : tensor<4x8xf16>
}
