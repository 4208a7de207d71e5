// corpus gelu_tanh_mlp (gpt2), f16: x 64x2048, c_fc.weight 8192x2048, c_fc.bias 8192, c_proj.weight 2048x8192, c_proj.bias 2048.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @gelu_tanh_mlp(%arg0: tensor<64x2048xf16>, %arg1: tensor<8192x2048xf16>, %arg2: tensor<8192xf16>, %arg3: tensor<2048x8192xf16>, %arg4: tensor<2048xf16>) -> tensor<64x2048xf16> {
    %c3_i64 = arith.constant 3 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.79788456080286541 : f64
    %cst_1 = arith.constant 4.471500e-02 : f64
    %cst_2 = arith.constant 5.000000e-01 : f16
    %cst_3 = arith.constant 1.000000e+00 : f16
    %0 = tensor.empty() : tensor<2048x8192xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<8192x2048xf16>) outs(%0 : tensor<2048x8192xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8192xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg2 : tensor<8192xf16>) outs(%1 : tensor<8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<8192xf32>
    %3 = tensor.empty() : tensor<64x2048xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<64x2048xf16>) outs(%3 : tensor<64x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<64x2048xf32>
    %5 = tensor.empty() : tensor<2048x8192xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<2048x8192xf16>) outs(%5 : tensor<2048x8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<2048x8192xf32>
    %7 = tensor.empty() : tensor<64x8192xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %9 = linalg.matmul ins(%4, %6 : tensor<64x2048xf32>, tensor<2048x8192xf32>) outs(%8 : tensor<64x8192xf32>) -> tensor<64x8192xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%9, %2 : tensor<64x8192xf32>, tensor<8192xf32>) outs(%7 : tensor<64x8192xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %32 = arith.addf %in, %in_5 : f32
      linalg.yield %32 : f32
    } -> tensor<64x8192xf32>
    %11 = tensor.empty() : tensor<64x8192xf16>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<64x8192xf32>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f32, %out: f16):
      %32 = arith.truncf %in : f32 to f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %13 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = arith.mulf %in, %cst_2 : f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %14 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = math.fpowi %in, %c3_i64 : f16, i64
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %15 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = arith.truncf %cst_1 : f64 to f16
      %33 = arith.mulf %in, %32 : f16
      linalg.yield %33 : f16
    } -> tensor<64x8192xf16>
    %16 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%12, %15 : tensor<64x8192xf16>, tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %in_5: f16, %out: f16):
      %32 = arith.addf %in, %in_5 : f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = arith.truncf %cst_0 : f64 to f16
      %33 = arith.mulf %in, %32 : f16
      linalg.yield %33 : f16
    } -> tensor<64x8192xf16>
    %18 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = math.tanh %in : f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%18 : tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %out: f16):
      %32 = arith.addf %in, %cst_3 : f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%13, %19 : tensor<64x8192xf16>, tensor<64x8192xf16>) outs(%11 : tensor<64x8192xf16>) {
    ^bb0(%in: f16, %in_5: f16, %out: f16):
      %32 = arith.mulf %in, %in_5 : f16
      linalg.yield %32 : f16
    } -> tensor<64x8192xf16>
    %21 = tensor.empty() : tensor<8192x2048xf16>
    %transposed_4 = linalg.transpose ins(%arg3 : tensor<2048x8192xf16>) outs(%21 : tensor<8192x2048xf16>) permutation = [1, 0] 
    %22 = tensor.empty() : tensor<2048xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg4 : tensor<2048xf16>) outs(%22 : tensor<2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<2048xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<64x8192xf16>) outs(%7 : tensor<64x8192xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<64x8192xf32>
    %25 = tensor.empty() : tensor<8192x2048xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed_4 : tensor<8192x2048xf16>) outs(%25 : tensor<8192x2048xf32>) {
    ^bb0(%in: f16, %out: f32):
      %32 = arith.extf %in : f16 to f32
      linalg.yield %32 : f32
    } -> tensor<8192x2048xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%3 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %28 = linalg.matmul ins(%24, %26 : tensor<64x8192xf32>, tensor<8192x2048xf32>) outs(%27 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%28, %23 : tensor<64x2048xf32>, tensor<2048xf32>) outs(%3 : tensor<64x2048xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %32 = arith.addf %in, %in_5 : f32
      linalg.yield %32 : f32
    } -> tensor<64x2048xf32>
    %30 = tensor.empty() : tensor<64x2048xf16>
    %31 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%29 : tensor<64x2048xf32>) outs(%30 : tensor<64x2048xf16>) {
    ^bb0(%in: f32, %out: f16):
      %32 = arith.truncf %in : f32 to f16
      linalg.yield %32 : f16
    } -> tensor<64x2048xf16>
    return %31 : tensor<64x2048xf16>
  }
}
