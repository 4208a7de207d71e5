// corpus t5_norm_linear (t5), small: x 8x64, norm.weight 64, q.weight 96x64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @t5_norm_linear(%arg0: tensor<8x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<96x64xf32>) -> tensor<8x96xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 6.400000e+01 : f32
    %0 = tensor.empty() : tensor<8x64xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %14 : f32
    } -> tensor<8x64xf32>
    %2 = tensor.empty() : tensor<8x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x64xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %in, %out : f32
      linalg.yield %14 : f32
    } -> tensor<8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.divf %in, %cst_1 : f32
      linalg.yield %14 : f32
    } -> tensor<8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.truncf %cst_0 : f64 to f32
      %15 = arith.addf %in, %14 : f32
      linalg.yield %15 : f32
    } -> tensor<8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.rsqrt %in : f32
      linalg.yield %14 : f32
    } -> tensor<8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<8x64xf32>, tensor<8x1xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x64xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %8 : tensor<64xf32>, tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x64xf32>
    %10 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<96x64xf32>) outs(%10 : tensor<64x96xf32>) permutation = [1, 0] 
    %11 = tensor.empty() : tensor<8x96xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %13 = linalg.matmul ins(%9, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%12 : tensor<8x96xf32>) -> tensor<8x96xf32>
    return %13 : tensor<8x96xf32>
  }
}
