// Plain kernel ops on inputs of either sign.
func.func @reduce(%x: tensor<16x96xf16>) -> (tensor<16x3xf32>, tensor<1x96xf16>, tensor<16x96xf16>, tensor<16x192xf16>) {
  %a = kernel.reduce_sum %x dim 1 size 3 : tensor<16x96xf16> -> tensor<16x3xf32>
  %b = kernel.reduce_max %x dim 0 : tensor<16x96xf16> -> tensor<1x96xf16>
  %c = kernel.rms_norm %x : tensor<16x96xf16> -> tensor<16x96xf16>
  %d = kernel.concat %x, %c dim 1 : tensor<16x96xf16>, tensor<16x96xf16> -> tensor<16x192xf16>
  func.return %a, %b, %c, %d : tensor<16x3xf32>, tensor<1x96xf16>, tensor<16x96xf16>, tensor<16x192xf16>
}

func.func @matmul_f32(%a: tensor<4x24x40xf32>, %b: tensor<1x40x20xf32>) -> tensor<4x24x20xf32> {
  %c = kernel.matmul %a, %b : tensor<4x24x40xf32>, tensor<1x40x20xf32> -> tensor<4x24x20xf32>
  func.return %c : tensor<4x24x20xf32>
}

func.func @matmul_bf16(%a: tensor<128x256xbf16>, %b: tensor<256x192xbf16>) -> tensor<128x192xbf16> {
  %c = kernel.matmul %a, %b : tensor<128x256xbf16>, tensor<256x192xbf16> -> tensor<128x192xbf16>
  func.return %c : tensor<128x192xbf16>
}

func.func @matmul_batched(%a: tensor<3x48x64xf16>, %b: tensor<3x64x40xf16>) -> tensor<3x48x40xf32> {
  %c = kernel.matmul %a, %b : tensor<3x48x64xf16>, tensor<3x64x40xf16> -> tensor<3x48x40xf32>
  func.return %c : tensor<3x48x40xf32>
}

func.func @outputs(%x: tensor<8x24xf16>) -> (tensor<8x24xf16>, tensor<8x24xf16>, tensor<8x24xf16>) {
  %e = kernel.relu %x : tensor<8x24xf16> -> tensor<8x24xf16>
  func.return %x, %e, %e : tensor<8x24xf16>, tensor<8x24xf16>, tensor<8x24xf16>
}

func.func @layout(%x: tensor<6x32x40xf16>) -> (tensor<40x6x32xf16>, tensor<240x32xf16>, tensor<6x1x40xf32>) {
  %t = kernel.transpose %x permutation [2, 0, 1] : tensor<6x32x40xf16> -> tensor<40x6x32xf16>
  %r = kernel.reshape %x : tensor<6x32x40xf16> -> tensor<192x40xf16>
  %e = kernel.exp %r : tensor<192x40xf16> -> tensor<192x40xf16>
  %r2 = kernel.reshape %e : tensor<192x40xf16> -> tensor<240x32xf16>
  %c = kernel.constant 5.000000e-01 : tensor<6x1x40xf32>
  %s = kernel.reduce_max %x dim 1 : tensor<6x32x40xf16> -> tensor<6x1x40xf16>
  %m = kernel.add %s, %c : tensor<6x1x40xf16>, tensor<6x1x40xf32> -> tensor<6x1x40xf32>
  func.return %t, %r2, %m : tensor<40x6x32xf16>, tensor<240x32xf16>, tensor<6x1x40xf32>
}
