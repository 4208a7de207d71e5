// search seconds: 108.4
builtin.module {
  func.func @vit_mlp_block(%arg0: tensor<256x2048xf16>, %arg1: tensor<2048xf16>, %arg2: tensor<2048xf16>, %arg3: tensor<8192x2048xf16>, %arg4: tensor<8192xf16>, %arg5: tensor<2048x8192xf16>, %arg6: tensor<2048xf16>) -> tensor<256x2048xf16> {
    %0 = kernel.reduce_sum %arg0 dim 1 : tensor<256x2048xf16> -> tensor<256x1xf32>
    %1 = kernel.mul_scalar %0, 0.00048828125 : tensor<256x1xf32> -> tensor<256x1xf32>
    %2 = kernel.sub %arg0, %1 : tensor<256x2048xf16>, tensor<256x1xf32> -> tensor<256x2048xf32>
    %3 = kernel.reshape %arg1 : tensor<2048xf16> -> tensor<1x2048xf16>
    %4 = kernel.reshape %arg2 : tensor<2048xf16> -> tensor<1x2048xf16>
    %5 = kernel.rms_norm %2 affine(%3, %4 : tensor<1x2048xf16>, tensor<1x2048xf16>) eps 9.999999960041972e-13 : tensor<256x2048xf32> -> tensor<256x2048xf16>
    %6 = kernel.transpose %arg3 permutation [1, 0] : tensor<8192x2048xf16> -> tensor<2048x8192xf16>
    %7 = kernel.matmul %5, %6 : tensor<256x2048xf16>, tensor<2048x8192xf16> -> tensor<256x8192xf32>
    %8 = kernel.reshape %arg4 : tensor<8192xf16> -> tensor<1x8192xf16>
    %9 = kernel.add %7, %8 : tensor<256x8192xf32>, tensor<1x8192xf16> -> tensor<256x8192xf16>
    %10 = kernel.gelu %9 : tensor<256x8192xf16> -> tensor<256x8192xf16>
    %11 = kernel.transpose %arg5 permutation [1, 0] : tensor<2048x8192xf16> -> tensor<8192x2048xf16>
    %12 = kernel.matmul %10, %11 : tensor<256x8192xf16>, tensor<8192x2048xf16> -> tensor<256x2048xf32>
    %13 = kernel.reshape %arg6 : tensor<2048xf16> -> tensor<1x2048xf16>
    %14 = kernel.add %12, %13 : tensor<256x2048xf32>, tensor<1x2048xf16> -> tensor<256x2048xf16>
    %15 = kernel.add %arg0, %14 : tensor<256x2048xf16>, tensor<256x2048xf16> -> tensor<256x2048xf16>
    func.return %15 : tensor<256x2048xf16>
  }
}
