// RUN: mirage-opt %s -p 'superoptimize{time-budget=20 workers=1}' 2>&1 | FileCheck %s
// RUN: mirage-opt %s -p 'superoptimize{time-budget=20 workers=1 normalize=false}' 2>&1 | FileCheck %s --check-prefix=ASIS

// nn.Linear with bias as torch exports it: the weight transposed, the bias reshaped to 1 x n.
// Normalized, the search fuses it into one kernel that reads the weight transposed in place
// and the bias through a retype (a reshape, no launch).
// CHECK: kernel.reshape %{{.*}} : tensor<96xf32> -> tensor<1x96xf32>
// CHECK-NEXT: kernel.graph
// CHECK: block.input %{{.*}} view [64, 96] strides [1, 64] : tensor<96x64xf32>
// CHECK-NOT: kernel.transpose
// CHECK: func.return
// As it is, the transpose stays a launch of its own.
// ASIS: kernel.transpose
func.func @linear(%x: tensor<8x64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<8x96xf32> {
  %0 = kernel.transpose %w permutation [1, 0] : tensor<96x64xf32> -> tensor<64x96xf32>
  %1 = kernel.matmul %x, %0 : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  %2 = kernel.reshape %b : tensor<96xf32> -> tensor<1x96xf32>
  %3 = kernel.add %1, %2 : tensor<8x96xf32>, tensor<1x96xf32> -> tensor<8x96xf32>
  func.return %3 : tensor<8x96xf32>
}
