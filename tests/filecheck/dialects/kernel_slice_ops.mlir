// RUN: mirage-opt %s | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// kernel.slice: a static window of unit strides (x.chunk(2, -1), x[..., :n], torch.split),
// and kernel.concat, which puts windows back together (torch.cat).

// CHECK-LABEL: func.func @rotate_half
func.func @rotate_half(%x: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  // CHECK: %{{.*}} = kernel.slice %{{.*}} offsets [0, 0, 0] : tensor<2x4x8xf16> -> tensor<2x4x4xf16>
  %lo = kernel.slice %x offsets [0, 0, 0] : tensor<2x4x8xf16> -> tensor<2x4x4xf16>
  // CHECK-NEXT: kernel.slice %{{.*}} offsets [0, 0, 4] : tensor<2x4x8xf16> -> tensor<2x4x4xf16>
  %hi = kernel.slice %x offsets [0, 0, 4] : tensor<2x4x8xf16> -> tensor<2x4x4xf16>
  %neg = kernel.mul_scalar %hi, -1.0 : tensor<2x4x4xf16> -> tensor<2x4x4xf16>
  // CHECK: kernel.concat %{{.*}}, %{{.*}} dim 2 : tensor<2x4x4xf16>, tensor<2x4x4xf16> -> tensor<2x4x8xf16>
  %r = kernel.concat %neg, %lo dim 2 : tensor<2x4x4xf16>, tensor<2x4x4xf16> -> tensor<2x4x8xf16>
  func.return %r : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @rank_one_row
func.func @rank_one_row(%x: tensor<7xf32>) -> tensor<1xf32> {
  // CHECK: kernel.slice %{{.*}} offsets [6] : tensor<7xf32> -> tensor<1xf32>
  %y = kernel.slice %x offsets [6] : tensor<7xf32> -> tensor<1xf32>
  func.return %y : tensor<1xf32>
}

// GENERIC: "kernel.slice"(%{{.*}}) <{offsets = array<i64: 0, 0, 0>}> : (tensor<2x4x8xf16>) -> tensor<2x4x4xf16>
// GENERIC: "kernel.slice"(%{{.*}}) <{offsets = array<i64: 0, 0, 4>}> : (tensor<2x4x8xf16>) -> tensor<2x4x4xf16>
// GENERIC: "kernel.concat"(%{{.*}}, %{{.*}}) <{dim = 2 : i64}> : (tensor<2x4x4xf16>, tensor<2x4x4xf16>) -> tensor<2x4x8xf16>
