// RUN: mirage-opt %s --split-input-file --verify-diagnostics > %t && FileCheck %s < %t && not grep -q builtin.module %t
// Every case must fail: a case that verifies would print a module, which the grep rejects.

// One case per verifier message of the kernel-level ops (and of the op families they
// share with the block level). The block graph rules are in block_invalid.mlir.

func.func @result_shape(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = kernel.exp %x : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.exp' op result shape 4x4 does not match the expected 4x8

// -----

func.func @f64_element(%x: tensor<4x8xf64>) -> tensor<4x8xf64> {
  %y = kernel.exp %x : tensor<4x8xf64> -> tensor<4x8xf64>
  func.return %y : tensor<4x8xf64>
}
// CHECK: 'kernel.exp' op element type f64 is not supported (use f16, bf16 or f32)

// -----

func.func @int_element(%x: tensor<4x8xi32>) -> tensor<4x8xf32> {
  %y = kernel.square %x : tensor<4x8xi32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.square' op element type i32 is not supported (use f16, bf16 or f32)

// -----

func.func @dynamic_shape(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %y = kernel.relu %x : tensor<?x8xf32> -> tensor<?x8xf32>
  func.return %y : tensor<?x8xf32>
}
// CHECK: 'kernel.relu' op result must have a static shape of positive extents, got tensor<?x8xf32>

// -----

func.func @zero_extent(%x: tensor<0x8xf32>) -> tensor<0x8xf32> {
  %y = kernel.sqrt %x : tensor<0x8xf32> -> tensor<0x8xf32>
  func.return %y : tensor<0x8xf32>
}
// CHECK: 'kernel.sqrt' op result must have a static shape of positive extents, got tensor<0x8xf32>

// -----

func.func @not_a_tensor(%x: f32) -> f32 {
  %y = "kernel.exp"(%x) : (f32) -> f32
  func.return %y : f32
}
// CHECK: 'kernel.exp' op operand 'input' at position 0 does not verify

// -----

func.func @binary_ranks(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %y = kernel.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.add' op operand ranks differ (4x8 vs 8)

// -----

func.func @binary_broadcast(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x8xf32> {
  %y = kernel.mul %a, %b : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.mul' op shapes 4x8 and 4x2 do not broadcast in dim 1

// -----

func.func @binary_result(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.sub %a, %b : tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.sub' op result shape 4x1 does not match the expected 4x8

// -----

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) -> tensor<4xf32> {
  %y = kernel.matmul %a, %b : tensor<8xf32>, tensor<8x4xf32> -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK: 'kernel.matmul' op matmul operands need rank >= 2, got 8 and 8x4

// -----

func.func @matmul_ranks_differ(%a: tensor<2x4x8xf32>, %b: tensor<8x4xf32>) -> tensor<2x4x4xf32> {
  %y = kernel.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x4xf32> -> tensor<2x4x4xf32>
  func.return %y : tensor<2x4x4xf32>
}
// CHECK: 'kernel.matmul' op matmul operand ranks differ (2x4x8 vs 8x4)

// -----

func.func @matmul_contraction(%a: tensor<4x8xf32>, %b: tensor<6x4xf32>) -> tensor<4x4xf32> {
  %y = kernel.matmul %a, %b : tensor<4x8xf32>, tensor<6x4xf32> -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
// CHECK: 'kernel.matmul' op matmul contraction dims differ: lhs 4x8 has 8, rhs 6x4 has 6

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x4x4xf32> {
  %y = kernel.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x4xf32> -> tensor<2x4x4xf32>
  func.return %y : tensor<2x4x4xf32>
}
// CHECK: 'kernel.matmul' op shapes 2 and 3 do not broadcast in dim 0

// -----

func.func @matmul_result(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x8xf32> {
  %y = kernel.matmul %a, %b : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.matmul' op result shape 4x8 does not match the expected 4x2

// -----

func.func @mul_scalar_result(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = kernel.mul_scalar %x, 2.0 : tensor<4x8xf32> -> tensor<8x4xf32>
  func.return %y : tensor<8x4xf32>
}
// CHECK: 'kernel.mul_scalar' op result shape 8x4 does not match the expected 4x8

// -----

func.func @mul_scalar_int(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = "kernel.mul_scalar"(%x) <{scalar = 2 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.mul_scalar' op 2 : i64 should be of base attribute float

// -----

func.func @reduce_dim(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.reduce_sum %x dim 2 : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.reduce_sum' op reduction dim 2 is out of range for rank 2

// -----

func.func @reduce_negative_dim(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.reduce_max %x dim -1 : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.reduce_max' op reduction dim -1 is out of range for rank 2

// -----

func.func @reduce_size(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %y = kernel.reduce_sum %x dim 1 size 3 : tensor<4x8xf32> -> tensor<4x3xf32>
  func.return %y : tensor<4x3xf32>
}
// CHECK: 'kernel.reduce_sum' op reduction size 3 does not divide dim 1 of extent 8

// -----

func.func @reduce_size_zero(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.reduce_max %x dim 1 size 0 : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.reduce_max' op reduction size 0 does not divide dim 1 of extent 8

// -----

func.func @reduce_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.reduce_sum %x dim 1 size 2 : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.reduce_sum' op result shape 4x1 does not match the expected 4x2

// -----

func.func @rms_norm_rank(%x: tensor<f32>) -> tensor<f32> {
  %y = kernel.rms_norm %x : tensor<f32> -> tensor<f32>
  func.return %y : tensor<f32>
}
// CHECK: 'kernel.rms_norm' op rms_norm needs an operand of rank >= 1

// -----

func.func @rms_norm_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.rms_norm %x : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.rms_norm' op result shape 4x1 does not match the expected 4x8

// -----

func.func @rms_norm_gain_shape(%x: tensor<4x8xf32>, %g: tensor<1x4xf32>) -> tensor<4x8xf32> {
  %y = kernel.rms_norm %x affine(%g : tensor<1x4xf32>) : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.rms_norm' op shapes 4x8 and 1x4 do not broadcast in dim 1

// -----

func.func @rms_norm_gain_widens(%x: tensor<1x8xf32>, %g: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %y = kernel.rms_norm %x affine(%g : tensor<4x8xf32>) : tensor<1x8xf32> -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
// CHECK: 'kernel.rms_norm' op gain 4x8 must broadcast to the operand 1x8

// -----

func.func @rms_norm_three_affine(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.rms_norm %x affine(%g, %g, %g : tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.rms_norm' op rms_norm takes at most a gain and a bias, got 3 affine operands

// -----

func.func @rms_norm_negative_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.rms_norm %x eps -1.0e-05 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.rms_norm' op rms_norm eps must be finite and >= 0, got -1e-05

// -----

func.func @concat_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.concat %x dim 1 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.concat' op concat needs at least two operands

// -----

func.func @concat_mismatch(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<4x16xf32> {
  %y = kernel.concat %a, %b dim 1 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<4x16xf32>
  func.return %y : tensor<4x16xf32>
}
// CHECK: 'kernel.concat' op concat operands 4x8 and 2x8 differ outside dim 1

// -----

func.func @concat_dim(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %y = kernel.concat %a, %b dim 2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  func.return %y : tensor<4x16xf32>
}
// CHECK: 'kernel.concat' op concat dim 2 is out of range for rank 2

// -----

func.func @concat_result(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = kernel.concat %a, %b dim 0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.concat' op result shape 4x8 does not match the expected 8x8

// -----

func.func @use_before_def(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = kernel.exp %b : tensor<4x8xf32> -> tensor<4x8xf32>
  %b = kernel.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %a : tensor<4x8xf32>
}
// CHECK: 'kernel.exp' op operand 0 is used before it is defined

// -----

// kernel.graph properties and structure.

func.func @grid_entries(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op grid must be 3 positive extents (x, y, z), got [1, 1]

// -----

func.func @grid_zero(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 0, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op grid must be 3 positive extents (x, y, z), got [1, 0, 1]

// -----

func.func @block_entries(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1, 1] forloop 1 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op block must be 3 positive extents (x, y, z), got [128, 1, 1, 1]

// -----

func.func @block_negative(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, -1, 1] forloop 1 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op block must be 3 positive extents (x, y, z), got [128, -1, 1]

// -----

func.func @too_many_threads(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [256, 4, 2] forloop 1 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op block has 2048 threads, more than the 1024 allowed

// -----

func.func @forloop_zero(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 0 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op forloop range must be at least 1, got 0

// -----

func.func @graph_input_type(%x: tensor<8x16xf64>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf64>) -> () {
  ^bb0(%X: tensor<8x16xf64>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op element type f64 is not supported (use f16, bf16 or f32)

// -----

func.func @graph_use_before_def(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%z) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  %z = kernel.exp %x : tensor<8x16xf32> -> tensor<8x16xf32>
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op operand 0 is used before it is defined

// -----

func.func @body_args(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf16>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op body argument types must match the input types

// -----

func.func @no_loop(%x: tensor<8x16xf32>) -> () {
  kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> () {
  ^bb0(%X: tensor<8x16xf32>):
    block.return :
  }
  func.return
}
// CHECK: 'kernel.graph' op body must hold exactly one block.for_loop, found 0

// -----

func.func @two_loops(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %b = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_max %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op body must hold exactly one block.for_loop, found 2

// -----

func.func @loop_not_first(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %c = arith.constant dense<1.0> : tensor<8x16xf32>
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op block.for_loop must be the first op of the body: input iterators run inside the loop or, read once, after it

// -----

func.func @return_types(%x: tensor<8x16xf32>) -> tensor<8x16xf16> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf16> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf16>
}
// CHECK: 'kernel.graph' op block.return operand types must match the kernel.graph result types

// -----

func.func @foreign_op_in_body(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %c = arith.constant dense<1.0> : tensor<8x16xf32>
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.graph' op 'arith.constant' cannot appear in a kernel.graph body (only block and thread ops)

// -----

func.func @kernel_op_after_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %e = kernel.exp %a : tensor<8x16xf32> -> tensor<8x16xf32>
    %o = block.output %e omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.exp' op 'kernel.exp' cannot appear inside a kernel.graph (only block and thread ops)

// -----

func.func @kernel_op_in_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 1 : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x16xf32> {
      %t = block.input %X imap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
      %m = kernel.matmul %t, %t : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
      %s = block.accum_sum %t : tensor<8x16xf32> -> tensor<8x16xf32>
      block.yield %s : tensor<8x16xf32>
    }
    %o = block.output %a omap [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    block.return %o : tensor<8x16xf32>
  }
  func.return %y : tensor<8x16xf32>
}
// CHECK: 'kernel.matmul' op 'kernel.matmul' cannot appear inside a kernel.graph (only block and thread ops)

// -----

// 512x256 f32 tiles (512 KiB each) do not fit in shared memory.
func.func @shared_memory(%x: tensor<1024x256xf32>) -> tensor<1024x256xf32> {
  %y = kernel.graph(%x) grid [2, 1, 1] block [128, 1, 1] forloop 1 : (tensor<1024x256xf32>) -> tensor<1024x256xf32> {
  ^bb0(%X: tensor<1024x256xf32>):
    %a = block.for_loop : tensor<512x256xf32> {
      %t = block.input %X imap [0, -1, -1] : tensor<1024x256xf32> -> tensor<512x256xf32>
      %s = block.accum_sum %t : tensor<512x256xf32> -> tensor<512x256xf32>
      block.yield %s : tensor<512x256xf32>
    }
    %o = block.output %a omap [0, -1, -1] : tensor<512x256xf32> -> tensor<1024x256xf32>
    block.return %o : tensor<1024x256xf32>
  }
  func.return %y : tensor<1024x256xf32>
}
// CHECK: 'kernel.graph' op block graph needs 1048576 bytes of shared memory, more than the 232448 bytes a block may use

// -----

func.func @add_scalar_result(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = kernel.add_scalar %x, 1.0 : tensor<4x8xf32> -> tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}
// CHECK: 'kernel.add_scalar' op result shape 4x1 does not match the expected 4x8

// -----

func.func @div_scalar_int(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = "kernel.div_scalar"(%x) <{scalar = 2 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}
// CHECK: 'kernel.div_scalar' op 2 : i64 should be of base attribute float
