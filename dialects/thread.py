"""The thread level: a fused elementwise region that every thread runs on the elements it
owns, in registers. `thread.fuse` is used at block level; its body holds scalar ops."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, AnyFloatConstr, Float64Type, FloatAttr, TensorType, f64
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from mirage.dialects import shapes
from mirage.dialects.elementwise import define_elementwise_ops, define_scalar_ops
from mirage.dialects.opkinds import MUL_SCALAR
from mirage.dialects.scope import check_block_operands, check_local_operands, enclosing_graph
from mirage.dialects.types import as_tensor, check_result_shape, element_name, tensor_shape


class _InFuse(IRDLOperation, ABC):
    def verify_(self) -> None:
        if not isinstance(self.parent_op(), FuseOp):
            raise VerifyException(f"'{self.name}' must be directly inside a thread.fuse body")
        check_local_operands(self, allow_block_args=True)
        super().verify_()


class UnaryOp(_InFuse, ABC):
    """A scalar elementwise op."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr)
    input = operand_def(T)
    result = result_def(T)
    assembly_format = "$input attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation):
        super().__init__(operands=[input], result_types=[SSAValue.get(input).type])


class BinaryOp(_InFuse, ABC):
    """A scalar elementwise op of two operands of one type."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[SSAValue.get(lhs).type])


ELEMENTWISE_OPS = define_elementwise_ops("thread", UnaryOp, BinaryOp)


class ScalarOp(_InFuse, ABC):
    """A scalar op of a scaled kind: the operand and the constant `scalar`."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr)
    input = operand_def(T)
    scalar = prop_def(FloatAttr[Float64Type])
    result = result_def(T)
    assembly_format = "$input `,` $scalar attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation, scalar: float):
        super().__init__(
            operands=[input],
            result_types=[SSAValue.get(input).type],
            properties={"scalar": FloatAttr(scalar, f64)},
        )


SCALAR_OPS = define_scalar_ops("thread", ScalarOp)
MulScalarOp = SCALAR_OPS[MUL_SCALAR.name]


@irdl_op_definition
class YieldOp(IRDLOperation):
    name = "thread.yield"
    values = var_operand_def(AnyFloatConstr)
    assembly_format = "$values attr-dict `:` type($values)"
    traits = traits_def(IsTerminator())

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), FuseOp):
            raise VerifyException("thread.yield must end a thread.fuse body")
        check_local_operands(self, allow_block_args=True)


@irdl_op_definition
class FuseOp(IRDLOperation):
    """Elementwise chain over tiles: the body runs once per element of the (broadcast)
    operands; its arguments are the elements' scalars, `thread.yield` gives the results'."""

    name = "thread.fuse"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    assembly_format = "`(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs) $body"
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        output_types: Sequence[Attribute],
        body: Region | None = None,
    ):
        if body is None:
            arg_types: list[Attribute] = []
            for i in inputs:
                arg_types.append(as_tensor(SSAValue.get(i).type).element_type)
            body = Region(Block(arg_types=arg_types))
        super().__init__(operands=[inputs], result_types=[output_types], regions=[body])

    def verify_(self) -> None:
        enclosing_graph(self)
        check_block_operands(self)
        in_shapes = [tensor_shape(v.type, f"input {i}") for i, v in enumerate(self.inputs)]
        if not in_shapes:
            raise VerifyException("thread.fuse needs at least one input")
        try:
            shape = shapes.broadcast_all(in_shapes)
        except shapes.ShapeError as e:
            raise VerifyException(str(e)) from e
        entry = self.body.block
        want_args = [v.type.element_type for v in self.inputs]  # type: ignore[attr-defined]
        if [a.type for a in entry.args] != want_args:
            raise VerifyException(
                "body arguments must be the element types of the inputs, in order"
            )
        term = entry.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException("thread.fuse body must end with thread.yield")
        if len(term.values) != len(self.outputs):
            raise VerifyException(
                f"thread.yield gives {len(term.values)} values for {len(self.outputs)} results"
            )
        for i, (v, r) in enumerate(zip(term.values, self.outputs, strict=True)):
            check_result_shape(tensor_shape(r.type, f"result {i}"), shape, f"result {i}")
            assert isinstance(r.type, TensorType)
            if v.type != r.type.element_type:
                raise VerifyException(
                    f"result {i} has element type {r.type.element_type}, the body yields {v.type}"
                )
        for op in entry.ops:
            if op.dialect_name() != "thread":
                raise VerifyException(f"'{op.name}' cannot appear in a thread.fuse body")
        for a in entry.args:
            assert isinstance(a.type, AnyFloat)
            element_name(a.type)


ThreadDialect = Dialect(
    "thread", [FuseOp, YieldOp, *ELEMENTWISE_OPS.values(), *SCALAR_OPS.values()]
)
