// corpus rotary_embedding (llama), small: q 8x16x16, k 8x16x16, cos 16x16, sin 16x16.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
module {
  func.func @rotary_embedding(%arg0: tensor<8x16x16xf32>, %arg1: tensor<8x16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>) -> (tensor<8x16x16xf32>, tensor<8x16x16xf32>) {
    %0 = tensor.empty() : tensor<8x16x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg2 : tensor<8x16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.mulf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    %extracted_slice = tensor.extract_slice %arg0[0, 0, 0] [8, 16, 8] [1, 1, 1] : tensor<8x16x16xf32> to tensor<8x16x8xf32>
    %extracted_slice_0 = tensor.extract_slice %arg0[0, 0, 8] [8, 16, 8] [1, 1, 1] : tensor<8x16x16xf32> to tensor<8x16x8xf32>
    %2 = tensor.empty() : tensor<8x16x8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice_0 : tensor<8x16x8xf32>) outs(%2 : tensor<8x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.negf %in : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x8xf32>
    %concat = tensor.concat dim(2) %3, %extracted_slice : (tensor<8x16x8xf32>, tensor<8x16x8xf32>) -> tensor<8x16x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat, %arg3 : tensor<8x16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.mulf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %4 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.addf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %arg2 : tensor<8x16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.mulf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    %extracted_slice_1 = tensor.extract_slice %arg1[0, 0, 0] [8, 16, 8] [1, 1, 1] : tensor<8x16x16xf32> to tensor<8x16x8xf32>
    %extracted_slice_2 = tensor.extract_slice %arg1[0, 0, 8] [8, 16, 8] [1, 1, 1] : tensor<8x16x16xf32> to tensor<8x16x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice_2 : tensor<8x16x8xf32>) outs(%2 : tensor<8x16x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.negf %in : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x8xf32>
    %concat_3 = tensor.concat dim(2) %7, %extracted_slice_1 : (tensor<8x16x8xf32>, tensor<8x16x8xf32>) -> tensor<8x16x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_3, %arg3 : tensor<8x16x16xf32>, tensor<16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.mulf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %8 : tensor<8x16x16xf32>, tensor<8x16x16xf32>) outs(%0 : tensor<8x16x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.addf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<8x16x16xf32>
    return %5, %9 : tensor<8x16x16xf32>, tensor<8x16x16xf32>
  }
}
