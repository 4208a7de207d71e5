// RUN: not mirage-opt %s -p convert-linalg-to-kernel 2>&1 | FileCheck %s

// gelu with sqrt(2) rounded to f16 (1.4140625), computed in f32: not gelu at f32's
// precision (the f16 body of gelu_f16.mlir is), and erf has no kernel form of its own.

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK: error: 'linalg.generic' op computes erf outside the gelu pattern
func.func @gelu_f32_rounded(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %sqrt2 = arith.constant 1.4140625 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %sqrt2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %2, %half : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<4x8xf32>
  func.return %g : tensor<4x8xf32>
}
