// square(x) = x x.
// EXPECT: equivalent
func.func @reference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.square %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = kernel.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
