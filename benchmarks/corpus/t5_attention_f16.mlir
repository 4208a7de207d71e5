// corpus t5_attention (t5), f16: q 2x32x1024x128, k 2x32x1024x128, v 2x32x1024x128.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @t5_attention(%arg0: tensor<2x32x1024x128xf16>, %arg1: tensor<2x32x1024x128xf16>, %arg2: tensor<2x32x1024x128xf16>) -> tensor<2x32x1024x128xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<2x32x128x1024xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x32x1024x128xf16>) outs(%0 : tensor<2x32x128x1024xf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %collapsed_1 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x32x128x1024xf16> into tensor<64x128x1024xf16>
    %1 = tensor.empty() : tensor<64x1024x1024xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_1 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16>) outs(%2 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %4 = tensor.empty() : tensor<64x1024x1024xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<64x1024x1024xf32>) outs(%4 : tensor<64x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %26 = arith.truncf %in : f32 to f16
      linalg.yield %26 : f16
    } -> tensor<64x1024x1024xf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 1024] : tensor<64x1024x1024xf16> into tensor<2x32x1024x1024xf16>
    %6 = tensor.empty() : tensor<2x32x1024x1024xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x32x1024x1024xf16>) outs(%6 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %26 = arith.extf %in : f16 to f32
      linalg.yield %26 : f32
    } -> tensor<2x32x1024x1024xf32>
    %8 = tensor.empty() : tensor<2x32x1024xi64>
    %9 = linalg.fill ins(%c0_i64 : i64) outs(%8 : tensor<2x32x1024xi64>) -> tensor<2x32x1024xi64>
    %10 = tensor.empty() : tensor<2x32x1024xf32>
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x32x1024xf32>) -> tensor<2x32x1024xf32>
    %12:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%7 : tensor<2x32x1024x1024xf32>) outs(%11, %9 : tensor<2x32x1024xf32>, tensor<2x32x1024xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %26 = linalg.index 3 : index
      %27 = arith.index_cast %26 : index to i64
      %28 = arith.maximumf %in, %out : f32
      %29 = arith.cmpf ogt, %in, %out : f32
      %30 = arith.select %29, %27, %out_6 : i64
      linalg.yield %28, %30 : f32, i64
    } -> (tensor<2x32x1024xf32>, tensor<2x32x1024xi64>)
    %expanded_2 = tensor.expand_shape %12#0 [[0], [1], [2, 3]] output_shape [2, 32, 1024, 1] : tensor<2x32x1024xf32> into tensor<2x32x1024x1xf32>
    %13 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_2 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%6 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %26 = arith.subf %in, %in_6 : f32
      linalg.yield %26 : f32
    } -> tensor<2x32x1024x1024xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x32x1024x1024xf32>) outs(%6 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = math.exp %in : f32
      linalg.yield %26 : f32
    } -> tensor<2x32x1024x1024xf32>
    %15 = tensor.empty() : tensor<2x32x1024x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x32x1024x1xf32>) -> tensor<2x32x1024x1xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x32x1024x1024xf32>) outs(%16 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.addf %in, %out : f32
      linalg.yield %26 : f32
    } -> tensor<2x32x1024x1xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %17 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%6 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %26 = arith.divf %in, %in_6 : f32
      linalg.yield %26 : f32
    } -> tensor<2x32x1024x1024xf32>
    %19 = tensor.empty() : tensor<2x32x1024x1024xf16>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<2x32x1024x1024xf32>) outs(%19 : tensor<2x32x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %26 = arith.truncf %in : f32 to f16
      linalg.yield %26 : f16
    } -> tensor<2x32x1024x1024xf16>
    %collapsed_3 = tensor.collapse_shape %20 [[0, 1], [2], [3]] : tensor<2x32x1024x1024xf16> into tensor<64x1024x1024xf16>
    %collapsed_4 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %21 = tensor.empty() : tensor<64x1024x128xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %23 = linalg.batch_matmul ins(%collapsed_3, %collapsed_4 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16>) outs(%22 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %24 = tensor.empty() : tensor<64x1024x128xf16>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<64x1024x128xf32>) outs(%24 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %26 = arith.truncf %in : f32 to f16
      linalg.yield %26 : f16
    } -> tensor<64x1024x128xf16>
    %expanded_5 = tensor.expand_shape %25 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 128] : tensor<64x1024x128xf16> into tensor<2x32x1024x128xf16>
    return %expanded_5 : tensor<2x32x1024x128xf16>
  }
}
