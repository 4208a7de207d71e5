// RUN: not mirage-opt %s -p 'check-equivalence{reference=exp_program candidate=wrong_omap}' 2>&1 | filecheck %s --check-prefix=OMAP
// RUN: not mirage-opt %s -p 'check-equivalence{reference=program candidate=swapped seed=5}' 2>&1 | filecheck %s --check-prefix=SWAP
// RUN: not mirage-opt %s -p 'check-equivalence{reference=program candidate=unstable}' 2>&1 | filecheck %s --check-prefix=UNSTABLE
// RUN: mirage-opt %s -p 'check-equivalence{reference=program candidate=unstable stability=false}' | filecheck %s --check-prefix=EXACT
// RUN: not mirage-opt %s -p 'check-equivalence{reference=program candidate=missing}' 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: rm -f %t.out && not mirage-opt %s -p 'check-equivalence{reference=program candidate=swapped}' -o %t.out 2>/dev/null && not test -e %t.out

// One error line, exit status 1, no module printed.
// OMAP:      check_equivalence_errors.mlir: error: check-equivalence: @wrong_omap is not equivalent to @exp_program: output 0 differs at index [0, 2] in the random test with seed {{[0-9]+}}
// OMAP-NOT:  builtin.module
// SWAP:      error: check-equivalence: @swapped is not equivalent to @program: output 0 differs at index [{{[0-9]+}}, {{[0-9]+}}] in the random test with seed {{[0-9]+}}
// SWAP-NOT:  Traceback
// UNSTABLE:  error: check-equivalence: @unstable is not equivalent to @program: numerically unstable: its float32 result is not finite at output 0, index [{{[0-9]+}}, {{[0-9]+}}], where the reference's float32 and float64 results are finite
// EXACT:     func.func @unstable
// MISSING:   error: check-equivalence: no function @missing in the module

// Row-wise exp(x) / sum(exp(x)) with the row max subtracted (stable).
func.func @program(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = kernel.reduce_max %x dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %d = kernel.sub %x, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  %e = kernel.exp %d : tensor<4x4xf32> -> tensor<4x4xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// Normalized by column sums instead.
func.func @swapped(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  %z = kernel.reduce_sum %e dim 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %r = kernel.div %e, %z : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// Without the max: equal in exact arithmetic, overflows in float32.
func.func @unstable(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  %z = kernel.reduce_sum %e dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %r = kernel.div %e, %z : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// exp(x) on a 2 x 2 grid of blocks...
func.func @exp_program(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = kernel.exp %x : tensor<4x4xf32> -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// ...whose output saver swaps the grid dims: block (i, j) writes to place (j, i).
func.func @wrong_omap(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = kernel.graph(%x) grid [2, 2, 1] block [128, 1, 1] forloop 1 : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%gx: tensor<4x4xf32>):
    %acc = block.for_loop : tensor<2x2xf32> {
      %xt = block.input %gx imap [0, 1, -1] : tensor<4x4xf32> -> tensor<2x2xf32>
      %a = block.accum_sum %xt : tensor<2x2xf32> -> tensor<2x2xf32>
      block.yield %a : tensor<2x2xf32>
    }
    %e = thread.fuse(%acc) : (tensor<2x2xf32>) -> tensor<2x2xf32> {
    ^bb1(%v: f32):
      %w = thread.exp %v : f32
      thread.yield %w : f32
    }
    %o = block.output %e omap [1, 0, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    block.return %o : tensor<4x4xf32>
  }
  func.return %r : tensor<4x4xf32>
}
