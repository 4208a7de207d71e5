// corpus attention_out_proj (gpt2), small: q 2x16x64, k 2x16x64, v 2x16x64, c_proj.weight 64x64, c_proj.bias 64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @attention_out_proj(%arg0: tensor<2x16x64xf32>, %arg1: tensor<2x16x64xf32>, %arg2: tensor<2x16x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>) -> tensor<2x16x64xf32> {
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
      %23 = arith.mulf %in, %cst_1 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %5 = tensor.empty() : tensor<2x4x16xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %7 = tensor.empty() : tensor<2x4x16xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%4 : tensor<2x4x16x16xf32>) outs(%8, %6 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_16: i64):
      %23 = linalg.index 3 : index
      %24 = arith.index_cast %23 : index to i64
      %25 = arith.maximumf %in, %out : f32
      %26 = arith.cmpf ogt, %in, %out : f32
      %27 = arith.select %26, %24, %out_16 : i64
      linalg.yield %25, %27 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_8 = tensor.expand_shape %9#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_8 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %23 = arith.subf %in, %in_16 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.exp %in : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %12 = tensor.empty() : tensor<2x4x16x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%11 : tensor<2x4x16x16xf32>) outs(%13 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.addf %in, %out : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %14 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %23 = arith.divf %in, %in_16 : f32
      linalg.yield %23 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_9 = tensor.collapse_shape %15 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_4 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %16 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%2 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_11 = tensor.expand_shape %16 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %17 = tensor.empty() : tensor<2x16x4x16xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x4x16x16xf32>) outs(%17 : tensor<2x16x4x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0, 1], [2, 3]] : tensor<2x16x4x16xf32> into tensor<32x64xf32>
    %18 = tensor.empty() : tensor<64x64xf32>
    %transposed_14 = linalg.transpose ins(%arg3 : tensor<64x64xf32>) outs(%18 : tensor<64x64xf32>) permutation = [1, 0] 
    %19 = tensor.empty() : tensor<32x64xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %21 = linalg.matmul ins(%collapsed_13, %transposed_14 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%20 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%21, %arg4 : tensor<32x64xf32>, tensor<64xf32>) outs(%19 : tensor<32x64xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %23 = arith.addf %in, %in_16 : f32
      linalg.yield %23 : f32
    } -> tensor<32x64xf32>
    %expanded_15 = tensor.expand_shape %22 [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
    return %expanded_15 : tensor<2x16x64xf32>
  }
}
