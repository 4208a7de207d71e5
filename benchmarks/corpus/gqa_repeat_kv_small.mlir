// corpus gqa_repeat_kv (llama), small: q 2x4x16x16, k 2x2x16x16, v 2x2x16x16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gqa_repeat_kv(%arg0: tensor<2x4x16x16xf32>, %arg1: tensor<2x2x16x16xf32>, %arg2: tensor<2x2x16x16xf32>) -> tensor<2x4x16x16xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x2x2x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x16x16xf32>
    %collapsed = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<2x2x2x16x16xf32> into tensor<2x4x16x16xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : tensor<2x2x16x16xf32>) outs(%0 : tensor<2x2x2x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x2x2x16x16xf32>
    %3 = tensor.empty() : tensor<2x4x16x16xf32>
    %transposed = linalg.transpose ins(%collapsed : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_2 = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_3 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %4 = tensor.empty() : tensor<8x16x16xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %6 = linalg.batch_matmul ins(%collapsed_2, %collapsed_3 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%5 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded = tensor.expand_shape %6 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.divf %in, %cst_1 : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x16x16xf32>
    %8 = tensor.empty() : tensor<2x4x16xi64>
    %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %10 = tensor.empty() : tensor<2x4x16xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %12:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<2x4x16x16xf32>) outs(%11, %9 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_8: i64):
      %20 = linalg.index 3 : index
      %21 = arith.index_cast %20 : index to i64
      %22 = arith.maximumf %in, %out : f32
      %23 = arith.cmpf ogt, %in, %out : f32
      %24 = arith.select %23, %21, %out_8 : i64
      linalg.yield %22, %24 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_4 = tensor.expand_shape %12#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_4 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%3 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %20 = arith.subf %in, %in_8 : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x16x16xf32>
    %14 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = math.exp %in : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x16x16xf32>
    %15 = tensor.empty() : tensor<2x4x16x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x4x16x16xf32>) outs(%16 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %20 = arith.addf %in, %out : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x16x1xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%3 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %20 = arith.divf %in, %in_8 : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_5 = tensor.collapse_shape %18 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_6 = tensor.collapse_shape %2 [[0, 1, 2], [3], [4]] : tensor<2x2x2x16x16xf32> into tensor<8x16x16xf32>
    %19 = linalg.batch_matmul ins(%collapsed_5, %collapsed_6 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%5 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_7 = tensor.expand_shape %19 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    return %expanded_7 : tensor<2x4x16x16xf32>
  }
}
