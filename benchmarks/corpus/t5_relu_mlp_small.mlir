// corpus t5_relu_mlp (t5), small: x 8x64, wi.weight 96x64, wo.weight 64x96.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @t5_relu_mlp(%arg0: tensor<8x64xf32>, %arg1: tensor<96x64xf32>, %arg2: tensor<64x96xf32>) -> tensor<8x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x96xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.cmpf ugt, %in, %cst : f32
      %10 = arith.select %9, %in, %cst : f32
      linalg.yield %10 : f32
    } -> tensor<8x96xf32>
    %5 = tensor.empty() : tensor<96x64xf32>
    %transposed_0 = linalg.transpose ins(%arg2 : tensor<64x96xf32>) outs(%5 : tensor<96x64xf32>) permutation = [1, 0] 
    %6 = tensor.empty() : tensor<8x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %8 = linalg.matmul ins(%4, %transposed_0 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%7 : tensor<8x64xf32>) -> tensor<8x64xf32>
    return %8 : tensor<8x64xf32>
  }
}
