"""The table of elementwise op kinds, shared by all three levels.

One row per kind: adding an elementwise op is one row here plus its tests. Every other
concern (finite-field rules, abstract expressions, cost, lowering) keys its own table by
`ElementwiseKind.name`, and a test checks that no table misses a kind of this one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.floating[Any]]

_erf = np.frompyfunc(math.erf, 1, 1)


def _gelu(x: FloatArray) -> FloatArray:
    # The exact (erf) form, as torch.nn.functional.gelu computes it by default.
    return (0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(x.dtype))).astype(x.dtype)


def _silu(x: FloatArray) -> FloatArray:
    return x / (1.0 + np.exp(-x))


@dataclass(frozen=True)
class ElementwiseKind:
    """One elementwise operation, named as in the dialects (`kernel.<name>`, `block.<name>`,
    `thread.<name>`)."""

    name: str
    arity: int
    float_fn: Callable[..., FloatArray]
    """Its meaning on numpy floating arrays (broadcasting like numpy)."""
    flops: int
    """Arithmetic instructions per element, for the cost model."""
    summary: str


UNARY_KINDS: tuple[ElementwiseKind, ...] = (
    ElementwiseKind("exp", 1, np.exp, 4, "e to the power of x"),
    ElementwiseKind("square", 1, np.square, 1, "x * x"),
    ElementwiseKind("sqrt", 1, np.sqrt, 4, "square root"),
    ElementwiseKind("rsqrt", 1, lambda x: 1.0 / np.sqrt(x), 4, "reciprocal square root"),
    ElementwiseKind("silu", 1, _silu, 8, "x * sigmoid(x)"),
    ElementwiseKind("gelu", 1, _gelu, 16, "x * Phi(x), the exact (erf) form"),
    ElementwiseKind("relu", 1, lambda x: np.maximum(x, 0), 1, "max(x, 0)"),
)

BINARY_KINDS: tuple[ElementwiseKind, ...] = (
    ElementwiseKind("add", 2, np.add, 1, "x + y"),
    ElementwiseKind("sub", 2, np.subtract, 1, "x - y"),
    ElementwiseKind("mul", 2, np.multiply, 1, "x * y"),
    ElementwiseKind("div", 2, np.divide, 4, "x / y"),
    ElementwiseKind("pow", 2, np.power, 8, "x to the power of y"),
    ElementwiseKind("max", 2, np.maximum, 1, "the larger of x and y"),
)

ELEMENTWISE_KINDS: dict[str, ElementwiseKind] = {k.name: k for k in UNARY_KINDS + BINARY_KINDS}


EPS_KINDS: tuple[str, ...] = ("rms_norm", "accum_mean_last", "accum_rms_last")
"""Kinds with an `eps` property (default 0), added to the last dim's mean before any root:
rms_norm is x / sqrt(mean(x^2) + eps) * gain + bias (gain and bias its optional operands
after x), accum_mean_last the mean plus eps, accum_rms_last sqrt(mean of squares + eps)."""


LAYOUT_KINDS: tuple[str, ...] = ("reshape", "transpose", "slice")
"""Kinds that only move or select elements (no arithmetic). The search never generates
them: they are normalized away before it, into views of the operands and results of the
μGraph (`mirage.passes.superoptimize.normalize`); a slice is a window view of an operand
(a view with an offset), after it is moved through the ops between it and the operand."""

SCALAR_FORMS: dict[str, str] = {"mul": "mul_scalar"}
"""Binary kinds with an immediate form: `x <kind> c`, c a splat constant, is the form's op
on x with c as its `scalar` property."""
