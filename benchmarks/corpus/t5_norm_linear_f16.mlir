// corpus t5_norm_linear (t5), f16: x 64x2048, norm.weight 2048, q.weight 5120x2048.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @t5_norm_linear(%arg0: tensor<64x2048xf16>, %arg1: tensor<2048xf16>, %arg2: tensor<5120x2048xf16>) -> tensor<64x5120xf16> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 2.048000e+03 : f32
    %0 = tensor.empty() : tensor<64x2048xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<64x2048xf16>) outs(%0 : tensor<64x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %19 = arith.extf %in : f16 to f32
      linalg.yield %19 : f32
    } -> tensor<64x2048xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<64x2048xf32>) outs(%0 : tensor<64x2048xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %19 : f32
    } -> tensor<64x2048xf32>
    %3 = tensor.empty() : tensor<64x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<64x1xf32>) -> tensor<64x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<64x2048xf32>) outs(%4 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<64x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<64x1xf32>) outs(%3 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_1 : f32
      linalg.yield %19 : f32
    } -> tensor<64x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<64x1xf32>) outs(%3 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.truncf %cst_0 : f64 to f32
      %20 = arith.addf %in, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<64x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<64x1xf32>) outs(%3 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.rsqrt %in : f32
      linalg.yield %19 : f32
    } -> tensor<64x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %8 : tensor<64x2048xf16>, tensor<64x1xf32>) outs(%0 : tensor<64x2048xf32>) {
    ^bb0(%in: f16, %in_2: f32, %out: f32):
      %19 = arith.extf %in : f16 to f32
      %20 = arith.mulf %19, %in_2 : f32
      linalg.yield %20 : f32
    } -> tensor<64x2048xf32>
    %10 = tensor.empty() : tensor<64x2048xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<64x2048xf32>) outs(%10 : tensor<64x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<64x2048xf16>
    %12 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %11 : tensor<2048xf16>, tensor<64x2048xf16>) outs(%10 : tensor<64x2048xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %19 = arith.mulf %in, %in_2 : f16
      linalg.yield %19 : f16
    } -> tensor<64x2048xf16>
    %13 = tensor.empty() : tensor<2048x5120xf16>
    %transposed = linalg.transpose ins(%arg2 : tensor<5120x2048xf16>) outs(%13 : tensor<2048x5120xf16>) permutation = [1, 0] 
    %14 = tensor.empty() : tensor<64x5120xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<64x5120xf32>) -> tensor<64x5120xf32>
    %16 = linalg.matmul ins(%12, %transposed : tensor<64x2048xf16>, tensor<2048x5120xf16>) outs(%15 : tensor<64x5120xf32>) -> tensor<64x5120xf32>
    %17 = tensor.empty() : tensor<64x5120xf16>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<64x5120xf32>) outs(%17 : tensor<64x5120xf16>) {
    ^bb0(%in: f32, %out: f16):
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<64x5120xf16>
    return %18 : tensor<64x5120xf16>
  }
}
