// search seconds: 117.0
builtin.module {
  func.func @gelu_tanh_mlp(%arg0: tensor<64x2048xf16>, %arg1: tensor<8192x2048xf16>, %arg2: tensor<8192xf16>, %arg3: tensor<2048x8192xf16>, %arg4: tensor<2048xf16>) -> tensor<64x2048xf16> {
    %0 = kernel.transpose %arg1 permutation [1, 0] : tensor<8192x2048xf16> -> tensor<2048x8192xf16>
    %1 = kernel.matmul %arg0, %0 : tensor<64x2048xf16>, tensor<2048x8192xf16> -> tensor<64x8192xf32>
    %2 = kernel.reshape %arg2 : tensor<8192xf16> -> tensor<1x8192xf16>
    %3 = kernel.add %1, %2 : tensor<64x8192xf32>, tensor<1x8192xf16> -> tensor<64x8192xf16>
    %4 = kernel.mul_scalar %3, 5.000000e-01 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %5 = kernel.pow_scalar %3, 3.000000e+00 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %6 = kernel.mul_scalar %5, 0.044708251953125 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %7 = kernel.add %3, %6 : tensor<64x8192xf16>, tensor<64x8192xf16> -> tensor<64x8192xf16>
    %8 = kernel.mul_scalar %7, 0.7978515625 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %9 = kernel.tanh %8 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %10 = kernel.add_scalar %9, 1.000000e+00 : tensor<64x8192xf16> -> tensor<64x8192xf16>
    %11 = kernel.mul %4, %10 : tensor<64x8192xf16>, tensor<64x8192xf16> -> tensor<64x8192xf32>
    %12 = kernel.transpose %arg3 permutation [1, 0] : tensor<2048x8192xf16> -> tensor<8192x2048xf16>
    %13 = kernel.matmul %11, %12 : tensor<64x8192xf32>, tensor<8192x2048xf16> -> tensor<64x2048xf32>
    %14 = kernel.reshape %arg4 : tensor<2048xf16> -> tensor<1x2048xf16>
    %15 = kernel.add %13, %14 : tensor<64x2048xf32>, tensor<1x2048xf16> -> tensor<64x2048xf16>
    func.return %15 : tensor<64x2048xf16>
  }
}
