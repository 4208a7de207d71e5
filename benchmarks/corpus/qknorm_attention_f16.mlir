// corpus qknorm_attention (llama), f16: q 2x32x1024x128, k 2x32x1024x128, v 2x32x1024x128, q_norm.weight 128, k_norm.weight 128.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d3)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @qknorm_attention(%arg0: tensor<2x32x1024x128xf16>, %arg1: tensor<2x32x1024x128xf16>, %arg2: tensor<2x32x1024x128xf16>, %arg3: tensor<128xf16>, %arg4: tensor<128xf16>) -> tensor<2x32x1024x128xf16> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 11.313708498984761 : f64
    %cst_2 = arith.constant 9.9999999999999995E-7 : f64
    %cst_3 = arith.constant 1.280000e+02 : f32
    %0 = tensor.empty() : tensor<2x32x1024x128xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x32x1024x128xf16>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %47 = arith.extf %in : f16 to f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x32x1024x128xf32>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %3 = tensor.empty() : tensor<2x32x1024x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x32x1024x1xf32>) -> tensor<2x32x1024x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%2 : tensor<2x32x1024x128xf32>) outs(%4 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.addf %in, %out : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.divf %in, %cst_3 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.truncf %cst_2 : f64 to f32
      %48 = arith.addf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<2x32x1024x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = math.rsqrt %in : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %8 : tensor<2x32x1024x128xf32>, tensor<2x32x1024x1xf32>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %47 = arith.mulf %in, %in_9 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %10 = tensor.empty() : tensor<2x32x1024x128xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<2x32x1024x128xf32>) outs(%10 : tensor<2x32x1024x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %47 = arith.truncf %in : f32 to f16
      linalg.yield %47 : f16
    } -> tensor<2x32x1024x128xf16>
    %12 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3, %11 : tensor<128xf16>, tensor<2x32x1024x128xf16>) outs(%10 : tensor<2x32x1024x128xf16>) {
    ^bb0(%in: f16, %in_9: f16, %out: f16):
      %47 = arith.mulf %in, %in_9 : f16
      linalg.yield %47 : f16
    } -> tensor<2x32x1024x128xf16>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x32x1024x128xf16>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %47 = arith.extf %in : f16 to f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x32x1024x128xf32>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x32x1024x128xf32>) outs(%4 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.addf %in, %out : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.divf %in, %cst_3 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.truncf %cst_2 : f64 to f32
      %48 = arith.addf %in, %47 : f32
      linalg.yield %48 : f32
    } -> tensor<2x32x1024x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<2x32x1024x1xf32>) outs(%3 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = math.rsqrt %in : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %18 : tensor<2x32x1024x128xf32>, tensor<2x32x1024x1xf32>) outs(%0 : tensor<2x32x1024x128xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %47 = arith.mulf %in, %in_9 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x128xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x32x1024x128xf32>) outs(%10 : tensor<2x32x1024x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %47 = arith.truncf %in : f32 to f16
      linalg.yield %47 : f16
    } -> tensor<2x32x1024x128xf16>
    %21 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg4, %20 : tensor<128xf16>, tensor<2x32x1024x128xf16>) outs(%10 : tensor<2x32x1024x128xf16>) {
    ^bb0(%in: f16, %in_9: f16, %out: f16):
      %47 = arith.mulf %in, %in_9 : f16
      linalg.yield %47 : f16
    } -> tensor<2x32x1024x128xf16>
    %22 = tensor.empty() : tensor<2x32x128x1024xf16>
    %transposed = linalg.transpose ins(%21 : tensor<2x32x1024x128xf16>) outs(%22 : tensor<2x32x128x1024xf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %12 [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x32x128x1024xf16> into tensor<64x128x1024xf16>
    %23 = tensor.empty() : tensor<64x1024x1024xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %25 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<64x1024x128xf16>, tensor<64x128x1024xf16>) outs(%24 : tensor<64x1024x1024xf32>) -> tensor<64x1024x1024xf32>
    %26 = tensor.empty() : tensor<64x1024x1024xf16>
    %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25 : tensor<64x1024x1024xf32>) outs(%26 : tensor<64x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %47 = arith.truncf %in : f32 to f16
      linalg.yield %47 : f16
    } -> tensor<64x1024x1024xf16>
    %expanded = tensor.expand_shape %27 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 1024] : tensor<64x1024x1024xf16> into tensor<2x32x1024x1024xf16>
    %28 = tensor.empty() : tensor<2x32x1024x1024xf16>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x32x1024x1024xf16>) outs(%28 : tensor<2x32x1024x1024xf16>) {
    ^bb0(%in: f16, %out: f16):
      %47 = arith.truncf %cst_1 : f64 to f16
      %48 = arith.divf %in, %47 : f16
      linalg.yield %48 : f16
    } -> tensor<2x32x1024x1024xf16>
    %30 = tensor.empty() : tensor<2x32x1024x1024xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<2x32x1024x1024xf16>) outs(%30 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %47 = arith.extf %in : f16 to f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1024xf32>
    %32 = tensor.empty() : tensor<2x32x1024xi64>
    %33 = linalg.fill ins(%c0_i64 : i64) outs(%32 : tensor<2x32x1024xi64>) -> tensor<2x32x1024xi64>
    %34 = tensor.empty() : tensor<2x32x1024xf32>
    %35 = linalg.fill ins(%cst_0 : f32) outs(%34 : tensor<2x32x1024xf32>) -> tensor<2x32x1024xf32>
    %36:2 = linalg.generic {indexing_maps = [#map, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%31 : tensor<2x32x1024x1024xf32>) outs(%35, %33 : tensor<2x32x1024xf32>, tensor<2x32x1024xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %47 = linalg.index 3 : index
      %48 = arith.index_cast %47 : index to i64
      %49 = arith.maximumf %in, %out : f32
      %50 = arith.cmpf ogt, %in, %out : f32
      %51 = arith.select %50, %48, %out_9 : i64
      linalg.yield %49, %51 : f32, i64
    } -> (tensor<2x32x1024xf32>, tensor<2x32x1024xi64>)
    %expanded_5 = tensor.expand_shape %36#0 [[0], [1], [2, 3]] output_shape [2, 32, 1024, 1] : tensor<2x32x1024xf32> into tensor<2x32x1024x1xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %expanded_5 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%30 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %47 = arith.subf %in, %in_9 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1024xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37 : tensor<2x32x1024x1024xf32>) outs(%30 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = math.exp %in : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1024xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%38 : tensor<2x32x1024x1024xf32>) outs(%4 : tensor<2x32x1024x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.addf %in, %out : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38, %39 : tensor<2x32x1024x1024xf32>, tensor<2x32x1024x1xf32>) outs(%30 : tensor<2x32x1024x1024xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %47 = arith.divf %in, %in_9 : f32
      linalg.yield %47 : f32
    } -> tensor<2x32x1024x1024xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40 : tensor<2x32x1024x1024xf32>) outs(%28 : tensor<2x32x1024x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %47 = arith.truncf %in : f32 to f16
      linalg.yield %47 : f16
    } -> tensor<2x32x1024x1024xf16>
    %collapsed_6 = tensor.collapse_shape %41 [[0, 1], [2], [3]] : tensor<2x32x1024x1024xf16> into tensor<64x1024x1024xf16>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x32x1024x128xf16> into tensor<64x1024x128xf16>
    %42 = tensor.empty() : tensor<64x1024x128xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %44 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<64x1024x1024xf16>, tensor<64x1024x128xf16>) outs(%43 : tensor<64x1024x128xf32>) -> tensor<64x1024x128xf32>
    %45 = tensor.empty() : tensor<64x1024x128xf16>
    %46 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<64x1024x128xf32>) outs(%45 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %47 = arith.truncf %in : f32 to f16
      linalg.yield %47 : f16
    } -> tensor<64x1024x128xf16>
    %expanded_8 = tensor.expand_shape %46 [[0, 1], [2], [3]] output_shape [2, 32, 1024, 128] : tensor<64x1024x128xf16> into tensor<2x32x1024x128xf16>
    return %expanded_8 : tensor<2x32x1024x128xf16>
  }
}
