// corpus vit_mlp_block (vit), small: x 8x64, layernorm_after.weight 64, layernorm_after.bias 64, fc1.weight 96x64, fc1.bias 96, fc2.weight 64x96, fc2.bias 64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @vit_mlp_block(%arg0: tensor<8x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<96x64xf32>, %arg4: tensor<96xf32>, %arg5: tensor<64x96xf32>, %arg6: tensor<64xf32>) -> tensor<8x64xf32> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 5.000000e-01 : f32
    %cst_3 = arith.constant 9.9999999999999998E-13 : f64
    %cst_4 = arith.constant 6.400000e+01 : f64
    %cst_5 = arith.constant 6.400000e+01 : f32
    %cst_6 = arith.constant 1.41421354 : f32
    %0 = tensor.empty() : tensor<8x64xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x64xf32>) outs(%0 : tensor<8x64xf64>) {
    ^bb0(%in: f32, %out: f64):
      %33 = arith.extf %in : f32 to f64
      linalg.yield %33 : f64
    } -> tensor<8x64xf64>
    %2 = tensor.empty() : tensor<8x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<8x1xf64>) -> tensor<8x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x64xf64>) outs(%3 : tensor<8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %33 = arith.addf %in, %out : f64
      linalg.yield %33 : f64
    } -> tensor<8x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x1xf64>) outs(%2 : tensor<8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %33 = arith.divf %in, %cst_4 : f64
      linalg.yield %33 : f64
    } -> tensor<8x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %5 : tensor<8x64xf64>, tensor<8x1xf64>) outs(%0 : tensor<8x64xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %33 = arith.subf %in, %in_8 : f64
      linalg.yield %33 : f64
    } -> tensor<8x64xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %6 : tensor<8x64xf64>, tensor<8x64xf64>) outs(%0 : tensor<8x64xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %33 = arith.mulf %in, %in_8 : f64
      linalg.yield %33 : f64
    } -> tensor<8x64xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<8x64xf64>) outs(%3 : tensor<8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %33 = arith.addf %in, %out : f64
      linalg.yield %33 : f64
    } -> tensor<8x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<8x1xf64>) outs(%2 : tensor<8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %33 = arith.divf %in, %cst_4 : f64
      linalg.yield %33 : f64
    } -> tensor<8x1xf64>
    %10 = tensor.empty() : tensor<8x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<8x1xf64>) outs(%10 : tensor<8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %33 = arith.truncf %in : f64 to f32
      linalg.yield %33 : f32
    } -> tensor<8x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x64xf32>) outs(%12 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.addf %in, %out : f32
      linalg.yield %33 : f32
    } -> tensor<8x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<8x1xf32>) outs(%10 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.divf %in, %cst_5 : f32
      linalg.yield %33 : f32
    } -> tensor<8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<8x1xf32>) outs(%10 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.truncf %cst_3 : f64 to f32
      %34 = arith.addf %in, %33 : f32
      linalg.yield %34 : f32
    } -> tensor<8x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<8x1xf32>) outs(%10 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = math.rsqrt %in : f32
      linalg.yield %33 : f32
    } -> tensor<8x1xf32>
    %17 = tensor.empty() : tensor<8x64xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %14 : tensor<8x64xf32>, tensor<8x1xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.subf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %16 : tensor<8x64xf32>, tensor<8x1xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.mulf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %arg1 : tensor<8x64xf32>, tensor<64xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.mulf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %arg2 : tensor<8x64xf32>, tensor<64xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.addf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    %22 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg3 : tensor<96x64xf32>) outs(%22 : tensor<64x96xf32>) permutation = [1, 0] 
    %23 = tensor.empty() : tensor<8x96xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %25 = linalg.matmul ins(%21, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%24 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%25, %arg4 : tensor<8x96xf32>, tensor<96xf32>) outs(%23 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.addf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x96xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%26 : tensor<8x96xf32>) outs(%23 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %33 = arith.divf %in, %cst_6 : f32
      %34 = math.erf %33 : f32
      %35 = arith.addf %34, %cst_1 : f32
      %36 = arith.mulf %35, %cst_2 : f32
      %37 = arith.mulf %in, %36 : f32
      linalg.yield %37 : f32
    } -> tensor<8x96xf32>
    %28 = tensor.empty() : tensor<96x64xf32>
    %transposed_7 = linalg.transpose ins(%arg5 : tensor<64x96xf32>) outs(%28 : tensor<96x64xf32>) permutation = [1, 0] 
    %29 = linalg.fill ins(%cst_0 : f32) outs(%17 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %30 = linalg.matmul ins(%27, %transposed_7 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%29 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%30, %arg6 : tensor<8x64xf32>, tensor<64xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.addf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    %32 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %31 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%17 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %33 = arith.addf %in, %in_8 : f32
      linalg.yield %33 : f32
    } -> tensor<8x64xf32>
    return %32 : tensor<8x64xf32>
  }
}
