// corpus linear_chain (gpt2), small: x 8x64, fc1.weight 96x64, fc2.weight 64x96.
// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py; do not edit.
module {
  func.func @linear_chain(%arg0: tensor<8x64xf32>, %arg1: tensor<96x64xf32>, %arg2: tensor<64x96xf32>) -> tensor<8x64xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<64x96xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<96x64xf32>) outs(%0 : tensor<64x96xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<8x96xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<8x64xf32>, tensor<64x96xf32>) outs(%2 : tensor<8x96xf32>) -> tensor<8x96xf32>
    %4 = tensor.empty() : tensor<96x64xf32>
    %transposed_0 = linalg.transpose ins(%arg2 : tensor<64x96xf32>) outs(%4 : tensor<96x64xf32>) permutation = [1, 0] 
    %5 = tensor.empty() : tensor<8x64xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %7 = linalg.matmul ins(%3, %transposed_0 : tensor<8x96xf32>, tensor<96x64xf32>) outs(%6 : tensor<8x64xf32>) -> tensor<8x64xf32>
    return %7 : tensor<8x64xf32>
  }
}
