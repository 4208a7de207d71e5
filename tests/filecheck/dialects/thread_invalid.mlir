// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: a case that verifies would print a module, which the grep rejects.

// One case per verifier message of the thread level (thread.fuse and its scalar ops).

func.func @fuse_outside_graph(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %f = thread.fuse(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%e: f32):
    thread.yield %e : f32
  }
  func.return %f : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op 'thread.fuse' must be inside a kernel.graph

// -----

func.func @fuse_of_device_tensor(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%X) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
      thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op operand 0 is a device tensor (a kernel.graph argument): block-level ops read device tensors only through block.input

// -----

func.func @no_inputs(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    thread.fuse() : () -> () {
    ^bb1:
      thread.yield :
    }
    %f = block.exp %a#0 : tensor<8x16xf32> -> tensor<8x16xf32>
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op thread.fuse needs at least one input

// -----

func.func @inputs_do_not_broadcast(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %b = block.concat %a#1, %a#1 dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
    %f = thread.fuse(%a#0, %b) : (tensor<8x16xf32>, tensor<8x2xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32, %g: f32):
      thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op shapes 8x16 and 8x2 do not broadcast in dim 1

// -----

func.func @body_arguments(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f16):
      %g = thread.exp %e : f16
      thread.yield %e : f16
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op body arguments must be the element types of the inputs, in order

// -----

func.func @empty_body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op thread.fuse body must end with thread.yield

// -----

func.func @yield_count(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
      thread.yield %e, %e : f32, f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op thread.yield gives 2 values for 1 results

// -----

func.func @result_shape(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0, %a#1) : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x1xf32> {
    ^bb1(%e: f32, %g: f32):
      %m = thread.mul %e, %g : f32
      thread.yield %m : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op result 0 shape 8x1 does not match the expected 8x16

// -----

func.func @result_element_type(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf16> {
    ^bb1(%e: f32):
      thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op result 0 has element type f16, the body yields f32

// -----

func.func @foreign_op_in_body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
      %g = arith.addf %e, %e : f32
      thread.yield %g : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op 'arith.addf' cannot appear in a thread.fuse body

// -----

func.func @nested_fuse(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
      %g = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
      ^bb2(%h: f32):
        thread.yield %h : f32
      }
      thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.fuse' op 'thread.fuse' must be directly in a kernel.graph body or in its block.for_loop

// -----

func.func @thread_op_in_func(%x: f32) -> f32 {
  %y = thread.exp %x : f32
  func.return %y : f32
}
// CHECK: 'thread.exp' op 'thread.exp' must be directly inside a thread.fuse body

// -----

func.func @thread_yield_outside_fuse(%x: f32) -> f32 {
  thread.yield %x : f32
}
// CHECK: 'thread.yield' op thread.yield must end a thread.fuse body

// -----

func.func @use_before_def(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32):
      %g = thread.exp %h : f32
      %h = thread.exp %e : f32
      thread.yield %g : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.exp' op operand 0 is used before it is defined

// -----

// The operands and the result of a thread op have one type.
func.func @operand_types(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a:2 = block.for_loop : tensor<8x16xf32>, tensor<8x1xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      %r = block.accum_sum_last %t : tensor<8x16xf32> -> tensor<8x1xf32>
      block.yield %s, %r : tensor<8x16xf32>, tensor<8x1xf32>
    }
    %f = thread.fuse(%a#0, %a#1) : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32> {
    ^bb1(%e: f32, %g: f32):
      %c = "thread.add"(%e, %g) : (f32, f32) -> f16
      thread.yield %e : f32
    }
    %o = block.output %f omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'thread.add' op result 'result' at position 0 does not verify

// -----

func.func @scalar_form_in_func(%x: f32) -> f32 {
  %y = thread.sub_scalar %x, 1.0 : f32
  func.return %y : f32
}
// CHECK: 'thread.sub_scalar' op 'thread.sub_scalar' must be directly inside a thread.fuse body
