"""The f32 code of each elementwise op kind: one row per kind of
`mirage.dialects.opkinds.ELEMENTWISE_KINDS` (a test checks that none is missing).

Transcendentals use PTX's approximate instructions (ex2, lg2, rsqrt: a few ulp), which is
well inside the error that f16 and bf16 storage adds anyway."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import llvm
from xdsl.ir import SSAValue

from mirage.lowering.to_llvm.builder import Builder

ScalarFn = Callable[[Builder, Sequence[SSAValue]], SSAValue]


def _silu(b: Builder, x: SSAValue) -> SSAValue:
    return b.fdiv(x, b.fadd(b.f32(1.0), b.exp(b.fneg(x))))


def _erf(b: Builder, x: SSAValue) -> SSAValue:
    # Abramowitz and Stegun 7.1.26: absolute error below 1.5e-7.
    ax = b.fabs(x)
    t = b.fdiv(b.f32(1.0), b.fma(ax, b.f32(0.3275911), b.f32(1.0)))
    poly = b.f32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = b.fma(poly, t, b.f32(c))
    poly = b.fmul(poly, t)
    y = b.fsub(b.f32(1.0), b.fmul(poly, b.exp(b.fneg(b.fmul(ax, ax)))))
    return b.select(b.fcmp("olt", x, b.f32(0.0)), b.fneg(y), y)


def _gelu(b: Builder, x: SSAValue) -> SSAValue:
    e = _erf(b, b.fmul(x, b.f32(1.0 / math.sqrt(2.0))))
    return b.fmul(b.fmul(x, b.f32(0.5)), b.fadd(b.f32(1.0), e))


def _floor(b: Builder, x: SSAValue) -> SSAValue:
    return b._r(llvm.FFloorOp(x))  # pyright: ignore[reportPrivateUsage]


def _pow(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    """x ** y as numpy computes it for real results: negative bases only with integral
    exponents (sign from the exponent's parity), NaN otherwise; x ** 0 == 1."""
    r = b.ex2(b.fmul(y, b.lg2(b.fabs(x))))
    integral = b.fcmp("oeq", _floor(b, y), y)
    half = b.fmul(y, b.f32(0.5))
    odd = b.and1(integral, b.fcmp("one", _floor(b, half), half))
    negative_base = b.select(odd, b.fneg(r), r)
    negative_base = b.select(integral, negative_base, b.f32(math.nan))
    r = b.select(b.fcmp("olt", x, b.f32(0.0)), negative_base, r)
    return b.select(b.fcmp("oeq", y, b.f32(0.0)), b.f32(1.0), r)


SCALAR_OPS: dict[str, ScalarFn] = {
    "exp": lambda b, a: b.exp(a[0]),
    "square": lambda b, a: b.fmul(a[0], a[0]),
    "sqrt": lambda b, a: b.sqrt(a[0]),
    "rsqrt": lambda b, a: b.rsqrt(a[0]),
    "silu": lambda b, a: _silu(b, a[0]),
    "gelu": lambda b, a: _gelu(b, a[0]),
    "relu": lambda b, a: b.fmax(a[0], b.f32(0.0)),
    "add": lambda b, a: b.fadd(a[0], a[1]),
    "sub": lambda b, a: b.fsub(a[0], a[1]),
    "mul": lambda b, a: b.fmul(a[0], a[1]),
    "div": lambda b, a: b.fdiv(a[0], a[1]),
    "pow": lambda b, a: _pow(b, a[0], a[1]),
    "max": lambda b, a: b.fmax(a[0], a[1]),
}


def scalar_op(
    b: Builder, kind: str, args: Sequence[SSAValue], scalar: float | None = None
) -> SSAValue:
    """The f32 result of op `kind` (an elementwise kind or mul_scalar) on f32 `args`."""
    if kind == "mul_scalar":
        assert scalar is not None
        return b.fmul(args[0], b.f32(scalar))
    return SCALAR_OPS[kind](b, args)


__all__ = ["SCALAR_OPS", "scalar_op"]
