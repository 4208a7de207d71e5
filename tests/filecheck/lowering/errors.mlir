// RUN: not mirage-opt %s -p "lower-to-llvm{arch=sm_80}" 2>&1 | FileCheck %s

// 192 KiB fit one block of sm_90a, which the verifier allows, but not one of sm_80.
// CHECK: error: @too_big, kernel 0: block graph needs 196608 bytes of shared memory with 1 pipeline stage(s), more than the 166912 bytes of sm_80
// CHECK-NOT: Traceback
func.func @too_big(%x: tensor<128x512xf16>) -> tensor<128x256xf16> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<128x512xf16>) -> tensor<128x256xf16> {
  ^bb0(%gx: tensor<128x512xf16>):
    %acc = block.for_loop : tensor<128x256xf32> {
      %t = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<128x512xf16> -> tensor<128x256xf16>
      %a = block.accum_max %t : tensor<128x256xf16> -> tensor<128x256xf32>
      block.yield %a : tensor<128x256xf32>
    }
    %o = block.output %acc omap [-1, -1, -1] : tensor<128x256xf32> -> tensor<128x256xf16>
    block.return %o : tensor<128x256xf16>
  }
  func.return %y : tensor<128x256xf16>
}
