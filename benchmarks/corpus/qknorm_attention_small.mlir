// corpus qknorm_attention (llama), small: q 2x4x16x16, k 2x4x16x16, v 2x4x16x16, q_norm.weight 16, k_norm.weight 16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @qknorm_attention(%arg0: tensor<2x4x16x16xf32>, %arg1: tensor<2x4x16x16xf32>, %arg2: tensor<2x4x16x16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> tensor<2x4x16x16xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 9.9999999999999995E-7 : f64
    %cst_2 = arith.constant 1.600000e+01 : f32
    %cst_3 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x4x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %2 = tensor.empty() : tensor<2x4x16x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%1 : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.divf %in, %cst_2 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.truncf %cst_1 : f64 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<2x4x16x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.rsqrt %in : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.mulf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3, %8 : tensor<16xf32>, tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.mulf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%10 : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.divf %in, %cst_2 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.truncf %cst_1 : f64 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<2x4x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x4x16x1xf32>) outs(%2 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.rsqrt %in : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %14 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.mulf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %16 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg4, %15 : tensor<16xf32>, tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.mulf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %transposed = linalg.transpose ins(%16 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %17 = tensor.empty() : tensor<8x16x16xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %19 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%18 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded = tensor.expand_shape %19 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.divf %in, %cst_3 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %21 = tensor.empty() : tensor<2x4x16xi64>
    %22 = linalg.fill ins(%c0_i64 : i64) outs(%21 : tensor<2x4x16xi64>) -> tensor<2x4x16xi64>
    %23 = tensor.empty() : tensor<2x4x16xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %25:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<2x4x16x16xf32>) outs(%24, %22 : tensor<2x4x16xf32>, tensor<2x4x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %31 = linalg.index 3 : index
      %32 = arith.index_cast %31 : index to i64
      %33 = arith.maximumf %in, %out : f32
      %34 = arith.cmpf ogt, %in, %out : f32
      %35 = arith.select %34, %32, %out_9 : i64
      linalg.yield %33, %35 : f32, i64
    } -> (tensor<2x4x16xf32>, tensor<2x4x16xi64>)
    %expanded_5 = tensor.expand_shape %25#0 [[0], [1], [2, 3]] output_shape [2, 4, 16, 1] : tensor<2x4x16xf32> into tensor<2x4x16x1xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %expanded_5 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.subf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<2x4x16x16xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.exp %in : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%27 : tensor<2x4x16x16xf32>) outs(%3 : tensor<2x4x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.addf %in, %out : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x1xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %28 : tensor<2x4x16x16xf32>, tensor<2x4x16x1xf32>) outs(%0 : tensor<2x4x16x16xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %31 = arith.divf %in, %in_9 : f32
      linalg.yield %31 : f32
    } -> tensor<2x4x16x16xf32>
    %collapsed_6 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x16x16xf32> into tensor<8x16x16xf32>
    %30 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%18 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %expanded_8 = tensor.expand_shape %30 [[0, 1], [2], [3]] output_shape [2, 4, 16, 16] : tensor<8x16x16xf32> into tensor<2x4x16x16xf32>
    return %expanded_8 : tensor<2x4x16x16xf32>
  }
}
