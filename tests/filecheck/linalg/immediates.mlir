// RUN: mirage-opt %s -p convert-linalg-to-kernel | FileCheck %s

// A constant added to or raised to in a body is the kind's immediate form: no constant
// tensor. A constant the tensor is subtracted from (c - x) has no immediate form: it stays
// a kernel.constant.

// CHECK-LABEL: func.func @gelu_tail
// CHECK-NEXT:    %[[P:.*]] = kernel.pow_scalar %x, 3.000000e+00 : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[T:.*]] = kernel.tanh %[[P]] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[A:.*]] = kernel.add_scalar %[[T]], 1.000000e+00 : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[A]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu_tail(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c3 = arith.constant 3 : i64
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.fpowi %in, %c3 : f32, i64
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %one : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @one_minus
// CHECK-NEXT:    %[[C:.*]] = kernel.constant 1.000000e+00 : tensor<1x1xf32>
// CHECK-NEXT:    %[[S:.*]] = kernel.sub %[[C]], %x : tensor<1x1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @one_minus(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.subf %one, %in : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}
