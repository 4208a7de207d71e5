"""The f32 code of each pointwise op kind: its record's `lower` in the op-kind registry
(`mirage.dialects.opkinds`), written over `LoweringOps`, which the LLVM `Builder` offers.

Transcendentals and division use PTX's approximate instructions (ex2, lg2, rsqrt,
div.full: a few ulp), which is well inside the error that f16 and bf16 storage adds
anyway."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import SSAValue

from mirage.dialects.opkinds import ELEMENTWISE_KINDS, OP_KINDS, OpKind
from mirage.dialects.ugraph.graph import Op
from mirage.lowering.to_llvm.llvm_builder import Builder

ScalarFn = Callable[[Builder, Sequence[SSAValue]], SSAValue]


def _lowering_of(kind: OpKind) -> ScalarFn:
    lower = kind.lower
    assert lower is not None
    return lambda b, a: lower(b, a, ())


SCALAR_OPS: dict[str, ScalarFn] = {k: _lowering_of(r) for k, r in ELEMENTWISE_KINDS.items()}
"""The code of every elementwise kind (its record's `lower`)."""


def scalar_op(
    b: Builder, kind: str, args: Sequence[SSAValue], params: Sequence[float] = ()
) -> SSAValue:
    """The f32 result of pointwise op `kind` on f32 `args`, with its constant parameters."""
    lower = OP_KINDS[kind].lower
    if lower is None:
        raise ValueError(f"op kind '{kind}' has no scalar code")
    return lower(b, args, params)


def pointwise_op(b: Builder, op: Op, args: Sequence[SSAValue]) -> SSAValue:
    """The f32 result of the pointwise op `op` of a μGraph on f32 `args`."""
    return scalar_op(b, op.kind, args, OP_KINDS[op.kind].param_values(op.attr))


__all__ = ["SCALAR_OPS", "pointwise_op", "scalar_op"]
