// relu(x) y = y relu(x); relu has no exact field image, so the verdict says unsound.
// EXPECT: equivalent
// UNSOUND: relu
func.func @reference(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = kernel.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul %a, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
func.func @candidate(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = kernel.relu %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.mul %y, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
