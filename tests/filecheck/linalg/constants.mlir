// RUN: mirage-opt %s -p convert-linalg-to-kernel | FileCheck %s
// RUN: mirage-opt %s -p convert-linalg-to-kernel | mirage-opt | FileCheck %s

// Large constants become arguments of @f_kernel, after f's own, in the order their
// arith.constant ops appear; @f keeps its signature, holds the constants and calls it.
// Splat constants stay constants.

// CHECK-LABEL: func.func @linear(%x: tensor<4x8xf32>) -> tensor<4x6xf32> {
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense_resource<weight> : tensor<6x8xf32>
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @linear_kernel(%x, %[[W]], %[[B]]) : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func @linear_kernel(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> {
// CHECK-NEXT:    %[[T:.*]] = kernel.transpose %w permutation [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
// CHECK-NEXT:    %[[M:.*]] = kernel.matmul %x, %[[T]] : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %[[BR:.*]] = kernel.reshape %b : tensor<6xf32> -> tensor<1x6xf32>
// CHECK-NEXT:    %[[A:.*]] = kernel.add %[[M]], %[[BR]] : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %[[S:.*]] = kernel.mul_scalar %[[A]], 3.000000e+00 : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[S]]
// CHECK:       dialect_resources
// CHECK-NEXT:    builtin
// CHECK-NEXT:      weight: "0x04000000

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear(%x: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %scale = arith.constant dense<3.000000e+00> : tensor<f32>
  %w = arith.constant dense_resource<weight> : tensor<6x8xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %et = tensor.empty() : tensor<8x6xf32>
  %wt = linalg.transpose ins(%w : tensor<6x8xf32>) outs(%et : tensor<8x6xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b, %scale : tensor<4x6xf32>, tensor<6xf32>, tensor<f32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %bias: f32, %s: f32, %out: f32):
    %a = arith.addf %in, %bias : f32
    %r = arith.mulf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F841000000420000044200000842000010420000144200001842000014420000204200002442000028420000304200003442000038420000404200004442"
    }
  }
#-}
