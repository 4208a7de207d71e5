// corpus residual_rmsnorm (llama), f16: x 16x4096, residual 16x4096, norm.weight 4096.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @residual_rmsnorm(%arg0: tensor<16x4096xf16>, %arg1: tensor<16x4096xf16>, %arg2: tensor<4096xf16>) -> (tensor<16x4096xf16>, tensor<16x4096xf16>) {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.9999999999999995E-7 : f64
    %cst_1 = arith.constant 4.096000e+03 : f32
    %0 = tensor.empty() : tensor<16x4096xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<16x4096xf16>, tensor<16x4096xf16>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.addf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<16x4096xf16>
    %2 = tensor.empty() : tensor<16x4096xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<16x4096xf16>) outs(%2 : tensor<16x4096xf32>) {
    ^bb0(%in: f16, %out: f32):
      %14 = arith.extf %in : f16 to f32
      linalg.yield %14 : f32
    } -> tensor<16x4096xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x4096xf32>) outs(%2 : tensor<16x4096xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %14 : f32
    } -> tensor<16x4096xf32>
    %5 = tensor.empty() : tensor<16x1xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16x1xf32>) -> tensor<16x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<16x4096xf32>) outs(%6 : tensor<16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %in, %out : f32
      linalg.yield %14 : f32
    } -> tensor<16x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<16x1xf32>) outs(%5 : tensor<16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.divf %in, %cst_1 : f32
      linalg.yield %14 : f32
    } -> tensor<16x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<16x1xf32>) outs(%5 : tensor<16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.truncf %cst_0 : f64 to f32
      %15 = arith.addf %in, %14 : f32
      linalg.yield %15 : f32
    } -> tensor<16x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<16x1xf32>) outs(%5 : tensor<16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.rsqrt %in : f32
      linalg.yield %14 : f32
    } -> tensor<16x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %10 : tensor<16x4096xf32>, tensor<16x1xf32>) outs(%2 : tensor<16x4096xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<16x4096xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<16x4096xf32>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f32, %out: f16):
      %14 = arith.truncf %in : f32 to f16
      linalg.yield %14 : f16
    } -> tensor<16x4096xf16>
    %13 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg2, %12 : tensor<4096xf16>, tensor<16x4096xf16>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.mulf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<16x4096xf16>
    return %13, %1 : tensor<16x4096xf16>, tensor<16x4096xf16>
  }
}
