// silu against gelu (gelu is a stand-in in the field: unsound).
// EXPECT: different
// UNSOUND: gelu
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.silu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.gelu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
