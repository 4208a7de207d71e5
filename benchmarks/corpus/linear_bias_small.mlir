// corpus linear_bias (gpt2), small: x 8x64, fc.weight 96x64, fc.bias 96.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @linear_bias(%arg0: tensor<8x64xf32>, %arg1: tensor<96x64xf32>, %arg2: tensor<96xf32>) -> tensor<8x96xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x96xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<8x96xf32>, tensor<96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %5 = arith.addf %in, %in_0 : f32
      linalg.yield %5 : f32
    } -> tensor<8x96xf32>
    return %4 : tensor<8x96xf32>
  }
}
