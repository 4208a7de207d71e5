// search seconds: 108.5
builtin.module {
  func.func @layernorm_handwritten(%arg0: tensor<256x2048xf16>, %arg1: tensor<2048xf16>, %arg2: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %0 = kernel.reduce_sum %arg0 dim 1 : tensor<256x2048xf16> -> tensor<256x1xf32>
    %1 = kernel.mul_scalar %0, 0.00048828125 : tensor<256x1xf32> -> tensor<256x1xf32>
    %2 = kernel.sub %arg0, %1 : tensor<256x2048xf16>, tensor<256x1xf32> -> tensor<256x2048xf32>
    %3 = kernel.reshape %arg1 : tensor<2048xf16> -> tensor<1x2048xf16>
    %4 = kernel.reshape %arg2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %5 = kernel.rms_norm %2 affine(%3, %4 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 1.0013580322265625e-05 : tensor<256x2048xf32> -> tensor<256x2048xf16>
    func.return %5 : tensor<256x2048xf16>
  }
}
