// corpus layernorm_handwritten (vit), f16: x 256x2048, ln.gamma 2048, ln.beta 2048.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm_handwritten(%arg0: tensor<256x2048xf16>, %arg1: tensor<2048xf16>, %arg2: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 1.000000e-05 : f64
    %cst_1 = arith.constant 2.048000e+03 : f16
    %0 = tensor.empty() : tensor<256x1xf16>
    %1 = linalg.fill ins(%cst : f16) outs(%0 : tensor<256x1xf16>) -> tensor<256x1xf16>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<256x2048xf16>) outs(%1 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = arith.addf %in, %out : f16
      linalg.yield %14 : f16
    } -> tensor<256x1xf16>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<256x1xf16>) outs(%0 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = arith.divf %in, %cst_1 : f16
      linalg.yield %14 : f16
    } -> tensor<256x1xf16>
    %4 = tensor.empty() : tensor<256x2048xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %3 : tensor<256x2048xf16>, tensor<256x1xf16>) outs(%4 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.subf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<256x2048xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<256x2048xf16>) outs(%4 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = math.fpowi %in, %c2_i64 : f16, i64
      linalg.yield %14 : f16
    } -> tensor<256x2048xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%6 : tensor<256x2048xf16>) outs(%1 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = arith.addf %in, %out : f16
      linalg.yield %14 : f16
    } -> tensor<256x1xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<256x1xf16>) outs(%0 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = arith.divf %in, %cst_1 : f16
      linalg.yield %14 : f16
    } -> tensor<256x1xf16>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %5 : tensor<2048xf16>, tensor<256x2048xf16>) outs(%4 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.mulf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<256x2048xf16>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x1xf16>) outs(%0 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = arith.truncf %cst_0 : f64 to f16
      %15 = arith.addf %in, %14 : f16
      linalg.yield %15 : f16
    } -> tensor<256x1xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<256x1xf16>) outs(%0 : tensor<256x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %14 = math.sqrt %in : f16
      linalg.yield %14 : f16
    } -> tensor<256x1xf16>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %11 : tensor<256x2048xf16>, tensor<256x1xf16>) outs(%4 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.divf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<256x2048xf16>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %arg2 : tensor<256x2048xf16>, tensor<2048xf16>) outs(%4 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %14 = arith.addf %in, %in_2 : f16
      linalg.yield %14 : f16
    } -> tensor<256x2048xf16>
    return %13 : tensor<256x2048xf16>
  }
}
