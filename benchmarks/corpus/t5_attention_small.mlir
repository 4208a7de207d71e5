// corpus t5_attention (t5), small: q 2x4x16x16, k 2x4x16x16, v 2x4x16x16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @t5_attention(%arg0: tensor<2x4x16x16xf32>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<2x4x16x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_1 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %1 = tensor.empty() : tensor<8x16x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_1 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %4 = tensor.empty() : tensor<2x4x16xi64>
    %5 = linalg.fill ins(%c0_i64 : i64) outs(%4 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %6 = tensor.empty() : tensor<2x4x16xf32>
    %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %8:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded : tensor<2x4x16x16xf32>) outs(%7, %5 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %16 = linalg.index 3 : index
      %17 = arith.index_cast %16 : index to i64
      %18 = arith.maximumf %in, %out : f32
      %19 = arith.cmpf ogt, %in, %out : f32
      %20 = arith.select %19, %17, %out_6 : i64
      linalg.yield %18, %20 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_2 = tensor.expand_shape %8#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %expanded_2 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %16 = arith.subf %in, %in_6 : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.exp %in : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x16x16xf32>
    %11 = tensor.empty() : tensor<2x4x16x1xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%10 : tensor<2x4x16x16xf32>) outs(%12 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %13 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %16 = arith.divf %in, %in_6 : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_3 = tensor.collapse_shape %14 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_4 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %15 = linalg.batch_matmul ins(%collapsed_3, %collapsed_4 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_5 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    return %expanded_5 : tensor<2x4x16x16xf32>
  }
}
