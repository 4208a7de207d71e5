// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// CHECK: control_flow.mlir:10:3: error: 'scf.for' op is control flow; only straight-line programs are supported
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %ex = math.exp %in : f32
      linalg.yield %ex : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
