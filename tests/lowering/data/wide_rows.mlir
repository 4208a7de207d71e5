// Reductions with fewer outputs than warps over long rows: the lanes of one row span
// several warps, which combine their totals through shared memory.

// ntrans: two rms_norms of one row per block (128 threads, 4 warps per row)
func.func @norm_chain(%h: tensor<4x2048xf16>, %x: tensor<4x2048xf16>, %a: tensor<4x2048xf16>) -> tensor<4x2048xf16> {
  %y = kernel.graph(%h, %x, %a) grid [4, 1, 1] block [128, 1, 1] forloop 1 : (tensor<4x2048xf16>, tensor<4x2048xf16>, tensor<4x2048xf16>) -> tensor<4x2048xf16> {
  ^bb0(%gh: tensor<4x2048xf16>, %gx: tensor<4x2048xf16>, %ga: tensor<4x2048xf16>):
    %r = block.for_loop : tensor<1x2048xf32> {
      %th = block.input %gh imap [0, -1, -1] : tensor<4x2048xf16> -> tensor<1x2048xf16>
      %tx = block.input %gx imap [0, -1, -1] : tensor<4x2048xf16> -> tensor<1x2048xf16>
      %ta = block.input %ga imap [0, -1, -1] : tensor<4x2048xf16> -> tensor<1x2048xf16>
      %n = block.rms_norm %th : tensor<1x2048xf16> -> tensor<1x2048xf32>
      %d = block.sub %n, %tx : tensor<1x2048xf32>, tensor<1x2048xf16> -> tensor<1x2048xf32>
      %m = block.mul %ta, %d : tensor<1x2048xf16>, tensor<1x2048xf32> -> tensor<1x2048xf32>
      %s = block.add %tx, %m : tensor<1x2048xf16>, tensor<1x2048xf32> -> tensor<1x2048xf32>
      %o = block.rms_norm %s : tensor<1x2048xf32> -> tensor<1x2048xf32>
      %acc = block.accum_sum %o : tensor<1x2048xf32> -> tensor<1x2048xf32>
      block.yield %acc : tensor<1x2048xf32>
    }
    %out = block.output %r omap [0, -1, -1] : tensor<1x2048xf32> -> tensor<4x2048xf16>
    block.return %out : tensor<4x2048xf16>
  }
  func.return %y : tensor<4x2048xf16>
}

// two rows per block of 256 threads (4 warps per row): a row max and a row sum
func.func @row_max_sum(%x: tensor<8x1024xf32>) -> (tensor<8x1xf32>, tensor<8x1xf32>) {
  %mx, %sm = kernel.graph(%x) grid [4, 1, 1] block [256, 1, 1] forloop 1 : (tensor<8x1024xf32>) -> (tensor<8x1xf32>, tensor<8x1xf32>) {
  ^bb0(%gx: tensor<8x1024xf32>):
    %a, %b = block.for_loop : tensor<2x1xf32>, tensor<2x1xf32> {
      %t = block.input %gx imap [0, -1, -1] : tensor<8x1024xf32> -> tensor<2x1024xf32>
      %m = block.reduce_max %t dim 1 : tensor<2x1024xf32> -> tensor<2x1xf32>
      %e = block.exp %t : tensor<2x1024xf32> -> tensor<2x1024xf32>
      %s = block.reduce_sum %e dim 1 : tensor<2x1024xf32> -> tensor<2x1xf32>
      %am = block.accum_sum %m : tensor<2x1xf32> -> tensor<2x1xf32>
      %as = block.accum_sum %s : tensor<2x1xf32> -> tensor<2x1xf32>
      block.yield %am, %as : tensor<2x1xf32>, tensor<2x1xf32>
    }
    %o1 = block.output %a omap [0, -1, -1] : tensor<2x1xf32> -> tensor<8x1xf32>
    %o2 = block.output %b omap [0, -1, -1] : tensor<2x1xf32> -> tensor<8x1xf32>
    block.return %o1, %o2 : tensor<8x1xf32>, tensor<8x1xf32>
  }
  func.return %mx, %sm : tensor<8x1xf32>, tensor<8x1xf32>
}

// one row sum across 8 warps, run again in each of 4 loop steps: the same reduction code
// meets itself, so its two scratch sets must alternate at run time, not by emission order
func.func @looped_row_sums(%x: tensor<4x4096xf32>) -> tensor<4x1xf32> {
  %y = kernel.graph(%x) grid [4, 1, 1] block [256, 1, 1] forloop 4 : (tensor<4x4096xf32>) -> tensor<4x1xf32> {
  ^bb0(%gx: tensor<4x4096xf32>):
    %r = block.for_loop : tensor<1x1xf32> {
      %t = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<4x4096xf32> -> tensor<1x1024xf32>
      %s = block.reduce_sum %t dim 1 : tensor<1x1024xf32> -> tensor<1x1xf32>
      %acc = block.accum_sum %s : tensor<1x1xf32> -> tensor<1x1xf32>
      block.yield %acc : tensor<1x1xf32>
    }
    %out = block.output %r omap [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    block.return %out : tensor<4x1xf32>
  }
  func.return %y : tensor<4x1xf32>
}
