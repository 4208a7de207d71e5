// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: a case that verifies would print a module, which the grep rejects.

// One case per verifier message of the block level: input iterators, output savers, the
// loop and its accumulators, and the rules that make values flow only through the
// structure (device tensors through block.input, loop values through accumulators).

func.func @outside_graph(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = block.exp %x : tensor<8x16xf32> -> tensor<8x16xf32>
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'block.exp' op 'block.exp' must be inside a kernel.graph

// -----

func.func @loop_outside_graph() {
  %a = block.for_loop : tensor<8x8xf32> {
    block.yield : 
  }
  func.return
}
// CHECK: 'block.for_loop' op 'block.for_loop' must be inside a kernel.graph

// -----

func.func @in_fuse_body(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %f = thread.fuse(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb1(%e: f32):
    %m = block.mul_scalar %a, 2.0 : tensor<8x8xf32> -> tensor<8x8xf32>
    thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.mul_scalar' op 'block.mul_scalar' must be directly in a kernel.graph body or in its block.for_loop

// -----

// A device tensor used without an input iterator: no accumulator on its path.
func.func @device_tensor_after_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %z = block.reduce_sum %X dim 1 size 8 : tensor<8x16xf32> -> tensor<8x8xf32>
    %w = block.add %a, %z : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
    %o = block.output %w omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.reduce_sum' op operand 0 is a device tensor (a kernel.graph argument): block-level ops read device tensors only through block.input

// -----

func.func @device_tensor_in_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %m = block.matmul %t, %X : tensor<8x8xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.matmul' op operand 1 is a device tensor (a kernel.graph argument): block-level ops read device tensors only through block.input

// -----

// A loop result fed back into the loop: a path with two accumulators.
func.func @loop_result_in_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %u = block.add %t, %a : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %u : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.add' op operand 1 is defined outside the block.for_loop: ops in the loop use only values of the current iteration

// -----

func.func @accumulate_loop_result(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %a : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.accum_sum' op operand 0 is defined outside the block.for_loop: ops in the loop use only values of the current iteration

// -----

func.func @use_before_def_in_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %e = block.exp %t : tensor<8x8xf32> -> tensor<8x8xf32>
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %e : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.exp' op operand 0 is used before it is defined

// -----

func.func @use_before_def_after_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %e omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    %e = block.sqrt %a : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.output' op operand 0 is used before it is defined

// -----

func.func @input_after_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %t2 = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
    %o = block.output %t2 omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op block.input after the block.for_loop must have forloop_dim -1 (it is read once, after the last iteration), got 1

// -----

func.func @input_in_fuse(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %f = thread.fuse(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb1(%p: f32):
      %t2 = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      thread.yield %p : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op block.input must be directly inside the block.for_loop or directly in the kernel.graph body after it

// -----

func.func @input_of_tile(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %t2 = block.input %t imap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t2 : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op block.input must read an argument of the enclosing kernel.graph

// -----

func.func @input_tile_shape(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'block.input' op tile shape 8x16 does not match the expected 8x8

// -----

func.func @input_element_type(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf16>
      %s = block.accum_sum %t : tensor<8x8xf16> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op tile element type must match the source tensor's

// -----

func.func @imap_entries(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op imap must have 3 entries (grid x, y, z), got 2

// -----

// The imap names tensor dim 2 of a rank-2 tensor.
func.func @imap_missing_dim(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [2, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op imap maps grid dim x to tensor dim 2, but the tensor has rank 2

// -----

func.func @imap_negative_dim(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -2, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op imap maps grid dim y to tensor dim -2, but the tensor has rank 2

// -----

func.func @imap_twice(%x: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %y = kernel.graph(%x) grid [2, 2, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<2x8xf32> {
      %t = block.input %X imap [0, 0, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<2x8xf32>
      %s = block.accum_sum %t : tensor<2x8xf32> -> tensor<2x8xf32>
      block.yield %s : tensor<2x8xf32>
    }
    %o = block.output %a omap [0, 1, -1] : tensor<2x8xf32> -> tensor<4x16xf32>
    block.return %o : tensor<4x16xf32>
  }
  func.return %y : tensor<4x16xf32>
}
// CHECK: 'block.input' op imap maps two grid dims to tensor dim 0

// -----

func.func @forloop_dim_range(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 2 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.input' op forloop_dim 2 is out of range for rank 2

// -----

// 8 rows do not split into 3 blocks.
func.func @uneven_grid(%x: tensor<8x16xf32>) -> tensor<6x8xf32> {
  %y = kernel.graph(%x) grid [3, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<6x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<2x8xf32> {
      %t = block.input %X imap [0, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<2x8xf32>
      %s = block.accum_sum %t : tensor<2x8xf32> -> tensor<2x8xf32>
      block.yield %s : tensor<2x8xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<2x8xf32> -> tensor<6x8xf32>
    block.return %o : tensor<6x8xf32>
  }
  func.return %y : tensor<6x8xf32>
}
// CHECK: 'block.input' op tensor dim 0 of extent 8 does not split evenly into 3 parts

// -----

// 16 columns do not split into 3 iterations.
func.func @uneven_loop(%x: tensor<8x16xf32>) -> tensor<8x5xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 3 : (tensor<8x16xf32>) -> tensor<8x5xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x5xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x5xf32>
      %s = block.accum_sum %t : tensor<8x5xf32> -> tensor<8x5xf32>
      block.yield %s : tensor<8x5xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x5xf32> -> tensor<8x5xf32>
    block.return %o : tensor<8x5xf32>
  }
  func.return %y : tensor<8x5xf32>
}
// CHECK: 'block.input' op tensor dim 1 of extent 16 does not split evenly into 3 parts

// -----

// The grid (3) and the loop (2) both cut dim 1: 16 does not split into 6 parts.
func.func @uneven_grid_and_loop(%x: tensor<8x16xf32>) -> tensor<8x6xf32> {
  %y = kernel.graph(%x) grid [1, 3, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x6xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x2xf32> {
      %t = block.input %X imap [-1, 1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x2xf32>
      %s = block.accum_sum %t : tensor<8x2xf32> -> tensor<8x2xf32>
      block.yield %s : tensor<8x2xf32>
    }
    %o = block.output %a omap [-1, 1, -1] : tensor<8x2xf32> -> tensor<8x6xf32>
    block.return %o : tensor<8x6xf32>
  }
  func.return %y : tensor<8x6xf32>
}
// CHECK: 'block.input' op tensor dim 1 of extent 16 does not split evenly into 6 parts

// -----

func.func @output_in_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      %o2 = block.output %t omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.output' op block.output must come after the block.for_loop, not inside it

// -----

func.func @omap_unmapped(%x: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<4x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<4x8xf32> {
      %t = block.input %X imap [0, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<4x8xf32>
      %s = block.accum_sum %t : tensor<4x8xf32> -> tensor<4x8xf32>
      block.yield %s : tensor<4x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<4x8xf32> -> tensor<4x8xf32>
    block.return %o : tensor<4x8xf32>
  }
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'block.output' op omap leaves grid dim x (extent 2) unmapped, so its blocks would overwrite each other's output

// -----

func.func @omap_missing_dim(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, 3] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.output' op omap maps grid dim z to tensor dim 3, but the tensor has rank 2

// -----

func.func @omap_entries(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.output' op omap must have 3 entries (grid x, y, z), got 4

// -----

func.func @output_shape(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'block.output' op result shape 8x16 does not match the expected 8x8

// -----

func.func @output_used(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    %e = block.exp %o : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.output' op a block.output result may only be used by block.return

// -----

func.func @nested_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %b = block.for_loop : tensor<8x8xf32> {
        %u = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
        %v = block.accum_sum %u : tensor<8x8xf32> -> tensor<8x8xf32>
        block.yield %v : tensor<8x8xf32>
      }
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.for_loop' op block.for_loop must be directly in a kernel.graph body

// -----

func.func @loop_arguments(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      ^bb1(%i: tensor<8x8xf32>):
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.for_loop' op block.for_loop body takes no arguments

// -----

func.func @empty_loop(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.for_loop : {
    ^bb1:
    }
    block.return :
  }
  func.return
}
// CHECK: 'block.for_loop' op block.for_loop body must end with block.yield

// -----

func.func @yield_types(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf16> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf16> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.for_loop' op block.yield operand types must match the loop's result types

// -----

func.func @no_accumulator(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.for_loop : {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      block.yield :
    }
    block.return :
  }
  func.return
}
// CHECK: 'block.for_loop' op block.for_loop must yield at least one accumulator

// -----

func.func @foreign_op_in_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %c = arith.constant dense<1.0> : tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.for_loop' op 'arith.constant' cannot appear in a block.for_loop (only block and thread ops)

// -----

func.func @yield_outside_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.exp %x : tensor<8x16xf32> -> tensor<8x16xf32>
  block.yield %y : tensor<8x16xf32>
}
// CHECK: 'block.yield' op block.yield must end a block.for_loop body

// -----

// A value leaving the loop without an accumulator.
func.func @yield_not_accumulator(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      %e = block.exp %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %e : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.yield' op block.yield operand 0 must be an accumulator of this loop: every value leaves the loop through exactly one accumulator

// -----

func.func @return_not_output(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    %e = block.exp %a : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %e : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.return' op block.return operand 0 must be a block.output result

// -----

func.func @return_outside_graph(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  block.return %x : tensor<8x16xf32>
}
// CHECK: 'block.return' op block.return must end a kernel.graph body

// -----

func.func @accumulator_after_loop(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %m = block.accum_max %a : tensor<8x8xf32> -> tensor<8x8xf32>
    %o = block.output %m omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.accum_max' op block.accum_max must be directly inside the block.for_loop

// -----

// An accumulator's value is final only after the loop.
func.func @accumulator_used(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      %e = block.exp %s : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.accum_sum' op block.accum_sum result may only be used by block.yield (it is final only after the last iteration)

// -----

func.func @accumulator_shape(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x1xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x1xf32>
      block.yield %s : tensor<8x1xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x1xf32>
    block.return %o : tensor<8x1xf32>
  }
  func.return %y : tensor<8x1xf32>
}
// CHECK: 'block.accum_sum' op result shape 8x1 does not match the expected 8x8

// -----

func.func @last_dim_accumulator_shape(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_mean_last %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.accum_mean_last' op result shape 8x8 does not match the expected 8x1

// -----

func.func @last_dim_accumulator_rank(%x: tensor<f32>) -> tensor<f32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<f32>) -> tensor<f32> {
  ^bb0(%X: tensor<f32>):
    %a = block.for_loop : tensor<f32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<f32> -> tensor<f32>
      %s = block.accum_rms_last %t : tensor<f32> -> tensor<f32>
      block.yield %s : tensor<f32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<f32> -> tensor<f32>
    block.return %o : tensor<f32>
  }
  func.return %y : tensor<f32>
}
// CHECK: 'block.accum_rms_last' op a reduction over the last dim needs rank >= 1

// -----

func.func @accumulator_negative_eps(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x1xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_rms_last %t eps -2.0 : tensor<8x8xf32> -> tensor<8x1xf32>
      block.yield %s : tensor<8x1xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x1xf32>
    block.return %o : tensor<8x1xf32>
  }
  func.return %y : tensor<8x1xf32>
}
// CHECK: 'block.accum_rms_last' op block.accum_rms_last eps must be finite and >= 0, got -2.0

// -----

func.func @rescale_widens(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %c = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_rescale %t, %c : tensor<8x8xf32>, tensor<8x16xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.accum_rescale' op shapes 8x8 and 8x16 do not broadcast in dim 1

// -----

func.func @rescale_scale_wider(%x: tensor<16x16xf32>) -> tensor<16x1xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 16 : (tensor<16x16xf32>) -> tensor<16x1xf32> {
  ^bb0(%X: tensor<16x16xf32>):
    %a = block.for_loop : tensor<16x1xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<16x16xf32> -> tensor<16x1xf32>
      %c = block.input %X imap [-1, -1, -1] forloop_dim 0 : tensor<16x16xf32> -> tensor<1x16xf32>
      %s = block.accum_rescale %t, %c : tensor<16x1xf32>, tensor<1x16xf32> -> tensor<16x1xf32>
      block.yield %s : tensor<16x1xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<16x1xf32> -> tensor<16x1xf32>
    block.return %o : tensor<16x1xf32>
  }
  func.return %y : tensor<16x1xf32>
}
// CHECK: 'block.accum_rescale' op scale must broadcast to the operand's shape, not widen it

// -----

func.func @block_matmul_shape(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %m = block.matmul %t, %t : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x4xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.matmul' op result shape 8x4 does not match the expected 8x8

// -----

func.func @block_reduce_size(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %r = block.reduce_sum %t dim 1 size 3 : tensor<8x8xf32> -> tensor<8x3xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.reduce_sum' op reduction size 3 does not divide dim 1 of extent 8

// -----

func.func @block_element_type(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %r = block.relu %t : tensor<8x8xf32> -> tensor<8x8xf64>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
// CHECK: 'block.relu' op element type f64 is not supported (use f16, bf16 or f32)

// -----

func.func @view_without_strides(%x: tensor<16x8xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<16x8xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<16x8xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] view [8, 16] : tensor<16x8xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'block.input' op block.input needs both view and strides, or neither

// -----

func.func @output_view_twice(%x: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<16x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] view [8, 16] strides [1, 4] : tensor<8x16xf32> -> tensor<16x8xf32>
    block.return %o : tensor<16x8xf32>
  }
  func.return %y : tensor<16x8xf32>
}
// CHECK: 'block.output' op block.output result strides [1, 4] do not visit every element of [16, 8] once

// -----

func.func @scalar_form_outside_graph(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = block.pow_scalar %x, 3.0 : tensor<8x16xf32> -> tensor<8x16xf32>
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'block.pow_scalar' op 'block.pow_scalar' must be inside a kernel.graph
