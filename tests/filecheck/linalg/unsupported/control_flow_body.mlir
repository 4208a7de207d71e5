// RUN: not mirage-opt %s -p convert-linalg-to-kernel -o %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out

// Control flow inside a body is reported at the op in the body.
// CHECK: control_flow_body.mlir:13:5: error: 'scf.if' op is control flow; only straight-line bodies are supported
func.func @branch_in_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf ogt, %in, %zero : f32
    %r = scf.if %c -> (f32) {
      %ex = math.exp %in : f32
      scf.yield %ex : f32
    } else {
      scf.yield %in : f32
    }
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
