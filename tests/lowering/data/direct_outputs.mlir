// Matmuls that store a block output straight from their registers (mode 'global'): the
// result, or the elementwise epilogue after it, is read by nothing but the output.

// LoRA's form, y = x W + (x A) B, one loop step: rows past 16 (20 of them) and 40 columns
// a block (five n8 tiles).
func.func @lora_ragged(%x: tensor<20x128xf16>, %w: tensor<128x160xf16>, %a: tensor<128x16xf16>, %bm: tensor<16x160xf16>) -> tensor<20x160xf16> {
  %y = kernel.graph(%x, %w, %a, %bm) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<20x128xf16>, tensor<128x160xf16>, tensor<128x16xf16>, tensor<16x160xf16>) -> tensor<20x160xf16> {
  ^bb0(%X: tensor<20x128xf16>, %W: tensor<128x160xf16>, %A: tensor<128x16xf16>, %B: tensor<16x160xf16>):
    %r = block.for_loop : tensor<20x40xf32> {
      %xt = block.input %X imap [-1, -1, -1] : tensor<20x128xf16> -> tensor<20x128xf16>
      %wt = block.input %W imap [1, -1, -1] : tensor<128x160xf16> -> tensor<128x40xf16>
      %at = block.input %A imap [-1, -1, -1] : tensor<128x16xf16> -> tensor<128x16xf16>
      %bt = block.input %B imap [1, -1, -1] : tensor<16x160xf16> -> tensor<16x40xf16>
      %xw = block.matmul %xt, %wt : tensor<20x128xf16>, tensor<128x40xf16> -> tensor<20x40xf32>
      %xa = block.matmul %xt, %at : tensor<20x128xf16>, tensor<128x16xf16> -> tensor<20x16xf16>
      %xab = block.matmul %xa, %bt : tensor<20x16xf16>, tensor<16x40xf16> -> tensor<20x40xf32>
      %s = block.add %xw, %xab : tensor<20x40xf32>, tensor<20x40xf32> -> tensor<20x40xf32>
      %acc = block.accum_sum %s : tensor<20x40xf32> -> tensor<20x40xf32>
      block.yield %acc : tensor<20x40xf32>
    }
    %o = block.output %r omap [1, -1, -1] : tensor<20x40xf32> -> tensor<20x160xf16>
    block.return %o : tensor<20x160xf16>
  }
  func.return %y : tensor<20x160xf16>
}

// 12 columns a block (the second n8 tile half outside) into an f32 output, the epilogue
// scaling by a row vector: each element stored alone, where it falls.
func.func @scaled_narrow(%x: tensor<32x64xf16>, %w: tensor<64x48xf16>, %g: tensor<1x48xf32>) -> tensor<32x48xf32> {
  %y = kernel.graph(%x, %w, %g) grid [4, 1, 1] block [64, 1, 1] forloop 1 : (tensor<32x64xf16>, tensor<64x48xf16>, tensor<1x48xf32>) -> tensor<32x48xf32> {
  ^bb0(%X: tensor<32x64xf16>, %W: tensor<64x48xf16>, %G: tensor<1x48xf32>):
    %r = block.for_loop : tensor<32x12xf32> {
      %xt = block.input %X imap [-1, -1, -1] : tensor<32x64xf16> -> tensor<32x64xf16>
      %wt = block.input %W imap [1, -1, -1] : tensor<64x48xf16> -> tensor<64x12xf16>
      %gt = block.input %G imap [1, -1, -1] : tensor<1x48xf32> -> tensor<1x12xf32>
      %p = block.matmul %xt, %wt : tensor<32x64xf16>, tensor<64x12xf16> -> tensor<32x12xf32>
      %m = block.mul %p, %gt : tensor<32x12xf32>, tensor<1x12xf32> -> tensor<32x12xf32>
      %acc = block.accum_sum %m : tensor<32x12xf32> -> tensor<32x12xf32>
      block.yield %acc : tensor<32x12xf32>
    }
    %o = block.output %r omap [1, -1, -1] : tensor<32x12xf32> -> tensor<32x48xf32>
    block.return %o : tensor<32x48xf32>
  }
  func.return %y : tensor<32x48xf32>
}

// 64-row tiles over a 2-D grid, one loop step, a bias after the product: what a warpgroup
// of wgmma stores where asked (matmuls=wgmma), a warp of mma.sync otherwise.
func.func @biased_rows64(%x: tensor<128x64xf16>, %w: tensor<64x256xf16>, %bias: tensor<1x256xf16>) -> tensor<128x256xf16> {
  %y = kernel.graph(%x, %w, %bias) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<128x64xf16>, tensor<64x256xf16>, tensor<1x256xf16>) -> tensor<128x256xf16> {
  ^bb0(%X: tensor<128x64xf16>, %W: tensor<64x256xf16>, %Bi: tensor<1x256xf16>):
    %r = block.for_loop : tensor<64x128xf32> {
      %xt = block.input %X imap [-1, 0, -1] : tensor<128x64xf16> -> tensor<64x64xf16>
      %wt = block.input %W imap [1, -1, -1] : tensor<64x256xf16> -> tensor<64x128xf16>
      %bt = block.input %Bi imap [1, -1, -1] : tensor<1x256xf16> -> tensor<1x128xf16>
      %p = block.matmul %xt, %wt : tensor<64x64xf16>, tensor<64x128xf16> -> tensor<64x128xf32>
      %s = block.add %p, %bt : tensor<64x128xf32>, tensor<1x128xf16> -> tensor<64x128xf32>
      %acc = block.accum_sum %s : tensor<64x128xf32> -> tensor<64x128xf32>
      block.yield %acc : tensor<64x128xf32>
    }
    %o = block.output %r omap [1, 0, -1] : tensor<64x128xf32> -> tensor<128x256xf16>
    block.return %o : tensor<128x256xf16>
  }
  func.return %y : tensor<128x256xf16>
}

// Two products that one output joins (silu(x W1) * (x W2)): neither stores it, since the
// one that did would wait for the other's tile; both store theirs (f32: on FMAs, whose
// products are stored once a block), the output reads both.
func.func @gated_once(%x: tensor<16x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %y = kernel.graph(%x, %w1, %w2) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32> {
  ^bb0(%X: tensor<16x64xf32>, %W1: tensor<64x64xf32>, %W2: tensor<64x64xf32>):
    %gs, %us = block.for_loop : tensor<16x32xf32>, tensor<16x32xf32> {
      %xt = block.input %X imap [-1, -1, -1] : tensor<16x64xf32> -> tensor<16x64xf32>
      %w1t = block.input %W1 imap [1, -1, -1] : tensor<64x64xf32> -> tensor<64x32xf32>
      %w2t = block.input %W2 imap [1, -1, -1] : tensor<64x64xf32> -> tensor<64x32xf32>
      %g = block.matmul %xt, %w1t : tensor<16x64xf32>, tensor<64x32xf32> -> tensor<16x32xf32>
      %u = block.matmul %xt, %w2t : tensor<16x64xf32>, tensor<64x32xf32> -> tensor<16x32xf32>
      %ga = block.accum_sum %g : tensor<16x32xf32> -> tensor<16x32xf32>
      %ua = block.accum_sum %u : tensor<16x32xf32> -> tensor<16x32xf32>
      block.yield %ga, %ua : tensor<16x32xf32>, tensor<16x32xf32>
    }
    %a = block.silu %gs : tensor<16x32xf32> -> tensor<16x32xf32>
    %m = block.mul %a, %us : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
    %o = block.output %m omap [1, -1, -1] : tensor<16x32xf32> -> tensor<16x64xf32>
    block.return %o : tensor<16x64xf32>
  }
  func.return %y : tensor<16x64xf32>
}
