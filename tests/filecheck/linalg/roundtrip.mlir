// RUN: mirage-opt %s -p convert-kernel-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: mirage-opt %s -p convert-kernel-to-linalg --print-op-generic | mirage-opt -p convert-linalg-to-kernel | FileCheck %s

// kernel -> linalg -> kernel gives the program back (the expanded rms_norm is recognized
// again by what it computes).

// LINALG-LABEL: func.func @program
// LINALG-NOT:   kernel.
// LINALG:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// LINALG:         arith.mulf
// LINALG:         arith.addf
// LINALG:       math.sqrt
// LINALG:       linalg.transpose
// LINALG:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// LINALG:         arith.extf
// LINALG:       math.exp
// LINALG:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// LINALG:         arith.maximumf
// LINALG:       tensor.collapse_shape
// LINALG:       func.return

// CHECK-LABEL: func.func @program
// CHECK-NEXT:    kernel.rms_norm %x : tensor<4x64xf16> -> tensor<4x64xf16>
// CHECK-NEXT:    kernel.transpose %w permutation [1, 0]
// CHECK-NEXT:    kernel.matmul {{.*}} : tensor<4x64xf16>, tensor<64x96xf16> -> tensor<4x96xf32>
// CHECK-NEXT:    kernel.exp
// CHECK-NEXT:    kernel.reduce_max {{.*}} dim 1
// CHECK-NEXT:    kernel.reshape {{.*}} : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return
func.func @program(%x: tensor<4x64xf16>, %w: tensor<96x64xf16>) -> tensor<4xf32> {
  %n = kernel.rms_norm %x : tensor<4x64xf16> -> tensor<4x64xf16>
  %wt = kernel.transpose %w permutation [1, 0] : tensor<96x64xf16> -> tensor<64x96xf16>
  %y = kernel.matmul %n, %wt : tensor<4x64xf16>, tensor<64x96xf16> -> tensor<4x96xf32>
  %e = kernel.exp %y : tensor<4x96xf32> -> tensor<4x96xf32>
  %m = kernel.reduce_max %e dim 1 : tensor<4x96xf32> -> tensor<4x1xf32>
  %r = kernel.reshape %m : tensor<4x1xf32> -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
