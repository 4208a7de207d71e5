// RUN: mirage-opt %s -p convert-linalg-to-kernel | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt -p convert-linalg-to-kernel | FileCheck %s

// Bodies are recognized by what they compute, however they spell it: torch-mlir's
// sigmoid generic followed by a multiply is silu; erf-based gelu is gelu; a compare and
// select is relu; x * x and fpowi(x, 2) are square; a divide by a constant is a scale.

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @silu
// CHECK-NEXT:    %[[S:.*]] = kernel.silu %x : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @silu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %sig = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %x1 = math.exp %n : f32
    %d = arith.addf %x1, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sig : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @gelu_relu
// CHECK-NEXT:    %[[G:.*]] = kernel.gelu %x : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = kernel.relu %[[G]] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @gelu_relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %zero = arith.constant 0.000000e+00 : f32
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
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %c, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @square_scale_eps
// CHECK-NEXT:    %[[SQ:.*]] = kernel.square %x : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[SC:.*]] = kernel.mul_scalar %[[SQ]], 1.250000e-01 : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[A:.*]] = kernel.add_scalar %[[SC]], 9.99999997{{[0-9]*}}e-07 : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[A]]
func.func @square_scale_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c2 = arith.constant 2 : i64
  %n = arith.constant 8.000000e+00 : f32
  %eps = arith.constant 9.9999999999999995E-7 : f64
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.fpowi %in, %c2 : f32, i64
    %d = arith.divf %p, %n : f32
    %t = arith.truncf %eps : f64 to f32
    %a = arith.addf %d, %t : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_chain
// CHECK-NEXT:    %[[B:.*]] = kernel.reshape %b : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-NEXT:    %[[S:.*]] = kernel.sub %x, %[[B]] : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = kernel.exp %[[S]] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[E]]
func.func @broadcast_chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_b: f32, %out: f32):
    %s = arith.subf %in, %in_b : f32
    %x1 = math.exp %s : f32
    linalg.yield %x1 : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Casts cost nothing where that is exact: extf hands the f16 value on, truncf becomes the
// result type of the op that computes the value.
// CHECK-LABEL: func.func @half
// CHECK-NEXT:    %[[E:.*]] = kernel.exp %x : tensor<4x8xf16> -> tensor<4x8xf16>
// CHECK-NEXT:    func.return %[[E]]
func.func @half(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %w = arith.extf %in : f16 to f32
    %x1 = math.exp %w : f32
    %n = arith.truncf %x1 : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
