// corpus multi_head_attention (gpt2), small: q 2x16x64, k 2x16x64, v 2x16x64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @multi_head_attention(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x64xf32>, %arg2: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 2.500000e-01 : f32
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2, 3]] output_shape [2, 16, 4, 16] : tensor<2x16x64xf32> into tensor<2x16x4x16xf32>
    %0 = tensor.empty() : tensor<2x4x16x16xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x16x4x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) permutation = [0, 2, 1, 3] 
    %expanded_2 = tensor.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [2, 16, 4, 16] : tensor<2x16x64xf32> into tensor<2x16x4x16xf32>
    %expanded_3 = tensor.expand_shape %arg2 [[0], [1], [2, 3]] output_shape [2, 16, 4, 16] : tensor<2x16x64xf32> into tensor<2x16x4x16xf32>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<2x16x4x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_5 = linalg.transpose ins(%expanded_2 : tensor<2x16x4x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) permutation = [0, 2, 3, 1] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_6 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %1 = tensor.empty() : tensor<8x16x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_7 = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.mulf %in, %cst_1 : f32
      linalg.yield %18 : f32
    } -> tensor<2x4x16x16xf32>
    %5 = tensor.empty() : tensor<2x4x16xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %7 = tensor.empty() : tensor<2x4x16xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%4 : tensor<2x4x16x16xf32>) outs(%8, %6 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %18 = linalg.index 3 : index
      %19 = arith.index_cast %18 : index to i64
      %20 = arith.maximumf %in, %out : f32
      %21 = arith.cmpf ogt, %in, %out : f32
      %22 = arith.select %21, %19, %out_14 : i64
      linalg.yield %20, %22 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_8 = tensor.expand_shape %9#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_8 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %18 = arith.subf %in, %in_14 : f32
      linalg.yield %18 : f32
    } -> tensor<2x4x16x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = math.exp %in : f32
      linalg.yield %18 : f32
    } -> tensor<2x4x16x16xf32>
    %12 = tensor.empty() : tensor<2x4x16x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%11 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.addf %in, %out : f32
      linalg.yield %18 : f32
    } -> tensor<2x4x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %18 = arith.divf %in, %in_14 : f32
      linalg.yield %18 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_9 = tensor.collapse_shape %15 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_4 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %16 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_11 = tensor.expand_shape %16 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %17 = tensor.empty() : tensor<2x16x4x16xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x4x16x16xf32>) outs(%17 : tensor<2x16x4x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<2x16x4x16xf32> into tensor<2x16x64xf32>
    return %collapsed_13 : tensor<2x16x64xf32>
  }
}
