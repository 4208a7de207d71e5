// corpus lora (llama), f16: x 16x4096, base_layer.weight 11008x4096, lora_A.weight 16x4096, lora_B.weight 11008x16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lora(%arg0: tensor<16x4096xf16>, %arg1: tensor<11008x4096xf16>, %arg2: tensor<16x4096xf16>, %arg3: tensor<11008x16xf16>) -> tensor<16x11008xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4096x11008xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<11008x4096xf16>) outs(%0 : tensor<4096x11008xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<16x11008xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<16x4096xf16>, tensor<4096x11008xf16>) outs(%2 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %4 = tensor.empty() : tensor<16x11008xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %15 = arith.truncf %in : f32 to f16
      linalg.yield %15 : f16
    } -> tensor<16x11008xf16>
    %6 = tensor.empty() : tensor<4096x16xf16>
    %transposed_0 = linalg.transpose ins(%arg2 : tensor<16x4096xf16>) outs(%6 : tensor<4096x16xf16>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<16x16xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %9 = linalg.matmul ins(%arg0, %transposed_0 : tensor<16x4096xf16>, tensor<4096x16xf16>) outs(%8 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %10 = tensor.empty() : tensor<16x16xf16>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<16x16xf32>) outs(%10 : tensor<16x16xf16>) {
    ^bb0(%in: f32, %out: f16):
      %15 = arith.truncf %in : f32 to f16
      linalg.yield %15 : f16
    } -> tensor<16x16xf16>
    %transposed_1 = linalg.transpose ins(%arg3 : tensor<11008x16xf16>) outs(%4 : tensor<16x11008xf16>) permutation = [1, 0] 
    %12 = linalg.matmul ins(%11, %transposed_1 : tensor<16x16xf16>, tensor<16x11008xf16>) outs(%2 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %15 = arith.truncf %in : f32 to f16
      linalg.yield %15 : f16
    } -> tensor<16x11008xf16>
    %14 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %13 : tensor<16x11008xf16>, tensor<16x11008xf16>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %15 = arith.addf %in, %in_2 : f16
      linalg.yield %15 : f16
    } -> tensor<16x11008xf16>
    return %14 : tensor<16x11008xf16>
  }
}
