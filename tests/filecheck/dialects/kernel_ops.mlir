// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt | FileCheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf32> {
  // CHECK: kernel.matmul %{{.*}}, %{{.*}} : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf32>
  %y = kernel.matmul %x, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf32>
  // CHECK: kernel.exp %{{.*}} : tensor<16x32xf32> -> tensor<16x32xf32>
  %e = kernel.exp %y : tensor<16x32xf32> -> tensor<16x32xf32>
  // CHECK: kernel.reduce_sum %{{.*}} dim 1 : tensor<16x32xf32> -> tensor<16x1xf32>
  %s = kernel.reduce_sum %e dim 1 : tensor<16x32xf32> -> tensor<16x1xf32>
  // CHECK: kernel.div %{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<16x1xf32> -> tensor<16x32xf32>
  %d = kernel.div %e, %s : tensor<16x32xf32>, tensor<16x1xf32> -> tensor<16x32xf32>
  func.return %d : tensor<16x32xf32>
}
