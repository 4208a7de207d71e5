// corpus rotary_embedding (llama), f16: q 64x1024x128, k 64x1024x128, cos 1024x128, sin 1024x128.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
module {
  func.func @rotary_embedding(%arg0: tensor<64x1024x128xf16>, %arg1: tensor<64x1024x128xf16>, %arg2: tensor<1024x128xf16>, %arg3: tensor<1024x128xf16>) -> (tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) {
    %0 = tensor.empty() : tensor<64x1024x128xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg2 : tensor<64x1024x128xf16>, tensor<1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.mulf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    %extracted_slice = tensor.extract_slice %arg0[0, 0, 0] [64, 1024, 64] [1, 1, 1] : tensor<64x1024x128xf16> to tensor<64x1024x64xf16>
    %extracted_slice_0 = tensor.extract_slice %arg0[0, 0, 64] [64, 1024, 64] [1, 1, 1] : tensor<64x1024x128xf16> to tensor<64x1024x64xf16>
    %2 = tensor.empty() : tensor<64x1024x64xf16>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice_0 : tensor<64x1024x64xf16>) outs(%2 : tensor<64x1024x64xf16>) {
    ^bb0(%in: f16, %out: f16):
      %10 = arith.negf %in : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x64xf16>
    %concat = tensor.concat dim(2) %3, %extracted_slice : (tensor<64x1024x64xf16>, tensor<64x1024x64xf16>) -> tensor<64x1024x128xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat, %arg3 : tensor<64x1024x128xf16>, tensor<1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.mulf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %4 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.addf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %arg2 : tensor<64x1024x128xf16>, tensor<1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.mulf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    %extracted_slice_1 = tensor.extract_slice %arg1[0, 0, 0] [64, 1024, 64] [1, 1, 1] : tensor<64x1024x128xf16> to tensor<64x1024x64xf16>
    %extracted_slice_2 = tensor.extract_slice %arg1[0, 0, 64] [64, 1024, 64] [1, 1, 1] : tensor<64x1024x128xf16> to tensor<64x1024x64xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice_2 : tensor<64x1024x64xf16>) outs(%2 : tensor<64x1024x64xf16>) {
    ^bb0(%in: f16, %out: f16):
      %10 = arith.negf %in : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x64xf16>
    %concat_3 = tensor.concat dim(2) %7, %extracted_slice_1 : (tensor<64x1024x64xf16>, tensor<64x1024x64xf16>) -> tensor<64x1024x128xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat_3, %arg3 : tensor<64x1024x128xf16>, tensor<1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.mulf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %8 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>) outs(%0 : tensor<64x1024x128xf16>) {
    ^bb0(%in: f16, %in_4: f16, %out: f16):
      %10 = arith.addf %in, %in_4 : f16
      linalg.yield %10 : f16
    } -> tensor<64x1024x128xf16>
    return %5, %9 : tensor<64x1024x128xf16>, tensor<64x1024x128xf16>
  }
}
