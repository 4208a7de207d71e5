// corpus llama_mlp_block (llama), small: h 8x64, post_attention_layernorm.weight 64, mlp.gate_proj.weight 96x64, mlp.up_proj.weight 96x64, mlp.down_proj.weight 64x96.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @llama_mlp_block(%arg0: tensor<8x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<96x64xf32>, %arg3: tensor<96x64xf32>, %arg4: tensor<64x96xf32>) -> tensor<8x64xf32> {
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 9.9999999999999995E-7 : f64
    %cst_2 = arith.constant 6.400000e+01 : f32
    %0 = tensor.empty() : tensor<8x64xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %22 : f32
    } -> tensor<8x64xf32>
    %2 = tensor.empty() : tensor<8x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x64xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.addf %in, %out : f32
      linalg.yield %22 : f32
    } -> tensor<8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.divf %in, %cst_2 : f32
      linalg.yield %22 : f32
    } -> tensor<8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.truncf %cst_1 : f64 to f32
      %23 = arith.addf %in, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = math.rsqrt %in : f32
      linalg.yield %22 : f32
    } -> tensor<8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<8x64xf32>, tensor<8x1xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %22 = arith.mulf %in, %in_5 : f32
      linalg.yield %22 : f32
    } -> tensor<8x64xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %8 : tensor<64xf32>, tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %22 = arith.mulf %in, %in_5 : f32
      linalg.yield %22 : f32
    } -> tensor<8x64xf32>
    %10 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<96x64xf32>) outs(%10 : tensor<64x96xf32>) permutation = [1, 0] 
    %11 = tensor.empty() : tensor<8x96xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %13 = linalg.matmul ins(%9, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%12 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<8x96xf32>) outs(%11 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.negf %in : f32
      %23 = math.exp %22 : f32
      %24 = arith.addf %23, %cst_0 : f32
      %25 = arith.divf %cst_0, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<8x96xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %14 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%11 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %22 = arith.mulf %in, %in_5 : f32
      linalg.yield %22 : f32
    } -> tensor<8x96xf32>
    %transposed_3 = linalg.transpose ins(%arg3 : tensor<96x64xf32>) outs(%10 : tensor<64x96xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%9, %transposed_3 : tensor<8x64xf32>, tensor<64x96xf32>) outs(%12 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %16 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%11 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %22 = arith.mulf %in, %in_5 : f32
      linalg.yield %22 : f32
    } -> tensor<8x96xf32>
    %18 = tensor.empty() : tensor<96x64xf32>
    %transposed_4 = linalg.transpose ins(%arg4 : tensor<64x96xf32>) outs(%18 : tensor<96x64xf32>) permutation = [1, 0] 
    %19 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %20 = linalg.matmul ins(%17, %transposed_4 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%19 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %20 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%0 : tensor<8x64xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %22 = arith.addf %in, %in_5 : f32
      linalg.yield %22 : f32
    } -> tensor<8x64xf32>
    return %21 : tensor<8x64xf32>
  }
}
