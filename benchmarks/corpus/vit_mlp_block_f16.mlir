// corpus vit_mlp_block (vit), f16: x 256x2048, layernorm_after.weight 2048, layernorm_after.bias 2048, fc1.weight 8192x2048, fc1.bias 8192, fc2.weight 2048x8192, fc2.bias 2048.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0) -> (d0)>
module {
  func.func @vit_mlp_block(%arg0: tensor<256x2048xf16>, %arg1: tensor<2048xf16>, %arg2: tensor<2048xf16>, %arg3: tensor<8192x2048xf16>, %arg4: tensor<8192xf16>, %arg5: tensor<2048x8192xf16>, %arg6: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f16
    %cst_2 = arith.constant 2.000000e+00 : f16
    %cst_3 = arith.constant 5.000000e-01 : f16
    %cst_4 = arith.constant 9.9999999999999998E-13 : f64
    %cst_5 = arith.constant 2.048000e+03 : f64
    %cst_6 = arith.constant 2.048000e+03 : f32
    %0 = tensor.empty() : tensor<256x2048xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<256x2048xf16>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<256x2048xf32>
    %2 = tensor.empty() : tensor<256x2048xf64>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<256x2048xf32>) outs(%2 : tensor<256x2048xf64>) {
    ^bb0(%in: f32, %out: f64):
      %49 = arith.extf %in : f32 to f64
      linalg.yield %49 : f64
    } -> tensor<256x2048xf64>
    %4 = tensor.empty() : tensor<256x1xf64>
    %5 = linalg.fill ins(%cst : f64) outs(%4 : tensor<256x1xf64>) -> tensor<256x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<256x2048xf64>) outs(%5 : tensor<256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %49 = arith.addf %in, %out : f64
      linalg.yield %49 : f64
    } -> tensor<256x1xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<256x1xf64>) outs(%4 : tensor<256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %49 = arith.divf %in, %cst_5 : f64
      linalg.yield %49 : f64
    } -> tensor<256x1xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %7 : tensor<256x2048xf64>, tensor<256x1xf64>) outs(%2 : tensor<256x2048xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %49 = arith.subf %in, %in_8 : f64
      linalg.yield %49 : f64
    } -> tensor<256x2048xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %8 : tensor<256x2048xf64>, tensor<256x2048xf64>) outs(%2 : tensor<256x2048xf64>) {
    ^bb0(%in: f64, %in_8: f64, %out: f64):
      %49 = arith.mulf %in, %in_8 : f64
      linalg.yield %49 : f64
    } -> tensor<256x2048xf64>
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%9 : tensor<256x2048xf64>) outs(%5 : tensor<256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %49 = arith.addf %in, %out : f64
      linalg.yield %49 : f64
    } -> tensor<256x1xf64>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<256x1xf64>) outs(%4 : tensor<256x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %49 = arith.divf %in, %cst_5 : f64
      linalg.yield %49 : f64
    } -> tensor<256x1xf64>
    %12 = tensor.empty() : tensor<256x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<256x1xf64>) outs(%12 : tensor<256x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %49 = arith.truncf %in : f64 to f32
      linalg.yield %49 : f32
    } -> tensor<256x1xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<256x1xf32>) -> tensor<256x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<256x2048xf32>) outs(%14 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %49 = arith.addf %in, %out : f32
      linalg.yield %49 : f32
    } -> tensor<256x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%15 : tensor<256x1xf32>) outs(%12 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %49 = arith.divf %in, %cst_6 : f32
      linalg.yield %49 : f32
    } -> tensor<256x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<256x1xf32>) outs(%12 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %49 = arith.truncf %cst_4 : f64 to f32
      %50 = arith.addf %in, %49 : f32
      linalg.yield %50 : f32
    } -> tensor<256x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<256x1xf32>) outs(%12 : tensor<256x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %49 = math.rsqrt %in : f32
      linalg.yield %49 : f32
    } -> tensor<256x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %16 : tensor<256x2048xf32>, tensor<256x1xf32>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %49 = arith.subf %in, %in_8 : f32
      linalg.yield %49 : f32
    } -> tensor<256x2048xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %18 : tensor<256x2048xf32>, tensor<256x1xf32>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %49 = arith.mulf %in, %in_8 : f32
      linalg.yield %49 : f32
    } -> tensor<256x2048xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %arg1 : tensor<256x2048xf32>, tensor<2048xf16>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f32, %in_8: f16, %out: f32):
      %49 = arith.extf %in_8 : f16 to f32
      %50 = arith.mulf %in, %49 : f32
      linalg.yield %50 : f32
    } -> tensor<256x2048xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %arg2 : tensor<256x2048xf32>, tensor<2048xf16>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f32, %in_8: f16, %out: f32):
      %49 = arith.extf %in_8 : f16 to f32
      %50 = arith.addf %in, %49 : f32
      linalg.yield %50 : f32
    } -> tensor<256x2048xf32>
    %23 = tensor.empty() : tensor<256x2048xf16>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<256x2048xf32>) outs(%23 : tensor<256x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %49 = arith.truncf %in : f32 to f16
      linalg.yield %49 : f16
    } -> tensor<256x2048xf16>
    %25 = tensor.empty() : tensor<2048x8192xf16>
    %transposed = linalg.transpose ins(%arg3 : tensor<8192x2048xf16>) outs(%25 : tensor<2048x8192xf16>) permutation = [1, 0] 
    %26 = tensor.empty() : tensor<8192xf32>
    %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg4 : tensor<8192xf16>) outs(%26 : tensor<8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<8192xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%24 : tensor<256x2048xf16>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<256x2048xf32>
    %29 = tensor.empty() : tensor<2048x8192xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<2048x8192xf16>) outs(%29 : tensor<2048x8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<2048x8192xf32>
    %31 = tensor.empty() : tensor<256x8192xf32>
    %32 = linalg.fill ins(%cst_0 : f32) outs(%31 : tensor<256x8192xf32>) -> tensor<256x8192xf32>
    %33 = linalg.matmul ins(%28, %30 : tensor<256x2048xf32>, tensor<2048x8192xf32>) outs(%32 : tensor<256x8192xf32>) -> tensor<256x8192xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%33, %27 : tensor<256x8192xf32>, tensor<8192xf32>) outs(%31 : tensor<256x8192xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %49 = arith.addf %in, %in_8 : f32
      linalg.yield %49 : f32
    } -> tensor<256x8192xf32>
    %35 = tensor.empty() : tensor<256x8192xf16>
    %36 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%34 : tensor<256x8192xf32>) outs(%35 : tensor<256x8192xf16>) {
    ^bb0(%in: f32, %out: f16):
      %49 = arith.truncf %in : f32 to f16
      linalg.yield %49 : f16
    } -> tensor<256x8192xf16>
    %37 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%36 : tensor<256x8192xf16>) outs(%35 : tensor<256x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %49 = math.sqrt %cst_2 : f16
      %50 = arith.divf %in, %49 : f16
      %51 = math.erf %50 : f16
      %52 = arith.addf %51, %cst_1 : f16
      %53 = arith.mulf %52, %cst_3 : f16
      %54 = arith.mulf %in, %53 : f16
      linalg.yield %54 : f16
    } -> tensor<256x8192xf16>
    %38 = tensor.empty() : tensor<8192x2048xf16>
    %transposed_7 = linalg.transpose ins(%arg5 : tensor<2048x8192xf16>) outs(%38 : tensor<8192x2048xf16>) permutation = [1, 0] 
    %39 = tensor.empty() : tensor<2048xf32>
    %40 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg6 : tensor<2048xf16>) outs(%39 : tensor<2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<2048xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%37 : tensor<256x8192xf16>) outs(%31 : tensor<256x8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<256x8192xf32>
    %42 = tensor.empty() : tensor<8192x2048xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed_7 : tensor<8192x2048xf16>) outs(%42 : tensor<8192x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %49 = arith.extf %in : f16 to f32
      linalg.yield %49 : f32
    } -> tensor<8192x2048xf32>
    %44 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %45 = linalg.matmul ins(%41, %43 : tensor<256x8192xf32>, tensor<8192x2048xf32>) outs(%44 : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%45, %40 : tensor<256x2048xf32>, tensor<2048xf32>) outs(%0 : tensor<256x2048xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %49 = arith.addf %in, %in_8 : f32
      linalg.yield %49 : f32
    } -> tensor<256x2048xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%46 : tensor<256x2048xf32>) outs(%23 : tensor<256x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %49 = arith.truncf %in : f32 to f16
      linalg.yield %49 : f16
    } -> tensor<256x2048xf16>
    %48 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %47 : tensor<256x2048xf16>, tensor<256x2048xf16>) outs(%23 : tensor<256x2048xf16>) {
    ^bb0(%in: f16, %in_8: f16, %out: f16):
      %49 = arith.addf %in, %in_8 : f16
      linalg.yield %49 : f16
    } -> tensor<256x2048xf16>
    return %48 : tensor<256x2048xf16>
  }
}
