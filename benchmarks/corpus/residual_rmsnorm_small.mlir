// corpus residual_rmsnorm (llama), small: x 8x64, residual 8x64, norm.weight 64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @residual_rmsnorm(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>, %arg2: tensor<64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 6.400000e+01 : f32
    %0 = tensor.empty() : tensor<8x64xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %11 = arith.addf %in, %in_2 : f32
      linalg.yield %11 : f32
    } -> tensor<8x64xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %11 : f32
    } -> tensor<8x64xf32>
    %3 = tensor.empty() : tensor<8x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<8x64xf32>) outs(%4 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.addf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<8x1xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.divf %in, %cst_1 : f32
      linalg.yield %11 : f32
    } -> tensor<8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x1xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.truncf %cst_0 : f64 to f32
      %12 = arith.addf %in, %11 : f32
      linalg.yield %12 : f32
    } -> tensor<8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<8x1xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = math.rsqrt %in : f32
      linalg.yield %11 : f32
    } -> tensor<8x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %8 : tensor<8x64xf32>, tensor<8x1xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %11 = arith.mulf %in, %in_2 : f32
      linalg.yield %11 : f32
    } -> tensor<8x64xf32>
    %10 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2, %9 : tensor<64xf32>, tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %11 = arith.mulf %in, %in_2 : f32
      linalg.yield %11 : f32
    } -> tensor<8x64xf32>
    return %10, %1 : tensor<8x64xf32>, tensor<8x64xf32>
  }
}
