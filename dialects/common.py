"""Op families shared by the kernel and block levels: each concrete op is two lines.

The families verify shapes through `mirage.dialects.shapes`, the same rules the search
model uses.
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mirage.dialects import shapes
from mirage.dialects.types import as_tensor, check_result_shape, tensor_shape


def _shape_error(e: shapes.ShapeError) -> VerifyException:
    return VerifyException(str(e))


def _same_shape_type(like: SSAValue | Operation, result_type: Attribute | None) -> Attribute:
    return result_type if result_type is not None else SSAValue.get(like).type


class UnaryOp(IRDLOperation, ABC):
    """An elementwise op of one tensor."""

    input = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation, result_type: Attribute | None = None):
        super().__init__(operands=[input], result_types=[_same_shape_type(input, result_type)])

    def verify_(self) -> None:
        check_result_shape(
            tensor_shape(self.result.type, "result"), tensor_shape(self.input.type, "operand")
        )


class _TwoTensorOp(IRDLOperation, ABC):
    """Two tensor operands, one result whose shape `shape_rule` gives."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"
    traits = traits_def(Pure())

    @staticmethod
    def shape_rule(lhs: shapes.Shape, rhs: shapes.Shape) -> shapes.Shape:
        raise NotImplementedError

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            lt = as_tensor(SSAValue.get(lhs).type)
            rt = as_tensor(SSAValue.get(rhs).type)
            shape = self.shape_rule(tuple(lt.get_shape()), tuple(rt.get_shape()))
            result_type = TensorType(lt.element_type, shape)
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def verify_(self) -> None:
        a = tensor_shape(self.lhs.type, "lhs")
        b = tensor_shape(self.rhs.type, "rhs")
        try:
            want = self.shape_rule(a, b)
        except shapes.ShapeError as e:
            raise _shape_error(e) from e
        check_result_shape(tensor_shape(self.result.type, "result"), want)


class BinaryOp(_TwoTensorOp, ABC):
    """An elementwise op of two tensors of one rank; extents of 1 broadcast."""

    @staticmethod
    def shape_rule(lhs: shapes.Shape, rhs: shapes.Shape) -> shapes.Shape:
        return shapes.broadcast(lhs, rhs)


class MatmulOp(_TwoTensorOp, ABC):
    """(..., m, k) x (..., k, n) -> (..., m, n)."""

    @staticmethod
    def shape_rule(lhs: shapes.Shape, rhs: shapes.Shape) -> shapes.Shape:
        return shapes.matmul(lhs, rhs)


class ScalarOp(IRDLOperation, ABC):
    """A pointwise op of a tensor and a constant `scalar` (a row of the scaled kinds of
    `mirage.dialects.opkinds`: mul_scalar is x * scalar, sub_scalar x - scalar)."""

    input = operand_def(TensorType)
    scalar = prop_def(FloatAttr[Float64Type])
    result = result_def(TensorType)
    assembly_format = "$input `,` $scalar attr-dict `:` type($input) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        scalar: float,
        result_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[input],
            result_types=[_same_shape_type(input, result_type)],
            properties={"scalar": FloatAttr(scalar, f64)},
        )

    def verify_(self) -> None:
        check_result_shape(
            tensor_shape(self.result.type, "result"), tensor_shape(self.input.type, "operand")
        )


class ReduceOp(IRDLOperation, ABC):
    """Reduction of `dim` to `size` elements (default 1): element j of the result combines
    elements j, j+size, j+2*size, ... of the operand."""

    input = operand_def(TensorType)
    dim = prop_def(IntegerAttr[I64])
    size = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    result = result_def(TensorType)
    assembly_format = (
        "$input `dim` $dim (`size` $size^)? attr-dict `:` type($input) `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        dim: int,
        size: int = 1,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            it = as_tensor(SSAValue.get(input).type)
            shape = shapes.reduce(tuple(it.get_shape()), dim, size)
            result_type = TensorType(it.element_type, shape)
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"dim": IntegerAttr(dim, i64), "size": IntegerAttr(size, i64)},
        )

    def verify_(self) -> None:
        try:
            want = shapes.reduce(
                tensor_shape(self.input.type, "operand"), self.dim.value.data, self.size.value.data
            )
        except shapes.ShapeError as e:
            raise _shape_error(e) from e
        check_result_shape(tensor_shape(self.result.type, "result"), want)


class RmsNormOp(IRDLOperation, ABC):
    """x / sqrt(mean(x * x) + eps) over the last dim, times an optional gain, plus an
    optional bias (`affine` holds gain, or gain and bias). Gain and bias have the operand's
    rank and broadcast to it, so a rank-1 weight of the last dim is a (1, ..., n) tensor.
    Layer norm is this op applied to x - mean(x)."""

    input = operand_def(TensorType)
    affine = var_operand_def(TensorType)
    eps = opt_prop_def(FloatAttr[Float64Type])
    """Absent: 0."""
    result = result_def(TensorType)
    assembly_format = (
        "$input (`affine` `(` $affine^ `:` type($affine) `)`)? (`eps` $eps^)? attr-dict "
        "`:` type($input) `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        result_type: Attribute | None = None,
        *,
        gain: SSAValue | Operation | None = None,
        bias: SSAValue | Operation | None = None,
        eps: float = 0.0,
    ):
        if bias is not None and gain is None:
            raise ValueError("rms_norm takes a bias only with a gain")
        affine = [v for v in (gain, bias) if v is not None]
        super().__init__(
            operands=[input, affine],
            result_types=[_same_shape_type(input, result_type)],
            properties={"eps": FloatAttr(eps, f64)} if eps else {},
        )

    @property
    def epsilon(self) -> float:
        return 0.0 if self.eps is None else self.eps.value.data

    def verify_(self) -> None:
        shape = tensor_shape(self.input.type, "operand")
        if not shape:
            raise VerifyException("rms_norm needs an operand of rank >= 1")
        check_result_shape(tensor_shape(self.result.type, "result"), shape)
        if len(self.affine) > 2:
            raise VerifyException(
                f"rms_norm takes at most a gain and a bias, got {len(self.affine)} affine operands"
            )
        for name, v in zip(("gain", "bias"), self.affine, strict=False):
            try:
                shapes.check_affine(shape, tensor_shape(v.type, name), name)
            except shapes.ShapeError as e:
                raise _shape_error(e) from e
        eps = self.epsilon
        if not (eps >= 0.0 and math.isfinite(eps)):
            raise VerifyException(f"rms_norm eps must be finite and >= 0, got {eps}")


class ConcatOp(IRDLOperation, ABC):
    """Concatenation along `dim`."""

    inputs = var_operand_def(TensorType)
    dim = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    assembly_format = "$inputs `dim` $dim attr-dict `:` type($inputs) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        dim: int,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            types = [as_tensor(SSAValue.get(i).type) for i in inputs]
            shape = shapes.concat([tuple(t.get_shape()) for t in types], dim)
            result_type = TensorType(types[0].element_type, shape)
        super().__init__(
            operands=[inputs], result_types=[result_type], properties={"dim": IntegerAttr(dim, i64)}
        )

    def verify_(self) -> None:
        if len(self.inputs) < 2:
            raise VerifyException("concat needs at least two operands")
        try:
            want = shapes.concat(
                [tensor_shape(i.type, f"operand {n}") for n, i in enumerate(self.inputs)],
                self.dim.value.data,
            )
        except shapes.ShapeError as e:
            raise _shape_error(e) from e
        check_result_shape(tensor_shape(self.result.type, "result"), want)
