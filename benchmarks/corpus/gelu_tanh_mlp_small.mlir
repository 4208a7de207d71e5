// corpus gelu_tanh_mlp (gpt2), small: x 8x64, c_fc.weight 96x64, c_fc.bias 96, c_proj.weight 64x96, c_proj.bias 64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @gelu_tanh_mlp(%arg0: tensor<8x64xf32>, %arg1: tensor<96x64xf32>, %arg2: tensor<96xf32>, %arg3: tensor<64x96xf32>, %arg4: tensor<64xf32>) -> tensor<8x64xf32> {
    %c3_i64 = arith.constant 3 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.79788456080286541 : f64
    %cst_1 = arith.constant 4.471500e-02 : f64
    %cst_2 = arith.constant 5.000000e-01 : f32
    %cst_3 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x96xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<8x96xf32>, tensor<96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %18 = arith.addf %in, %in_5 : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.mulf %in, %cst_2 : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.truncf %cst_1 : f64 to f32
      %19 = arith.mulf %in, %18 : f32
      linalg.yield %19 : f32
    } -> tensor<8x96xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %7 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %18 = arith.addf %in, %in_5 : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.truncf %cst_0 : f64 to f32
      %19 = arith.mulf %in, %18 : f32
      linalg.yield %19 : f32
    } -> tensor<8x96xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = math.tanh %in : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.addf %in, %cst_3 : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %11 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %18 = arith.mulf %in, %in_5 : f32
      linalg.yield %18 : f32
    } -> tensor<8x96xf32>
    %13 = tensor.empty() : tensor<96x64xf32>
    %transposed_4 = linalg.transpose ins(%arg3 : tensor<64x96xf32>) outs(%13 : tensor<96x64xf32>) permutation = [1, 0] 
    %14 = tensor.empty() : tensor<8x64xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %16 = linalg.matmul ins(%12, %transposed_4 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%15 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %arg4 : tensor<8x64xf32>, tensor<64xf32>) outs(%14 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %18 = arith.addf %in, %in_5 : f32
      linalg.yield %18 : f32
    } -> tensor<8x64xf32>
    return %17 : tensor<8x64xf32>
  }
}
