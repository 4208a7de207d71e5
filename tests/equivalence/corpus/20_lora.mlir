// LoRA: X W + (X A) B = X (W + A B).
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %xw = kernel.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = kernel.matmul %x, %a : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = kernel.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %r = kernel.add %xw, %xab : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %ab = kernel.matmul %a, %b : tensor<8x2xf32>, tensor<2x6xf32> -> tensor<8x6xf32>
  %m = kernel.add %w, %ab : tensor<8x6xf32>, tensor<8x6xf32> -> tensor<8x6xf32>
  %r = kernel.matmul %x, %m : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}
