// corpus linear_chain (gpt2), f16: x 64x2048, fc1.weight 8192x2048, fc2.weight 2048x8192.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @linear_chain(%arg0: tensor<64x2048xf16>, %arg1: tensor<8192x2048xf16>, %arg2: tensor<2048x8192xf16>) -> tensor<64x2048xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2048x8192xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<8192x2048xf16>) outs(%0 : tensor<2048x8192xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<64x8192xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<64x2048xf16>, tensor<2048x8192xf16>) outs(%2 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %4 = tensor.empty() : tensor<64x8192xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<64x8192xf32>) outs(%4 : tensor<64x8192xf16>) {
    ^bb0(%in: f32, %out: f16):
      %12 = arith.truncf %in : f32 to f16
      linalg.yield %12 : f16
    } -> tensor<64x8192xf16>
    %6 = tensor.empty() : tensor<8192x2048xf16>
    %transposed_0 = linalg.transpose ins(%arg2 : tensor<2048x8192xf16>) outs(%6 : tensor<8192x2048xf16>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<64x2048xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %9 = linalg.matmul ins(%5, %transposed_0 : tensor<64x8192xf16>, tensor<8192x2048xf16>) outs(%8 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %10 = tensor.empty() : tensor<64x2048xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<64x2048xf32>) outs(%10 : tensor<64x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %12 = arith.truncf %in : f32 to f16
      linalg.yield %12 : f16
    } -> tensor<64x2048xf16>
    return %11 : tensor<64x2048xf16>
  }
}
