// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: one case per verifier message of a block.input window (a view
// with an offset, reading part of its tensor).

func.func @window_past_the_end(%x: tensor<16x32xf32>) -> tensor<16x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x32xf32>) -> tensor<16x16xf32> {
  ^bb0(%X: tensor<16x32xf32>):
    %a = block.for_loop : tensor<16x16xf32> {
      %t = block.input %X imap [-1, -1, -1] view [16, 16] strides [32, 1] offset 17 : tensor<16x32xf32> -> tensor<16x16xf32>
      %s = block.accum_sum %t : tensor<16x16xf32> -> tensor<16x16xf32>
      block.yield %s : tensor<16x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<16x16xf32> -> tensor<16x16xf32>
    block.return %o : tensor<16x16xf32>
  }
  func.return %y : tensor<16x16xf32>
}
// CHECK: 'block.input' op block.input source window from element 17 reaches element 512, past the 512 elements of [16, 32]

// -----

func.func @window_twice(%x: tensor<16x32xf32>) -> tensor<16x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x32xf32>) -> tensor<16x16xf32> {
  ^bb0(%X: tensor<16x32xf32>):
    %a = block.for_loop : tensor<16x16xf32> {
      %t = block.input %X imap [-1, -1, -1] view [16, 16] strides [8, 1] offset 4 : tensor<16x32xf32> -> tensor<16x16xf32>
      %s = block.accum_sum %t : tensor<16x16xf32> -> tensor<16x16xf32>
      block.yield %s : tensor<16x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<16x16xf32> -> tensor<16x16xf32>
    block.return %o : tensor<16x16xf32>
  }
  func.return %y : tensor<16x16xf32>
}
// CHECK: 'block.input' op block.input source strides [8, 1] visit elements twice (dim 0 of extent 16 has stride 8, less than the 16 elements the faster dims span)

// -----

func.func @offset_without_view(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%X: tensor<16x32xf32>):
    %a = block.for_loop : tensor<16x32xf32> {
      %t = block.input %X imap [-1, -1, -1] offset 4 : tensor<16x32xf32> -> tensor<16x32xf32>
      %s = block.accum_sum %t : tensor<16x32xf32> -> tensor<16x32xf32>
      block.yield %s : tensor<16x32xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<16x32xf32> -> tensor<16x32xf32>
    block.return %o : tensor<16x32xf32>
  }
  func.return %y : tensor<16x32xf32>
}
// CHECK: 'block.input' op block.input offset needs a view and strides
