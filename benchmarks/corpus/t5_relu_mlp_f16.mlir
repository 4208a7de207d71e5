// corpus t5_relu_mlp (t5), f16: x 64x2048, wi.weight 5120x2048, wo.weight 2048x5120.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @t5_relu_mlp(%arg0: tensor<64x2048xf16>, %arg1: tensor<5120x2048xf16>, %arg2: tensor<2048x5120xf16>) -> tensor<64x2048xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %0 = tensor.empty() : tensor<2048x5120xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<5120x2048xf16>) outs(%0 : tensor<2048x5120xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<64x5120xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<64x5120xf32>) -> tensor<64x5120xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<64x2048xf16>, tensor<2048x5120xf16>) outs(%2 : tensor<64x5120xf32>) -> tensor<64x5120xf32>
    %4 = tensor.empty() : tensor<64x5120xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<64x5120xf32>) outs(%4 : tensor<64x5120xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<64x5120xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<64x5120xf16>) outs(%4 : tensor<64x5120xf16>) {
    ^bb0(%in: f16, %out: f16):
      %13 = arith.cmpf ugt, %in, %cst_0 : f16
      %14 = arith.select %13, %in, %cst_0 : f16
      linalg.yield %14 : f16
    } -> tensor<64x5120xf16>
    %7 = tensor.empty() : tensor<5120x2048xf16>
    %transposed_1 = linalg.transpose ins(%arg2 : tensor<2048x5120xf16>) outs(%7 : tensor<5120x2048xf16>) permutation = [1, 0] 
    %8 = tensor.empty() : tensor<64x2048xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %10 = linalg.matmul ins(%6, %transposed_1 : tensor<64x5120xf16>, tensor<5120x2048xf16>) outs(%9 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %11 = tensor.empty() : tensor<64x2048xf16>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<64x2048xf32>) outs(%11 : tensor<64x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<64x2048xf16>
    return %12 : tensor<64x2048xf16>
  }
}
