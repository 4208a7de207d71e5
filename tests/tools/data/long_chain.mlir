// Eight kernel ops (softmax, rms_norm, matmul, softmax): more than a segment holds, so the
// search cuts it (partition.py). Used by the interruption tests.
func.func @chain(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %e = kernel.exp %x : tensor<8x64xf16> -> tensor<8x64xf16>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf16> -> tensor<8x1xf16>
  %p = kernel.div %e, %s : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  %n = kernel.rms_norm %p : tensor<8x64xf16> -> tensor<8x64xf16>
  %y = kernel.matmul %n, %w : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
  %e2 = kernel.exp %y : tensor<8x32xf16> -> tensor<8x32xf16>
  %s2 = kernel.reduce_sum %e2 dim 1 size 1 : tensor<8x32xf16> -> tensor<8x1xf16>
  %o = kernel.div %e2, %s2 : tensor<8x32xf16>, tensor<8x1xf16> -> tensor<8x32xf16>
  func.return %o : tensor<8x32xf16>
}
