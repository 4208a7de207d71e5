// Norms with eps, gain and bias: a plain kernel op (wrapped into a one-op kernel.graph) and
// the looped forms the search builds (accum_rms_last / accum_mean_last with eps).

func.func @affine_norm(%x: tensor<8x256xf32>, %g: tensor<1x256xf16>, %b: tensor<1x256xf32>) -> tensor<8x256xf16> {
  %y = kernel.rms_norm %x affine(%g, %b : tensor<1x256xf16>, tensor<1x256xf32>) eps 1.0e-05 : tensor<8x256xf32> -> tensor<8x256xf16>
  func.return %y : tensor<8x256xf16>
}

func.func @looped_norm(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.graph(%x, %g, %b) grid [2, 1, 1] block [128, 1, 1] forloop 4
      : (tensor<8x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%X: tensor<8x64xf32>, %G: tensor<1x64xf32>, %B: tensor<1x64xf32>):
    %acc:4 = block.for_loop : tensor<4x1xf32>, tensor<4x64xf32>, tensor<1x64xf32>, tensor<1x64xf32> {
      %t = block.input %X imap [0, -1, -1] forloop_dim 1 : tensor<8x64xf32> -> tensor<4x16xf32>
      %w = block.input %X imap [0, -1, -1] : tensor<8x64xf32> -> tensor<4x64xf32>
      %gt = block.input %G imap [-1, -1, -1] : tensor<1x64xf32> -> tensor<1x64xf32>
      %bt = block.input %B imap [-1, -1, -1] : tensor<1x64xf32> -> tensor<1x64xf32>
      %r = block.accum_rms_last %t eps 0.5 : tensor<4x16xf32> -> tensor<4x1xf32>
      %v = block.accum_max %w : tensor<4x64xf32> -> tensor<4x64xf32>
      %gm = block.accum_max %gt : tensor<1x64xf32> -> tensor<1x64xf32>
      %bm = block.accum_max %bt : tensor<1x64xf32> -> tensor<1x64xf32>
      block.yield %r, %v, %gm, %bm : tensor<4x1xf32>, tensor<4x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>
    }
    %n = thread.fuse(%acc#1, %acc#0, %acc#2, %acc#3) : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32> {
    ^bb1(%p: f32, %q: f32, %u: f32, %c: f32):
      %d = thread.div %p, %q : f32
      %m = thread.mul %d, %u : f32
      %o = thread.add %m, %c : f32
      thread.yield %o : f32
    }
    %o = block.output %n omap [0, -1, -1] : tensor<4x64xf32> -> tensor<8x64xf32>
    block.return %o : tensor<8x64xf32>
  }
  func.return %y : tensor<8x64xf32>
}

func.func @mean_eps(%x: tensor<8x64xf32>) -> tensor<8x1xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2
      : (tensor<8x64xf32>) -> tensor<8x1xf32> {
  ^bb0(%X: tensor<8x64xf32>):
    %a = block.for_loop : tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x64xf32> -> tensor<8x32xf32>
      %s = block.square %t : tensor<8x32xf32> -> tensor<8x32xf32>
      %m = block.accum_mean_last %s eps 0.25 : tensor<8x32xf32> -> tensor<8x1xf32>
      block.yield %m : tensor<8x1xf32>
    }
    %r = block.rsqrt %a : tensor<8x1xf32> -> tensor<8x1xf32>
    %o = block.output %r omap [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x1xf32>
    block.return %o : tensor<8x1xf32>
  }
  func.return %y : tensor<8x1xf32>
}

// A norm with gain and eps over rows of three dims (6 rows a block: 16 lanes a row), read
// by an elementwise chain: computed where it is read, from a tile of its row scales; the
// loop runs once, so its accumulator is its operand.
func.func @norm_in_place(%x: tensor<2x12x768xf16>, %g: tensor<1x1x768xf16>, %z: tensor<2x12x768xf16>) -> tensor<2x12x768xf16> {
  %y = kernel.graph(%x, %g, %z) grid [2, 2, 1] block [128, 1, 1] forloop 1
      : (tensor<2x12x768xf16>, tensor<1x1x768xf16>, tensor<2x12x768xf16>) -> tensor<2x12x768xf16> {
  ^bb0(%X: tensor<2x12x768xf16>, %G: tensor<1x1x768xf16>, %Z: tensor<2x12x768xf16>):
    %r = block.for_loop : tensor<1x6x768xf32> {
      %tx = block.input %X imap [0, 1, -1] : tensor<2x12x768xf16> -> tensor<1x6x768xf16>
      %tg = block.input %G imap [-1, -1, -1] : tensor<1x1x768xf16> -> tensor<1x1x768xf16>
      %tz = block.input %Z imap [0, 1, -1] : tensor<2x12x768xf16> -> tensor<1x6x768xf16>
      %n = block.rms_norm %tx affine(%tg : tensor<1x1x768xf16>) eps 1.0e-05 : tensor<1x6x768xf16> -> tensor<1x6x768xf32>
      %m = block.mul %n, %tz : tensor<1x6x768xf32>, tensor<1x6x768xf16> -> tensor<1x6x768xf32>
      %s = block.add %m, %tx : tensor<1x6x768xf32>, tensor<1x6x768xf16> -> tensor<1x6x768xf32>
      %acc = block.accum_max %s : tensor<1x6x768xf32> -> tensor<1x6x768xf32>
      block.yield %acc : tensor<1x6x768xf32>
    }
    %out = block.output %r omap [0, 1, -1] : tensor<1x6x768xf32> -> tensor<2x12x768xf16>
    block.return %out : tensor<2x12x768xf16>
  }
  func.return %y : tensor<2x12x768xf16>
}

// A norm that a matmul's epilogue reads (x W + rms_norm(r)): its rows scaled there.
func.func @norm_in_epilogue(%x: tensor<64x64xf16>, %w: tensor<64x96xf16>, %r: tensor<64x96xf16>) -> tensor<64x96xf16> {
  %y = kernel.graph(%x, %w, %r) grid [2, 1, 1] block [128, 1, 1] forloop 1
      : (tensor<64x64xf16>, tensor<64x96xf16>, tensor<64x96xf16>) -> tensor<64x96xf16> {
  ^bb0(%X: tensor<64x64xf16>, %W: tensor<64x96xf16>, %R: tensor<64x96xf16>):
    %acc = block.for_loop : tensor<32x96xf32> {
      %tx = block.input %X imap [0, -1, -1] : tensor<64x64xf16> -> tensor<32x64xf16>
      %tw = block.input %W imap [-1, -1, -1] : tensor<64x96xf16> -> tensor<64x96xf16>
      %tr = block.input %R imap [0, -1, -1] : tensor<64x96xf16> -> tensor<32x96xf16>
      %p = block.matmul %tx, %tw : tensor<32x64xf16>, tensor<64x96xf16> -> tensor<32x96xf32>
      %n = block.rms_norm %tr eps 0.5 : tensor<32x96xf16> -> tensor<32x96xf32>
      %s = block.add %p, %n : tensor<32x96xf32>, tensor<32x96xf32> -> tensor<32x96xf32>
      %a = block.accum_sum %s : tensor<32x96xf32> -> tensor<32x96xf32>
      block.yield %a : tensor<32x96xf32>
    }
    %out = block.output %acc omap [0, -1, -1] : tensor<32x96xf32> -> tensor<64x96xf16>
    block.return %out : tensor<64x96xf16>
  }
  func.return %y : tensor<64x96xf16>
}

// Columns scaled by the root of their mean square (a norm over keys, as qknorm's K^T tile
// takes it), in each of two row tiles, summed over the loop: the reduction stores the roots
// themselves, one per column, and the division reads them (no square root per element).
func.func @column_norm(%x: tensor<2x64x256xf16>) -> tensor<2x32x256xf32> {
  %y = kernel.graph(%x) grid [2, 2, 1] block [128, 1, 1] forloop 2
      : (tensor<2x64x256xf16>) -> tensor<2x32x256xf32> {
  ^bb0(%X: tensor<2x64x256xf16>):
    %acc = block.for_loop : tensor<1x32x128xf32> {
      %t = block.input %X imap [0, 2, -1] forloop_dim 1 : tensor<2x64x256xf16> -> tensor<1x32x128xf16>
      %s = block.square %t : tensor<1x32x128xf16> -> tensor<1x32x128xf32>
      %n = block.reduce_sum %s dim 1 : tensor<1x32x128xf32> -> tensor<1x1x128xf32>
      %r = thread.fuse(%n) : (tensor<1x1x128xf32>) -> tensor<1x1x128xf32> {
      ^bb0(%v: f32):
        %m = thread.mul_scalar %v, 3.125000e-02 : f32
        %q = thread.sqrt %m : f32
        thread.yield %q : f32
      }
      %d = block.div %t, %r : tensor<1x32x128xf16>, tensor<1x1x128xf32> -> tensor<1x32x128xf32>
      %a = block.accum_sum %d : tensor<1x32x128xf32> -> tensor<1x32x128xf32>
      block.yield %a : tensor<1x32x128xf32>
    }
    %o = block.output %acc omap [0, 2, -1] : tensor<1x32x128xf32> -> tensor<2x32x256xf32>
    block.return %o : tensor<2x32x256xf32>
  }
  func.return %y : tensor<2x32x256xf32>
}
