// corpus multi_head_attention (gpt2), f16: q 2x1024x4096, k 2x1024x4096, v 2x1024x4096.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @multi_head_attention(%arg0: tensor<2x1024x4096xf16>, %arg1: tensor<2x1024x4096xf16>, %arg2: tensor<2x1024x4096xf16>) -> tensor<2x1024x4096xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.088388347648318433 : f64
    %expanded = tensor.expand_shape %arg0 [[0], [1], [2, 3]] output_shape [2, 1024, 32, 128] : tensor<2x1024x4096xf16> into tensor<2x1024x32x128xf16>
    %0 = tensor.empty() : tensor<2x32x1024x128xf16>
    %transposed = linalg.transpose ins(%expanded : tensor<2x1024x32x128xf16>) outs(%0 : tensor<2x32x1024x128xf16>) permutation = [0, 2, 1, 3] 
    %expanded_2 = tensor.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [2, 1024, 32, 128] : tensor<2x1024x4096xf16> into tensor<2x1024x32x128xf16>
    %expanded_3 = tensor.expand_shape %arg2 [[0], [1], [2, 3]] output_shape [2, 1024, 32, 128] : tensor<2x1024x4096xf16> into tensor<2x1024x32x128xf16>
    %transposed_4 = linalg.transpose ins(%expanded_3 : tensor<2x1024x32x128xf16>) outs(%0 : tensor<2x32x1024x128xf16>) permutation = [0, 2, 1, 3] 
    %1 = tensor.empty() : tensor<2x32x128x1024xf16>
    %transposed_5 = linalg.transpose ins(%expanded_2 : tensor<2x1024x32x128xf16>) outs(%1 : tensor<2x32x128x1024xf16>) permutation = [0, 2, 3, 1] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %collapsed_6 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<2x32x128x1024xf16> into tensor<64x128x1024xf16>
    %2 = tensor.empty() : tensor<64x1024x1024xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %4 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16>) outs(%3 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %5 = tensor.empty() : tensor<64x1024x1024xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<64x1024x1024xf32>) outs(%5 : tensor<64x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %29 = arith.truncf %in : f32 to f16
      linalg.yield %29 : f16
    } -> tensor<64x1024x1024xf16>
    %expanded_7 = tensor.expand_shape %6 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 1024] : tensor<64x1024x1024xf16> into tensor<2x32x1024x1024xf16>
    %7 = tensor.empty() : tensor<2x32x1024x1024xf16>
    %8 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7 : tensor<2x32x1024x1024xf16>) outs(%7 : tensor<2x32x1024x1024xf16>) {
    ^bb0(%in: f16, %out: f16):
      %29 = arith.truncf %cst_1 : f64 to f16
      %30 = arith.mulf %in, %29 : f16
      linalg.yield %30 : f16
    } -> tensor<2x32x1024x1024xf16>
    %9 = tensor.empty() : tensor<2x32x1024x1024xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x32x1024x1024xf16>) outs(%9 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %29 = arith.extf %in : f16 to f32
      linalg.yield %29 : f32
    } -> tensor<2x32x1024x1024xf32>
    %11 = tensor.empty() : tensor<2x32x1024xi64>
    %12 = linalg.fill ins(%c0_i64 : i64) outs(%11 : tensor<2x32x1024xi64>) -> tensor<2x32x1024xi64>
    %13 = tensor.empty() : tensor<2x32x1024xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<2x32x1024xf32>) -> tensor<2x32x1024xf32>
    %15:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%10 : tensor<2x32x1024x1024xf32>) outs(%14, %12 : tensor<2x32x1024xf32>, tensor<2x32x1024xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_14 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x32x1024xf32>, tensor<2x32x1024xi64>)
    %expanded_8 = tensor.expand_shape %15#0 [[0], [1], [2, 3]] output_shape [2, 32, 1024, 1] : tensor<2x32x1024xf32> into tensor<2x32x1024x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %expanded_8 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%9 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %29 = arith.subf %in, %in_14 : f32
      linalg.yield %29 : f32
    } -> tensor<2x32x1024x1024xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x32x1024x1024xf32>) outs(%9 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x32x1024x1024xf32>
    %18 = tensor.empty() : tensor<2x32x1024x1xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x32x1024x1xf32>) -> tensor<2x32x1024x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17 : tensor<2x32x1024x1024xf32>) outs(%19 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x32x1024x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%9 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %29 = arith.divf %in, %in_14 : f32
      linalg.yield %29 : f32
    } -> tensor<2x32x1024x1024xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<2x32x1024x1024xf32>) outs(%7 : tensor<2x32x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %29 = arith.truncf %in : f32 to f16
      linalg.yield %29 : f16
    } -> tensor<2x32x1024x1024xf16>
    %collapsed_9 = tensor.collapse_shape %22 [[0, 1], [2], [3]] : tensor<2x32x1024x1024xf16> into tensor<64x1024x1024xf16>
    %collapsed_10 = tensor.collapse_shape %transposed_4 [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %23 = tensor.empty() : tensor<64x1024x128xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %25 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16>) outs(%24 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %26 = tensor.empty() : tensor<64x1024x128xf16>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25 : tensor<64x1024x128xf32>) outs(%26 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %29 = arith.truncf %in : f32 to f16
      linalg.yield %29 : f16
    } -> tensor<64x1024x128xf16>
    %expanded_11 = tensor.expand_shape %27 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 128] : tensor<64x1024x128xf16> into tensor<2x32x1024x128xf16>
    %28 = tensor.empty() : tensor<2x1024x32x128xf16>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<2x32x1024x128xf16>) outs(%28 : tensor<2x1024x32x128xf16>) permutation = [0, 2, 1, 3] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<2x1024x32x128xf16> into tensor<2x1024x4096xf16>
    return %collapsed_13 : tensor<2x1024x4096xf16>
  }
}
