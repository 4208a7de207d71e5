"""The block level: what one thread block of a `kernel.graph` does with shared-memory tiles.

Structure of a graph body, which makes the schedule plain:

    block.for_loop   -- runs forloop_range times; input iterators and per-iteration ops
                        inside, ended by `block.yield` of accumulators
    ...              -- ops after the loop run once per block (among them input
                        iterators with forloop_dim -1: epilogue operands, read once)
    block.output     -- output savers
    block.return
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from mirage.dialects import common, shapes
from mirage.dialects.elementwise import define_elementwise_ops, define_scalar_ops
from mirage.dialects.opkinds import MUL_SCALAR
from mirage.dialects.scope import (
    BlockLoop,
    LaunchGraph,
    check_block_operands,
    enclosing_graph,
    in_loop,
)
from mirage.dialects.strides import check_view, check_window, is_window
from mirage.dialects.types import as_tensor, check_result_shape, element_name, tensor_shape


class _BlockLevel(IRDLOperation, ABC):
    """Block-level ops live in a kernel.graph, in its loop or after it."""

    def verify_(self) -> None:
        enclosing_graph(self)
        check_block_operands(self)
        super().verify_()


class UnaryOp(_BlockLevel, common.UnaryOp, ABC): ...


class BinaryOp(_BlockLevel, common.BinaryOp, ABC): ...


@irdl_op_definition
class MatmulOp(_BlockLevel, common.MatmulOp):
    name = "block.matmul"


class ScalarOp(_BlockLevel, common.ScalarOp, ABC): ...


@irdl_op_definition
class ReduceSumOp(_BlockLevel, common.ReduceOp):
    name = "block.reduce_sum"


@irdl_op_definition
class ReduceMaxOp(_BlockLevel, common.ReduceOp):
    name = "block.reduce_max"


@irdl_op_definition
class RmsNormOp(_BlockLevel, common.RmsNormOp):
    name = "block.rms_norm"


@irdl_op_definition
class ConcatOp(_BlockLevel, common.ConcatOp):
    name = "block.concat"


ELEMENTWISE_OPS = define_elementwise_ops("block", UnaryOp, BinaryOp)
SCALAR_OPS = define_scalar_ops("block", ScalarOp)
"""`block.mul_scalar`, `block.add_scalar`, ...: one op class per scaled kind."""
MulScalarOp = SCALAR_OPS[MUL_SCALAR.name]


def _grid_of(op: Operation) -> tuple[tuple[int, int, int], int] | None:
    """The enclosing kernel.graph's grid and loop range, or None where they are malformed:
    the body is verified before the kernel.graph, which then reports them itself."""
    graph = enclosing_graph(op)
    assert isinstance(graph, LaunchGraph)
    return graph.launch()


def _ints(attr: DenseArrayBase[IntegerType]) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def _viewed(op: InputOp | OutputOp, storage: tuple[int, ...], what: str) -> tuple[int, ...]:
    """The logical shape of an iterator's or saver's device tensor: its view where it has
    one (checked against the tensor), else the tensor's own shape."""
    if op.view is None and op.strides is None:
        if isinstance(op, InputOp) and op.offset is not None:
            raise VerifyException(f"{op.name} offset needs a view and strides")
        return storage
    if op.view is None or op.strides is None:
        raise VerifyException(f"{op.name} needs both view and strides, or neither")
    offset = op.window_offset if isinstance(op, InputOp) else 0
    view, strides = _ints(op.view), _ints(op.strides)
    try:
        if isinstance(op, InputOp) and is_window(storage, view, offset):
            check_window(storage, view, strides, offset, f"{op.name} {what}")
        else:
            check_view(storage, view, strides, f"{op.name} {what}")
    except shapes.ShapeError as e:
        raise VerifyException(str(e)) from e
    return _ints(op.view)


@irdl_op_definition
class InputOp(IRDLOperation):
    """Input iterator: the tile of a device tensor that this block reads in this loop
    iteration. `imap[g]` is the tensor dim that grid dim g (x, y, z) partitions, or -1 to
    give every block the whole extent; `forloop_dim` is the dim the loop walks, or -1.

    Directly in the kernel.graph body after the block.for_loop, it is an epilogue operand:
    read once per block, after the last iteration (a bias added to an accumulated
    product), so its `forloop_dim` must be -1."""

    name = "block.input"
    source = operand_def(TensorType)
    imap = prop_def(DenseArrayBase.constr(i64))
    forloop_dim = prop_def(IntegerAttr[I64], default_value=IntegerAttr(-1, i64))
    view = opt_prop_def(DenseArrayBase.constr(i64))
    """The logical tensor that imap and forloop_dim cut, read through `strides` from the
    source's storage (`mirage.dialects.strides`): a transposed or head-split operand read
    in place. Absent: the source itself."""
    strides = opt_prop_def(DenseArrayBase.constr(i64))
    """Element strides of the view's dims into the source's row-major storage."""
    offset = opt_prop_def(IntegerAttr[I64])
    """The storage element the view's first element is (absent: 0): with a view that
    covers part of the source, a window (a slice of it, such as one half of a fused
    weight)."""
    result = result_def(TensorType)
    assembly_format = (
        "$source `imap` $imap (`forloop_dim` $forloop_dim^)? (`view` $view^)? "
        "(`strides` $strides^)? (`offset` $offset^)? attr-dict `:` type($source) `->` "
        "type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue | Operation,
        imap: Sequence[int],
        forloop_dim: int,
        result_type: Attribute,
        view: tuple[Sequence[int], Sequence[int]] | None = None,
        offset: int = 0,
    ):
        properties: dict[str, Attribute] = {
            "imap": DenseArrayBase.from_list(i64, list(imap)),
            "forloop_dim": IntegerAttr(forloop_dim, i64),
        }
        if view is not None:
            properties["view"] = DenseArrayBase.from_list(i64, list(view[0]))
            properties["strides"] = DenseArrayBase.from_list(i64, list(view[1]))
        if offset:
            properties["offset"] = IntegerAttr(offset, i64)
        super().__init__(operands=[source], result_types=[result_type], properties=properties)

    @property
    def imap_dims(self) -> tuple[int, ...]:
        return _ints(self.imap)

    @property
    def window_offset(self) -> int:
        return 0 if self.offset is None else self.offset.value.data

    def verify_(self) -> None:
        config = _grid_of(self)
        graph = enclosing_graph(self)
        if not in_loop(self):
            if self.parent_op() is not graph:
                raise VerifyException(
                    "block.input must be directly inside the block.for_loop or directly in "
                    "the kernel.graph body after it"
                )
            if self.forloop_dim.value.data != -1:
                raise VerifyException(
                    "block.input after the block.for_loop must have forloop_dim -1 (it is "
                    f"read once, after the last iteration), got {self.forloop_dim.value.data}"
                )
        source = self.source
        if not (isinstance(source, BlockArgument) and source.block is graph.regions[0].block):
            raise VerifyException("block.input must read an argument of the enclosing kernel.graph")
        full = _viewed(self, tensor_shape(source.type, "source"), "source")
        if config is None:
            return
        grid, loops = config
        try:
            want = shapes.tile_shape(full, self.imap_dims, self.forloop_dim.value.data, grid, loops)
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e
        check_result_shape(tensor_shape(self.result.type, "tile"), want, "tile")
        source_elem = as_tensor(source.type).element_type
        if element_name(source_elem) != element_name(as_tensor(self.result.type).element_type):
            raise VerifyException("tile element type must match the source tensor's")


@irdl_op_definition
class OutputOp(IRDLOperation):
    """Output saver: every block writes its tile into the device tensor at the place its
    grid coordinates and `omap` give (omap as imap; grid dims of extent > 1 must be
    mapped). The tile is converted to the output's element type."""

    name = "block.output"
    input = operand_def(TensorType)
    omap = prop_def(DenseArrayBase.constr(i64))
    view = opt_prop_def(DenseArrayBase.constr(i64))
    """The logical tensor that omap assembles, written through `strides` into the result's
    storage (a transposed or head-merged output written in place). Absent: the result."""
    strides = opt_prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)
    assembly_format = (
        "$input `omap` $omap (`view` $view^)? (`strides` $strides^)? attr-dict "
        "`:` type($input) `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        omap: Sequence[int],
        result_type: Attribute,
        view: tuple[Sequence[int], Sequence[int]] | None = None,
    ):
        properties: dict[str, Attribute] = {"omap": DenseArrayBase.from_list(i64, list(omap))}
        if view is not None:
            properties["view"] = DenseArrayBase.from_list(i64, list(view[0]))
            properties["strides"] = DenseArrayBase.from_list(i64, list(view[1]))
        super().__init__(operands=[input], result_types=[result_type], properties=properties)

    @property
    def omap_dims(self) -> tuple[int, ...]:
        return _ints(self.omap)

    def verify_(self) -> None:
        config = _grid_of(self)
        if in_loop(self):
            raise VerifyException("block.output must come after the block.for_loop, not inside it")
        check_block_operands(self)
        if config is None:
            return
        grid, _ = config
        try:
            want = shapes.saved_shape(tensor_shape(self.input.type, "tile"), self.omap_dims, grid)
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e
        check_result_shape(_viewed(self, tensor_shape(self.result.type, "result"), "result"), want)
        for use in self.result.uses:
            if not isinstance(use.operation, ReturnOp):
                raise VerifyException("a block.output result may only be used by block.return")


@irdl_op_definition
class ForLoopOp(IRDLOperation, BlockLoop):
    """The block's for-loop. Its body runs once per iteration; its results are the final
    values of the accumulators its `block.yield` lists."""

    name = "block.for_loop"
    results_ = var_result_def(TensorType)
    body = region_def("single_block")
    assembly_format = "attr-dict `:` type($results_) $body"

    def __init__(self, result_types: Sequence[Attribute], body: Region | None = None):
        super().__init__(result_types=[result_types], regions=[body or Region(Block())])

    def verify_(self) -> None:
        graph = enclosing_graph(self)
        if self.parent_op() is not graph:
            raise VerifyException("block.for_loop must be directly in a kernel.graph body")
        entry = self.body.block
        if entry.args:
            raise VerifyException("block.for_loop body takes no arguments")
        term = entry.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException("block.for_loop body must end with block.yield")
        if [v.type for v in term.values] != [r.type for r in self.results_]:
            raise VerifyException("block.yield operand types must match the loop's result types")
        if not self.results_:
            raise VerifyException("block.for_loop must yield at least one accumulator")
        for op in entry.ops:
            if op.dialect_name() not in ("block", "thread"):
                raise VerifyException(
                    f"'{op.name}' cannot appear in a block.for_loop (only block and thread ops)"
                )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends the loop body, naming the accumulators whose final values leave the loop."""

    name = "block.yield"
    values = var_operand_def(TensorType)
    assembly_format = "$values attr-dict `:` type($values)"
    traits = traits_def(IsTerminator())

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), ForLoopOp):
            raise VerifyException("block.yield must end a block.for_loop body")
        for i, v in enumerate(self.values):
            if not isinstance(v.owner, AccumulatorOp) or v.owner.parent is not self.parent:
                raise VerifyException(
                    f"block.yield operand {i} must be an accumulator of this loop: every "
                    "value leaves the loop through exactly one accumulator"
                )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends a kernel.graph body, listing its outputs in result order."""

    name = "block.return"
    values = var_operand_def(TensorType)
    assembly_format = "$values attr-dict `:` type($values)"
    traits = traits_def(IsTerminator())

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), LaunchGraph):
            raise VerifyException("block.return must end a kernel.graph body")
        for i, v in enumerate(self.values):
            if not isinstance(v.owner, OutputOp):
                raise VerifyException(f"block.return operand {i} must be a block.output result")


class AccumulatorOp(IRDLOperation, ABC):
    """A for-loop accumulator: combines its operand over all iterations. Its result is the
    final value and may only be yielded."""

    input = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation, result_type: Attribute | None = None):
        if result_type is None:
            it = as_tensor(SSAValue.get(input).type)
            shape = self.result_shape(tuple(it.get_shape()))
            result_type = TensorType(it.element_type, shape)
        super().__init__(operands=[input], result_types=[result_type])

    @staticmethod
    def result_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape

    def verify_(self) -> None:
        enclosing_graph(self)
        if not in_loop(self):
            raise VerifyException(f"{self.name} must be directly inside the block.for_loop")
        check_block_operands(self)
        try:
            want = self.result_shape(tensor_shape(self.input.type, "operand"))
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e
        check_result_shape(tensor_shape(self.result.type, "result"), want)
        for use in self.result.uses:
            if not isinstance(use.operation, YieldOp):
                raise VerifyException(
                    f"{self.name} result may only be used by block.yield (it is final only "
                    "after the last iteration)"
                )


class _LastDimAccumulator(AccumulatorOp, ABC):
    @staticmethod
    def result_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
        return shapes.last_dim_to_one(shape)


@irdl_op_definition
class AccumSumOp(AccumulatorOp):
    """Sum over iterations."""

    name = "block.accum_sum"


@irdl_op_definition
class AccumMaxOp(AccumulatorOp):
    """Elementwise maximum over iterations."""

    name = "block.accum_max"


@irdl_op_definition
class AccumSumLastOp(_LastDimAccumulator):
    """Sum over iterations and over the last dim."""

    name = "block.accum_sum_last"


class _EpsAccumulator(_LastDimAccumulator, ABC):
    """A last-dim mean with `eps` added to it (a norm's epsilon; default 0)."""

    eps = opt_prop_def(FloatAttr[Float64Type])
    """Absent: 0."""
    assembly_format = "$input (`eps` $eps^)? attr-dict `:` type($input) `->` type($result)"

    def __init__(
        self, input: SSAValue | Operation, result_type: Attribute | None = None, eps: float = 0.0
    ):
        super().__init__(input, result_type)
        if eps:
            self.eps = FloatAttr(eps, f64)

    @property
    def epsilon(self) -> float:
        return 0.0 if self.eps is None else self.eps.value.data

    def verify_(self) -> None:
        super().verify_()
        eps = self.epsilon
        if not (eps >= 0.0 and math.isfinite(eps)):
            raise VerifyException(f"{self.name} eps must be finite and >= 0, got {eps}")


@irdl_op_definition
class AccumMeanLastOp(_EpsAccumulator):
    """Mean over iterations and the last dim, plus eps."""

    name = "block.accum_mean_last"


@irdl_op_definition
class AccumRmsLastOp(_EpsAccumulator):
    """sqrt(mean of squares + eps) over iterations and the last dim."""

    name = "block.accum_rms_last"


@irdl_op_definition
class AccumRescaleOp(AccumulatorOp):
    """Online-softmax accumulator: sum over iterations i of input_i * exp(scale_i - M),
    M the maximum of scale_i over all iterations (scale broadcasts to input)."""

    name = "block.accum_rescale"
    # Declared again so that IRDL orders the operands (input, scale), as the model does.
    input = operand_def(TensorType)
    scale = operand_def(TensorType)
    assembly_format = (
        "$input `,` $scale attr-dict `:` type($input) `,` type($scale) `->` type($result)"
    )

    def __init__(
        self,
        input: SSAValue | Operation,
        scale: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[input, scale],
            result_types=[result_type or SSAValue.get(input).type],
        )

    def verify_(self) -> None:
        super().verify_()
        value = tensor_shape(self.input.type, "operand")
        scale = tensor_shape(self.scale.type, "scale")
        try:
            if shapes.broadcast(value, scale) != value:
                raise VerifyException("scale must broadcast to the operand's shape, not widen it")
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e


ACCUMULATOR_OPS: tuple[type[AccumulatorOp], ...] = (
    AccumSumOp,
    AccumMaxOp,
    AccumSumLastOp,
    AccumMeanLastOp,
    AccumRmsLastOp,
    AccumRescaleOp,
)

BlockDialect = Dialect(
    "block",
    [
        InputOp,
        OutputOp,
        ForLoopOp,
        YieldOp,
        ReturnOp,
        MatmulOp,
        ReduceSumOp,
        ReduceMaxOp,
        RmsNormOp,
        ConcatOp,
        *ACCUMULATOR_OPS,
        *ELEMENTWISE_OPS.values(),
        *SCALAR_OPS.values(),
    ],
)
