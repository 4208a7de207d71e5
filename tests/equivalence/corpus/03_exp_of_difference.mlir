// exp(a - b) = exp(a) / exp(b) holds exactly (the field check passes), but exp(a) and
// exp(b) overflow float32 where exp(a - b) does not: an unstable rewrite.
// EXPECT: unstable
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = kernel.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.exp %s : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ea = kernel.exp %a : tensor<4x8xf32> -> tensor<4x8xf32>
  %eb = kernel.exp %b : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.div %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
