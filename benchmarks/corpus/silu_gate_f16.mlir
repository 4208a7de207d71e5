// corpus silu_gate (llama), f16: x 16x4096, gate_proj.weight 11008x4096, up_proj.weight 11008x4096.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @silu_gate(%arg0: tensor<16x4096xf16>, %arg1: tensor<11008x4096xf16>, %arg2: tensor<11008x4096xf16>) -> tensor<16x11008xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<4096x11008xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<11008x4096xf16>) outs(%0 : tensor<4096x11008xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<16x11008xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<16x4096xf16>, tensor<4096x11008xf16>) outs(%2 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %4 = tensor.empty() : tensor<16x11008xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<16x11008xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<16x11008xf16>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f16, %out: f32):
      %13 = arith.extf %in : f16 to f32
      linalg.yield %13 : f32
    } -> tensor<16x11008xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<16x11008xf32>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.negf %in : f32
      %14 = math.exp %13 : f32
      %15 = arith.addf %14, %cst_0 : f32
      %16 = arith.divf %cst_0, %15 : f32
      linalg.yield %16 : f32
    } -> tensor<16x11008xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %7 : tensor<16x11008xf32>, tensor<16x11008xf32>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %13 = arith.mulf %in, %in_2 : f32
      linalg.yield %13 : f32
    } -> tensor<16x11008xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<16x11008xf16>
    %transposed_1 = linalg.transpose ins(%arg2 : tensor<11008x4096xf16>) outs(%0 : tensor<4096x11008xf16>) permutation = [1, 0] 
    %10 = linalg.matmul ins(%arg0, %transposed_1 : tensor<16x4096xf16>, tensor<4096x11008xf16>) outs(%2 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %13 = arith.truncf %in : f32 to f16
      linalg.yield %13 : f16
    } -> tensor<16x11008xf16>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %11 : tensor<16x11008xf16>, tensor<16x11008xf16>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %13 = arith.mulf %in, %in_2 : f16
      linalg.yield %13 : f16
    } -> tensor<16x11008xf16>
    return %12 : tensor<16x11008xf16>
  }
}
