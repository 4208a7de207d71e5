// corpus scaled_attention (vit), small: q 8x16x16, k 8x16x16, v 8x16x16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @scaled_attention(%arg0: tensor<8x16x16xf32>, %arg1: tensor<8x16x16xf32>, %arg2: tensor<8x16x16xf32>) -> tensor<8x16x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 4.000000e+00 : f32
    %0 = tensor.empty() : tensor<8x16x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x16x16xf32>) outs(%0 : tensor<8x16x16xf32>) permutation = [0, 2, 1] 
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %2 = linalg.batch_matmul ins(%arg0, %transposed : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%1 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<8x16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.divf %in, %cst_1 : f32
      linalg.yield %16 : f32
    } -> tensor<8x16x16xf32>
    %4 = tensor.empty() : tensor<8x16xi64>
    %5 = linalg.fill ins(%c0_i64 : i64) outs(%4 : tensor<8x16xi64>) -> tensor<8x16xi64>
    %6 = tensor.empty() : tensor<8x16xf32>
    %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %8:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3 : tensor<8x16x16xf32>) outs(%7, %5 : tensor<8x16xf32>, tensor<8x16xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %16 = linalg.index 2 : index
      %17 = arith.index_cast %16 : index to i64
      %18 = arith.maximumf %in, %out : f32
      %19 = arith.cmpf ogt, %in, %out : f32
      %20 = arith.select %19, %17, %out_2 : i64
      linalg.yield %18, %20 : f32, i64
    } -> (tensor<8x16xf32>, tensor<8x16xi64>)
    %expanded = tensor.expand_shape %8#0 [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xf32> into tensor<8x16x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %expanded : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %16 = arith.subf %in, %in_2 : f32
      linalg.yield %16 : f32
    } -> tensor<8x16x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<8x16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.exp %in : f32
      linalg.yield %16 : f32
    } -> tensor<8x16x16xf32>
    %11 = tensor.empty() : tensor<8x16x1xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<8x16x1xf32>) -> tensor<8x16x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%10 : tensor<8x16x16xf32>) outs(%12 : tensor<8x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<8x16x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10, %13 : tensor<8x16x16xf32>, tensor<8x16x1xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %16 = arith.divf %in, %in_2 : f32
      linalg.yield %16 : f32
    } -> tensor<8x16x16xf32>
    %15 = linalg.batch_matmul ins(%14, %arg2 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%1 : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
    return %15 : tensor<8x16x16xf32>
  }
}
