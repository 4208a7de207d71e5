// corpus linear_bias (gpt2), f16: x 64x2048, fc.weight 8192x2048, fc.bias 8192.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @linear_bias(%arg0: tensor<64x2048xf16>, %arg1: tensor<8192x2048xf16>, %arg2: tensor<8192xf16>) -> tensor<64x8192xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2048x8192xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<8192x2048xf16>) outs(%0 : tensor<2048x8192xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8192xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg2 : tensor<8192xf16>) outs(%1 : tensor<8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %13 = arith.extf %in : f16 to f32
      linalg.yield %13 : f32
    } -> tensor<8192xf32>
    %3 = tensor.empty() : tensor<64x2048xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<64x2048xf16>) outs(%3 : tensor<64x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %13 = arith.extf %in : f16 to f32
      linalg.yield %13 : f32
    } -> tensor<64x2048xf32>
    %5 = tensor.empty() : tensor<2048x8192xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<2048x8192xf16>) outs(%5 : tensor<2048x8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %13 = arith.extf %in : f16 to f32
      linalg.yield %13 : f32
    } -> tensor<2048x8192xf32>
    %7 = tensor.empty() : tensor<64x8192xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %9 = linalg.matmul ins(%4, %6 : tensor<64x2048xf32>, tensor<2048x8192xf32>) outs(%8 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%9, %2 : tensor<64x8192xf32>, tensor<8192xf32>) outs(%7 : tensor<64x8192xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %13 = arith.addf %in, %in_0 : f32
      linalg.yield %13 : f32
    } -> tensor<64x8192xf32>
    %11 = tensor.empty() : tensor<64x8192xf16>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<64x8192xf32>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<64x8192xf16>
    return %12 : tensor<64x8192xf16>
  }
}
