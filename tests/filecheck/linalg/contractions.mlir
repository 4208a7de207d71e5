// RUN: mirage-opt %s -p convert-linalg-to-kernel | FileCheck %s

// Matmuls are sums of products: named ops and generics alike. Transposed operands
// become kernel.transpose; a f16 x f16 -> f32 matmul keeps its f16 operands.

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @matmul_half
// CHECK-NEXT:    %[[M:.*]] = kernel.matmul %x, %w : tensor<4x8xf16>, tensor<8x6xf16> -> tensor<4x6xf16>
// CHECK-NEXT:    func.return %[[M]]
func.func @matmul_half(%x: tensor<4x8xf16>, %w: tensor<8x6xf16>) -> tensor<4x6xf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf16>, tensor<8x6xf16>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e16 = tensor.empty() : tensor<4x6xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x6xf32>) outs(%e16 : tensor<4x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %n = arith.truncf %in : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x6xf16>
  return %t : tensor<4x6xf16>
}

// CHECK-LABEL: func.func @transposed_rhs
// CHECK-NEXT:    %[[T:.*]] = kernel.transpose %w permutation [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
// CHECK-NEXT:    %[[M:.*]] = kernel.matmul %x, %[[T]] : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @transposed_rhs(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<4x8xf32>, tensor<6x8xf32>) outs(%f : tensor<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %m : tensor<4x6xf32>
}

// A transpose and a transposing matmul cancel.
// CHECK-LABEL: func.func @transpose_then_batch_matmul
// CHECK-NEXT:    %[[M:.*]] = kernel.matmul %q, %k : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @transpose_then_batch_matmul(%q: tensor<2x4x8xf32>, %k: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %et = tensor.empty() : tensor<2x6x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x6xf32>) outs(%et : tensor<2x6x8xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<2x4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %m = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %kt : tensor<2x4x8xf32>, tensor<2x6x8xf32>) outs(%f : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %m : tensor<2x4x6xf32>
}

// A sum over a non-last dim, a max reduction whose argmax half is unused, a mean.
// CHECK-LABEL: func.func @reductions
// CHECK-NEXT:    %[[S:.*]] = kernel.reduce_sum %x dim 0 : tensor<4x8xf32> -> tensor<1x8xf32>
// CHECK-NEXT:    %[[R:.*]] = kernel.reshape %[[S]] : tensor<1x8xf32> -> tensor<8xf32>
// CHECK-NEXT:    %[[M:.*]] = kernel.mul_scalar %[[R]], 2.500000e-01 : tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT:    %[[X:.*]] = kernel.reduce_max %x dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %[[XR:.*]] = kernel.reshape %[[X]] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[M]], %[[XR]]
func.func @reductions(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 4.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e8 = tensor.empty() : tensor<8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%f8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %mx:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f4, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %c = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %c, %ii, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %mean, %mx#0 : tensor<8xf32>, tensor<4xf32>
}
