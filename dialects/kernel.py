"""The kernel level: ops on device tensors, each a kernel launch of its own, and the
graph-defined op `kernel.graph` whose body is a block graph (one custom kernel)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsolatedFromAbove, Pure
from xdsl.utils.exceptions import VerifyException

from mirage.dialects import block as blk
from mirage.dialects import common, shapes
from mirage.dialects.elementwise import define_elementwise_ops, define_scalar_ops
from mirage.dialects.hardware import largest_block
from mirage.dialects.opkinds import MUL_SCALAR
from mirage.dialects.scope import LaunchGraph, check_dominance
from mirage.dialects.smem import peak_shared_memory
from mirage.dialects.types import as_tensor, check_result_shape, tensor_shape


class _KernelLevel(IRDLOperation, ABC):
    """Kernel-level ops run on device tensors, outside any kernel.graph."""

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, GraphOp):
                raise VerifyException(
                    f"'{self.name}' cannot appear inside a kernel.graph (only block and thread ops)"
                )
            parent = parent.parent_op()
        check_dominance(self)
        super().verify_()


class UnaryOp(_KernelLevel, common.UnaryOp, ABC): ...


class BinaryOp(_KernelLevel, common.BinaryOp, ABC): ...


@irdl_op_definition
class MatmulOp(_KernelLevel, common.MatmulOp):
    name = "kernel.matmul"


class ScalarOp(_KernelLevel, common.ScalarOp, ABC): ...


@irdl_op_definition
class ReduceSumOp(_KernelLevel, common.ReduceOp):
    name = "kernel.reduce_sum"


@irdl_op_definition
class ReduceMaxOp(_KernelLevel, common.ReduceOp):
    name = "kernel.reduce_max"


@irdl_op_definition
class RmsNormOp(_KernelLevel, common.RmsNormOp):
    name = "kernel.rms_norm"


@irdl_op_definition
class ConcatOp(_KernelLevel, common.ConcatOp):
    name = "kernel.concat"


@irdl_op_definition
class ConstantOp(_KernelLevel):
    """A tensor holding one value in every element (a splat). Its result broadcasts like
    any operand, so `c - x` is `kernel.sub` of a constant of extents 1 and x (`x + c` has
    an immediate form, `kernel.add_scalar`, which needs no constant)."""

    name = "kernel.constant"
    value = prop_def(FloatAttr[Float64Type])
    result = result_def(TensorType)
    assembly_format = "$value attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, value: float, result_type: Attribute):
        super().__init__(result_types=[result_type], properties={"value": FloatAttr(value, f64)})

    def verify_(self) -> None:
        super().verify_()
        tensor_shape(self.result.type, "result")


@irdl_op_definition
class TransposeOp(_KernelLevel):
    """Permutes dims: result dim i is operand dim permutation[i]."""

    name = "kernel.transpose"
    input = operand_def(TensorType)
    permutation = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)
    assembly_format = (
        "$input `permutation` $permutation attr-dict `:` type($input) `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        permutation: Sequence[int],
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            it = as_tensor(SSAValue.get(input).type)
            shape = shapes.transpose(tuple(it.get_shape()), permutation)
            result_type = TensorType(it.element_type, shape)
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"permutation": _dense_i64(permutation)},
        )

    def verify_(self) -> None:
        super().verify_()
        perm = [int(p) for p in self.permutation.get_values()]
        try:
            want = shapes.transpose(tensor_shape(self.input.type, "operand"), perm)
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e
        check_result_shape(tensor_shape(self.result.type, "result"), want)


@irdl_op_definition
class SliceOp(_KernelLevel):
    """A static window of the operand with unit strides: result element i is operand
    element offsets + i. The result type gives the sizes."""

    name = "kernel.slice"
    input = operand_def(TensorType)
    offsets = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)
    assembly_format = "$input `offsets` $offsets attr-dict `:` type($input) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        offsets: Sequence[int],
        sizes: Sequence[int] | None = None,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            it = as_tensor(SSAValue.get(input).type)
            assert sizes is not None
            shape = shapes.slice_(tuple(it.get_shape()), offsets, sizes)
            result_type = TensorType(it.element_type, shape)
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"offsets": _dense_i64(offsets)},
        )

    def verify_(self) -> None:
        super().verify_()
        src = tensor_shape(self.input.type, "operand")
        out = tensor_shape(self.result.type, "result")
        src_element = as_tensor(self.input.type).element_type
        out_element = as_tensor(self.result.type).element_type
        if src_element != out_element:
            raise VerifyException(
                f"result element type {out_element} differs from the operand's {src_element} "
                "(a slice only selects elements)"
            )
        offsets = [int(o) for o in self.offsets.get_values()]
        if len(out) != len(src):
            raise VerifyException(
                f"result rank {len(out)} differs from the operand rank {len(src)}"
            )
        try:
            shapes.slice_(src, offsets, out)
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e


@irdl_op_definition
class ReshapeOp(_KernelLevel):
    """The same elements in row-major order, under another shape."""

    name = "kernel.reshape"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        super().verify_()
        try:
            shapes.reshape(
                tensor_shape(self.input.type, "operand"), tensor_shape(self.result.type, "result")
            )
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e


ELEMENTWISE_OPS = define_elementwise_ops("kernel", UnaryOp, BinaryOp)
SCALAR_OPS = define_scalar_ops("kernel", ScalarOp)
"""`kernel.mul_scalar`, `kernel.add_scalar`, ...: one op class per scaled kind."""
MulScalarOp = SCALAR_OPS[MUL_SCALAR.name]
"""`kernel.exp`, `kernel.add`, ...: one op class per row of `mirage.dialects.opkinds`."""


def _dense_i64(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


@irdl_op_definition
class GraphOp(IRDLOperation, LaunchGraph):
    """One kernel launch whose body is a block graph. The body's arguments are the
    launch's device tensors; its single `block.for_loop` holds what runs in every
    iteration; the ops after the loop run once per block; `block.return` lists the output
    savers' results."""

    name = "kernel.graph"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    grid = prop_def(DenseArrayBase.constr(i64))
    block = prop_def(DenseArrayBase.constr(i64))
    forloop_range = prop_def(IntegerAttr[I64])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), Pure())
    assembly_format = (
        "`(` $inputs `)` `grid` $grid `block` $block `forloop` $forloop_range attr-dict "
        "`:` functional-type($inputs, $outputs) $body"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        output_types: Sequence[Attribute],
        grid: Sequence[int],
        block: Sequence[int],
        forloop_range: int,
        body: Region | None = None,
    ):
        if body is None:
            body = Region(Block(arg_types=[SSAValue.get(i).type for i in inputs]))
        super().__init__(
            operands=[inputs],
            result_types=[output_types],
            properties={
                "grid": _dense_i64(grid),
                "block": _dense_i64(block),
                "forloop_range": IntegerAttr(forloop_range, i64),
            },
            regions=[body],
        )

    @property
    def grid_dims(self) -> tuple[int, int, int]:
        g = self.grid.get_values()
        return (int(g[0]), int(g[1]), int(g[2]))

    def launch(self) -> tuple[tuple[int, int, int], int] | None:
        grid = self.grid.get_values()
        if len(grid) != 3 or any(g < 1 for g in grid) or self.loop_range < 1:
            return None
        return self.grid_dims, self.loop_range

    @property
    def block_dims(self) -> tuple[int, int, int]:
        b = self.block.get_values()
        return (int(b[0]), int(b[1]), int(b[2]))

    @property
    def loop_range(self) -> int:
        return self.forloop_range.value.data

    def verify_(self) -> None:
        grid = self.grid.get_values()
        block = self.block.get_values()
        if len(grid) != 3 or any(g < 1 for g in grid):
            raise VerifyException(f"grid must be 3 positive extents (x, y, z), got {list(grid)}")
        if len(block) != 3 or any(b < 1 for b in block):
            raise VerifyException(f"block must be 3 positive extents (x, y, z), got {list(block)}")
        # the largest target's limits: the planner and the search apply their own target's
        largest = largest_block()
        threads = block[0] * block[1] * block[2]
        if threads > largest.max_threads_per_block:
            raise VerifyException(
                f"block has {threads} threads, more than the "
                f"{largest.max_threads_per_block} allowed"
            )
        check_dominance(self)
        if self.loop_range < 1:
            raise VerifyException(f"forloop range must be at least 1, got {self.loop_range}")
        for i, v in enumerate(self.inputs):
            tensor_shape(v.type, f"input {i}")
        entry = self.body.block
        if [a.type for a in entry.args] != [v.type for v in self.inputs]:
            raise VerifyException("body argument types must match the input types")
        loops = [op for op in entry.ops if isinstance(op, blk.ForLoopOp)]
        if len(loops) != 1:
            raise VerifyException(f"body must hold exactly one block.for_loop, found {len(loops)}")
        if entry.first_op is not loops[0]:
            raise VerifyException(
                "block.for_loop must be the first op of the body: input iterators run "
                "inside the loop or, read once, after it"
            )
        ret = entry.last_op
        if not isinstance(ret, blk.ReturnOp):
            raise VerifyException("body must end with block.return")
        if [v.type for v in ret.values] != [r.type for r in self.outputs]:
            raise VerifyException(
                "block.return operand types must match the kernel.graph result types"
            )
        for op in entry.ops:
            if op.dialect_name() not in ("block", "thread"):
                raise VerifyException(
                    f"'{op.name}' cannot appear in a kernel.graph body (only block and thread ops)"
                )
        peak = peak_shared_memory(self)
        if peak > largest.shared_memory_per_block:
            raise VerifyException(
                f"block graph needs {peak} bytes of shared memory, more than the "
                f"{largest.shared_memory_per_block} bytes a block may use"
            )


KernelDialect = Dialect(
    "kernel",
    [
        MatmulOp,
        ReduceSumOp,
        ReduceMaxOp,
        RmsNormOp,
        ConcatOp,
        ConstantOp,
        TransposeOp,
        ReshapeOp,
        SliceOp,
        GraphOp,
        *ELEMENTWISE_OPS.values(),
        *SCALAR_OPS.values(),
    ],
)
