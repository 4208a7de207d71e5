// RUN: mirage-opt %s -t dot | FileCheck %s

// A thread chain is one node: each value read more than once gets a name (t0, t1) of its
// own line, each result a line (y0, y1); operator precedence decides the parentheses.
// CHECK:      [[AX:b[0-9]+]] [label="block.accum_sum\n1x64xf32"
// CHECK-NEXT: [[AG:b[0-9]+]] [label="block.accum_sum\n1x64xf32"
// CHECK-NEXT: }
// CHECK-NEXT: subgraph cluster_after{{[0-9]+}} {
// CHECK-NEXT:   label="after the loop: once per block"
// CHECK-NEXT:   [[FUSE:b[0-9]+]] [label="thread.fuse\nt0 = a - b\nt1 = exp(a) - t0\ny0 = t1 * t1 * 0.5\ny1 = t0\n1x64xf32\n1x64xf32"
// CHECK-NEXT:   [[O1:b[0-9]+]] [label="block.output"
// CHECK-NEXT:   [[O2:b[0-9]+]] [label="block.output"
// CHECK:      [[AX]] -> [[FUSE]] [label="a"];
// CHECK-NEXT: [[AG]] -> [[FUSE]] [label="b"];
// CHECK-NEXT: [[FUSE]] -> [[O1]];
// CHECK:      [[FUSE]] -> [[O2]];

// A kernel op's properties are in its label; several results go to return by number.
// CHECK:      {{k[0-9]+}} [label="kernel.reduce_sum\ndim 1  size 1", shape=box];
// CHECK:      [[R1:t[0-9]+]] -> [[RET:ret[0-9]+]] [label="out0"];
// CHECK-NEXT: {{t[0-9]+}} -> [[RET]] [label="out1"];

func.func @chain(%x: tensor<8x64xf32>, %g: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x1xf32>) {
  %y, %z = kernel.graph(%x, %g) grid [8, 1, 1] block [64, 1, 1] forloop 1 : (tensor<8x64xf32>, tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  ^bb0(%gx: tensor<8x64xf32>, %gg: tensor<8x64xf32>):
    %ax, %ag = block.for_loop : tensor<1x64xf32>, tensor<1x64xf32> {
      %xt = block.input %gx imap [0, -1, -1] : tensor<8x64xf32> -> tensor<1x64xf32>
      %gt = block.input %gg imap [0, -1, -1] : tensor<8x64xf32> -> tensor<1x64xf32>
      %s0 = block.accum_sum %xt : tensor<1x64xf32> -> tensor<1x64xf32>
      %s1 = block.accum_sum %gt : tensor<1x64xf32> -> tensor<1x64xf32>
      block.yield %s0, %s1 : tensor<1x64xf32>, tensor<1x64xf32>
    }
    %u, %w = thread.fuse(%ax, %ag) : (tensor<1x64xf32>, tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>) {
    ^bb1(%a: f32, %b: f32):
      %e = thread.exp %a : f32
      %d = thread.sub %a, %b : f32
      %n = thread.sub %e, %d : f32
      %m = thread.mul %n, %n : f32
      %h = thread.mul_scalar %m, 0.5 : f32
      thread.yield %h, %d : f32, f32
    }
    %o1 = block.output %u omap [0, -1, -1] : tensor<1x64xf32> -> tensor<8x64xf32>
    %o2 = block.output %w omap [0, -1, -1] : tensor<1x64xf32> -> tensor<8x64xf32>
    block.return %o1, %o2 : tensor<8x64xf32>, tensor<8x64xf32>
  }
  %r = kernel.reduce_sum %z dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  func.return %y, %r : tensor<8x64xf32>, tensor<8x1xf32>
}
