// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// kernel.constant, kernel.transpose and kernel.reshape: what imported programs need
// beyond the search vocabulary (an epsilon, a transposed weight, a flattened batch).

// CHECK-LABEL: func.func @layout
func.func @layout(%x: tensor<2x4x8xf32>, %w: tensor<6x8xf16>) -> tensor<8x6xf32> {
  // CHECK: %{{.*}} = kernel.constant 1.000000e-06 : tensor<1x1x1xf32>
  %eps = kernel.constant 1.0e-06 : tensor<1x1x1xf32>
  // CHECK-NEXT: kernel.add %{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<1x1x1xf32> -> tensor<2x4x8xf32>
  %a = kernel.add %x, %eps : tensor<2x4x8xf32>, tensor<1x1x1xf32> -> tensor<2x4x8xf32>
  // CHECK-NEXT: kernel.reshape %{{.*}} : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %r = kernel.reshape %a : tensor<2x4x8xf32> -> tensor<8x8xf32>
  // CHECK-NEXT: kernel.transpose %{{.*}} permutation [1, 0] : tensor<6x8xf16> -> tensor<8x6xf16>
  %wt = kernel.transpose %w permutation [1, 0] : tensor<6x8xf16> -> tensor<8x6xf16>
  %y = kernel.matmul %r, %wt : tensor<8x8xf32>, tensor<8x6xf16> -> tensor<8x6xf32>
  func.return %y : tensor<8x6xf32>
}

// GENERIC: "kernel.constant"() <{value = 1.000000e-06 : f64}> : () -> tensor<1x1x1xf32>
// GENERIC: "kernel.reshape"(%{{.*}}) : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
// GENERIC: "kernel.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> : (tensor<6x8xf16>) -> tensor<8x6xf16>
