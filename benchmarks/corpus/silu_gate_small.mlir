// corpus silu_gate (llama), small: x 8x64, gate_proj.weight 96x64, up_proj.weight 96x64.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @silu_gate(%arg0: tensor<8x64xf32>, %arg1: tensor<96x64xf32>, %arg2: tensor<96x64xf32>) -> tensor<8x96xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x96xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.negf %in : f32
      %9 = math.exp %8 : f32
      %10 = arith.addf %9, %cst_0 : f32
      %11 = arith.divf %cst_0, %10 : f32
      linalg.yield %11 : f32
    } -> tensor<8x96xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %8 = arith.mulf %in, %in_2 : f32
      linalg.yield %8 : f32
    } -> tensor<8x96xf32>
    %transposed_1 = linalg.transpose ins(%arg2 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %6 = linalg.matmul ins(%arg0, %transposed_1 : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %6 : tensor<8x96xf32>, tensor<8x96xf32>) outs(%1 : tensor<8x96xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %8 = arith.mulf %in, %in_2 : f32
      linalg.yield %8 : f32
    } -> tensor<8x96xf32>
    return %7 : tensor<8x96xf32>
  }
}
