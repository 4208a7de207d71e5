// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// A logarithm has no kernel op and no composition of kernel ops.
// CHECK: no_kernel_form.mlir:11:5: error: 'math.log' op computes a logarithm, which the kernel dialect cannot express
func.func @log(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.log %in : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
