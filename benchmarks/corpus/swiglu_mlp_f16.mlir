// corpus swiglu_mlp (llama), f16: x 16x4096, gate_proj.weight 11008x4096, up_proj.weight 11008x4096, down_proj.weight 4096x11008.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_mlp(%arg0: tensor<16x4096xf16>, %arg1: tensor<11008x4096xf16>, %arg2: tensor<11008x4096xf16>, %arg3: tensor<4096x11008xf16>) -> tensor<16x4096xf16> {
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
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<16x11008xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<16x11008xf16>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f16, %out: f32):
      %19 = arith.extf %in : f16 to f32
      linalg.yield %19 : f32
    } -> tensor<16x11008xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<16x11008xf32>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.negf %in : f32
      %20 = math.exp %19 : f32
      %21 = arith.addf %20, %cst_0 : f32
      %22 = arith.divf %cst_0, %21 : f32
      linalg.yield %22 : f32
    } -> tensor<16x11008xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %7 : tensor<16x11008xf32>, tensor<16x11008xf32>) outs(%1 : tensor<16x11008xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %19 = arith.mulf %in, %in_3 : f32
      linalg.yield %19 : f32
    } -> tensor<16x11008xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<16x11008xf16>
    %transposed_1 = linalg.transpose ins(%arg2 : tensor<11008x4096xf16>) outs(%0 : tensor<4096x11008xf16>) permutation = [1, 0] 
    %10 = linalg.matmul ins(%arg0, %transposed_1 : tensor<16x4096xf16>, tensor<4096x11008xf16>) outs(%2 : tensor<16x11008xf32>) -> tensor<16x11008xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<16x11008xf32>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f32, %out: f16):
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<16x11008xf16>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %11 : tensor<16x11008xf16>, tensor<16x11008xf16>) outs(%4 : tensor<16x11008xf16>) {
    ^bb0(%in: f16, %in_3: f16, %out: f16):
      %19 = arith.mulf %in, %in_3 : f16
      linalg.yield %19 : f16
    } -> tensor<16x11008xf16>
    %13 = tensor.empty() : tensor<11008x4096xf16>
    %transposed_2 = linalg.transpose ins(%arg3 : tensor<4096x11008xf16>) outs(%13 : tensor<11008x4096xf16>) permutation = [1, 0] 
    %14 = tensor.empty() : tensor<16x4096xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %16 = linalg.matmul ins(%12, %transposed_2 : tensor<16x11008xf16>, tensor<11008x4096xf16>) outs(%15 : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %17 = tensor.empty() : tensor<16x4096xf16>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<16x4096xf32>) outs(%17 : tensor<16x4096xf16>) {
    ^bb0(%in: f32, %out: f16):
      %19 = arith.truncf %in : f32 to f16
      linalg.yield %19 : f16
    } -> tensor<16x4096xf16>
    return %18 : tensor<16x4096xf16>
  }
}
