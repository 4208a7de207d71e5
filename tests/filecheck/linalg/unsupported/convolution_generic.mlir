// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// A 1-D convolution written as a generic: its input map d0 + d1 is a sliding window.
// CHECK: convolution_generic.mlir:11:3: error: 'linalg.generic' op has indexing map affine_map<(d0, d1) -> ((d0 + d1))> that is not a projected permutation (a sliding window, as in a convolution); not supported
func.func @conv1d(%x: tensor<10xf32>, %w: tensor<3xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
