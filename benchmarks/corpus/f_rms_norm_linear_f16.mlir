// corpus f_rms_norm_linear (llama), f16: x 16x4096, weight 4096, proj.weight 11008x4096.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @f_rms_norm_linear(%arg0: tensor<16x4096xf16>, %arg1: tensor<4096xf16>, %arg2: tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e-05 : f64
    %cst_2 = arith.constant 4.096000e+03 : f16
    %0 = tensor.empty() : tensor<16x4096xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<16x4096xf16>, tensor<16x4096xf16>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f16, %in_3: f16, %out: f16):
      %16 = arith.mulf %in, %in_3 : f16
      linalg.yield %16 : f16
    } -> tensor<16x4096xf16>
    %2 = tensor.empty() : tensor<16x1xf16>
    %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<16x1xf16>) -> tensor<16x1xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<16x4096xf16>) outs(%3 : tensor<16x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %16 = arith.addf %in, %out : f16
      linalg.yield %16 : f16
    } -> tensor<16x1xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<16x1xf16>) outs(%2 : tensor<16x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %16 = arith.divf %in, %cst_2 : f16
      linalg.yield %16 : f16
    } -> tensor<16x1xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<16x1xf16>) outs(%2 : tensor<16x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %16 = arith.truncf %cst_1 : f64 to f16
      %17 = arith.addf %in, %16 : f16
      linalg.yield %17 : f16
    } -> tensor<16x1xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<16x1xf16>) outs(%2 : tensor<16x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %16 = math.rsqrt %in : f16
      linalg.yield %16 : f16
    } -> tensor<16x1xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<16x4096xf16>, tensor<16x1xf16>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f16, %in_3: f16, %out: f16):
      %16 = arith.mulf %in, %in_3 : f16
      linalg.yield %16 : f16
    } -> tensor<16x4096xf16>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg1 : tensor<16x4096xf16>, tensor<4096xf16>) outs(%0 : tensor<16x4096xf16>) {
    ^bb0(%in: f16, %in_3: f16, %out: f16):
      %16 = arith.mulf %in, %in_3 : f16
      linalg.yield %16 : f16
    } -> tensor<16x4096xf16>
    %10 = tensor.empty() : tensor<4096x11008xf16>
    %transposed = linalg.transpose ins(%arg2 : tensor<11008x4096xf16>) outs(%10 : tensor<4096x11008xf16>) permutation = [1, 0] 
    %11 = tensor.empty() : tensor<16x11008xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %13 = linalg.matmul ins(%9, %transposed : tensor<16x4096xf16>, tensor<4096x11008xf16>) outs(%12 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %14 = tensor.empty() : tensor<16x11008xf16>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<16x11008xf32>) outs(%14 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %16 = arith.truncf %in : f32 to f16
      linalg.yield %16 : f16
    } -> tensor<16x11008xf16>
    return %15 : tensor<16x11008xf16>
  }
}
