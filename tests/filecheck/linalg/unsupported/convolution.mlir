// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// A named convolution: one error line naming the op and its place, no output.
// CHECK: convolution.mlir:11:3: error: 'linalg.conv_2d_nchw_fchw' op is a convolution or pooling; the kernel dialect cannot express it
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
