// RUN: mirage-opt %s -p 'superoptimize{time-budget=10 workers=1}' 2>&1 | FileCheck %s
// RUN: mirage-opt %s -p 'superoptimize{time-budget=10 workers=1 normalize=false}' 2>&1 | FileCheck %s --check-prefix=ASIS

// A splat constant added, subtracted, divided by or raised to becomes the kind's immediate
// form (the constant a property; a square, for x ** 2): the search fuses the chain into
// one kernel and no constant is filled by a launch of its own. A constant before the
// tensor (2 - x) has no immediate form and stays a kernel.constant.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: kernel.constant
// CHECK: kernel.graph
// CHECK-DAG: add_scalar %{{.*}}, 1.000000e+00
// CHECK-DAG: sub_scalar %{{.*}}, 5.000000e-01
// CHECK-DAG: div_scalar %{{.*}}, 3.000000e+00
// CHECK-DAG: square %{{.*}}
// CHECK-NOT: kernel.constant
// CHECK: func.return
// As it is, the constants stay ops of their own.
// ASIS-LABEL: func.func @chain
// ASIS: kernel.constant
func.func @chain(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %one = kernel.constant 1.0 : tensor<1x1xf32>
  %half = kernel.constant 0.5 : tensor<1x1xf32>
  %three = kernel.constant 3.0 : tensor<1x1xf32>
  %two = kernel.constant 2.0 : tensor<1x1xf32>
  %0 = kernel.add %one, %x : tensor<1x1xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
  %1 = kernel.sub %0, %half : tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>
  %2 = kernel.div %1, %three : tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>
  %3 = kernel.pow %2, %two : tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>
  %4 = kernel.exp %3 : tensor<8x32xf32> -> tensor<8x32xf32>
  func.return %4 : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @reversed
// CHECK: kernel.constant 2.000000e+00 : tensor<1x1xf32>
// CHECK-NEXT: kernel.graph
// CHECK-NOT: sub_scalar
// CHECK: func.return
func.func @reversed(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %two = kernel.constant 2.0 : tensor<1x1xf32>
  %0 = kernel.sub %two, %x : tensor<1x1xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
  %1 = kernel.exp %0 : tensor<8x32xf32> -> tensor<8x32xf32>
  func.return %1 : tensor<8x32xf32>
}
