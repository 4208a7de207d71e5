"""Result shapes of model ops, from `mirage.dialects.shapes` (the rules the IR verifiers use),
so that every graph the search builds converts to IR that verifies."""

from __future__ import annotations

from collections.abc import Sequence

from mirage.dialects import shapes
from mirage.dialects.opkinds import (
    CONCATS,
    CONTRACTIONS,
    ELEMENTWISE_KINDS,
    FUSES,
    LAST_DIM_ACCUMULATORS,
    LOOP_RESCALE,
    NORMS,
    REDUCTIONS,
    SAME_SHAPE,
)
from mirage.dialects.shapes import Shape, ShapeError


def result_shape(kind: str, attrs: dict[str, object], operands: Sequence[Shape]) -> Shape:
    """The result shape of a compute op (any level, input iterators and output savers
    excepted); raises ShapeError where the operands do not fit."""
    if kind in ELEMENTWISE_KINDS or kind in FUSES:
        return shapes.broadcast_all(list(operands))
    if kind in SAME_SHAPE:
        if kind in NORMS and not operands[0]:
            raise ShapeError("rms_norm needs an operand of rank >= 1")
        if kind in NORMS:
            for what, affine in zip(("gain", "bias"), operands[1:], strict=False):
                shapes.check_affine(operands[0], affine, what)
        if kind in LOOP_RESCALE and shapes.broadcast(operands[0], operands[1]) != operands[0]:
            raise ShapeError("the rescale scale must broadcast to the value's shape")
        return operands[0]
    if kind in CONTRACTIONS:
        return shapes.matmul(operands[0], operands[1])
    if kind in REDUCTIONS:
        dim = attrs["dim"]
        size = attrs.get("size", 1)
        assert isinstance(dim, int) and isinstance(size, int)
        return shapes.reduce(operands[0], dim, size)
    if kind in LAST_DIM_ACCUMULATORS:
        return shapes.last_dim_to_one(operands[0])
    if kind in CONCATS:
        dim = attrs["dim"]
        assert isinstance(dim, int)
        return shapes.concat(list(operands), dim)
    raise ShapeError(f"no shape rule for op kind '{kind}'")
