// exp(a + b) against exp(a) + exp(b).
// EXPECT: different
func.func @reference(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = kernel.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.exp %s : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ea = kernel.exp %a : tensor<4x8xf32> -> tensor<4x8xf32>
  %eb = kernel.exp %b : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.add %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
