"""What a finite-field test proves: which ops are exact in Z_P x Z_Q, and the error bound.

`OP_FIELD_RULES` says, for every op kind of the kernel, block and thread dialects, whether
its finite-field meaning is the operation itself (the sound fragment: multilinear ops,
division, square roots, at most one exponential per path) or a deterministic stand-in.
`analyze` walks a program once and collects what the bound needs:

- d: a degree bound. Every value gets (numerator, denominator) degrees in the inputs;
  multilinear ops (matmul, sums, accumulators, moves) act as in the paper, on a tensor as
  one operator: products add degrees, sums and reductions keep them, division swaps in
  the divisor's. The two programs differ by N1 D2 - N2 D1, so d is the largest
  n1 + d2 or n2 + d1 over the outputs, at least the degree of any exponent; every square
  root doubles it (the norm over both roots vanishes when the difference does).
- k: the number of exponentials (exp, silu, gelu, accum_rescale) in both programs.

The error of one test is then at most d / P without exponentials (Schwartz-Zippel in
Z_P), and 8 d k^4 / Q + Q^(-1/k^2) with them (Theorem 2 of the paper); independent tests
multiply.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.passes.equivalence.domain import FIELD_RULES
from mirage.passes.equivalence.field import P, Q


@dataclass(frozen=True)
class OpFieldRule:
    exact: bool
    note: str


_STRUCTURAL = OpFieldRule(True, "moves values; no arithmetic")

OP_FIELD_RULES: dict[str, OpFieldRule] = {
    **{k: OpFieldRule(r.exact, r.note) for k, r in FIELD_RULES.items()},
    "matmul": OpFieldRule(True, "exact modular product (float64 BLAS on limbs)"),
    "mul_scalar": OpFieldRule(True, "the constant as an exact rational mod P and mod Q"),
    "constant": OpFieldRule(True, "the constant as an exact rational mod P and mod Q"),
    "reduce_sum": OpFieldRule(True, "modular sum"),
    "reduce_max": OpFieldRule(False, "stand-in: the element with the largest centered residue"),
    "rms_norm": OpFieldRule(
        True, "x / sqrt(mean(x^2) + eps) * gain + bias with the modular square root"
    ),
    "concat": _STRUCTURAL,
    "reshape": _STRUCTURAL,
    "transpose": _STRUCTURAL,
    "slice": OpFieldRule(True, "selects elements; no arithmetic"),
    "graph": _STRUCTURAL,
    "for_loop": _STRUCTURAL,
    "yield": _STRUCTURAL,
    "return": _STRUCTURAL,
    "input": _STRUCTURAL,
    "output": _STRUCTURAL,
    "fuse": _STRUCTURAL,
    "accum_sum": OpFieldRule(True, "modular sum over iterations"),
    "accum_sum_last": OpFieldRule(True, "modular sum over iterations and the last dim"),
    "accum_mean_last": OpFieldRule(True, "modular mean (times the inverse of the count), plus eps"),
    "accum_rms_last": OpFieldRule(True, "modular square root of the mean of squares plus eps"),
    "accum_max": OpFieldRule(False, "stand-in: the largest centered residue"),
    "accum_rescale": OpFieldRule(
        False, "exp(s - max s): exact up to the max, a stand-in that cancels when normalized"
    ),
}
"""Every op kind of the μGraph dialects (names without the dialect prefix)."""


@dataclass(frozen=True)
class Deg:
    """Degree bounds of one value: numerator, denominator, and the exponentials and
    square roots on its paths."""

    num: int
    den: int
    exps: int = 0
    roots: int = 0


@dataclass
class _Walk:
    exps: int = 0
    roots: int = 0
    exponent_degree: int = 0
    unsound: set[str] = field(default_factory=lambda: set[str]())


@dataclass(frozen=True)
class ProgramFacts:
    """What the bound needs to know about one program."""

    outputs: tuple[Deg, ...]
    exps: int
    roots: int
    exponent_degree: int
    unsound_ops: tuple[str, ...]


# --- degree rules -----------------------------------------------------------------------


def _paths(*args: Deg) -> tuple[int, int]:
    return max((a.exps for a in args), default=0), max((a.roots for a in args), default=0)


def _add(a: Deg, b: Deg) -> Deg:
    e, r = _paths(a, b)
    if a.den == 0 and b.den == 0:
        return Deg(max(a.num, b.num), 0, e, r)
    return Deg(max(a.num + b.den, b.num + a.den), a.den + b.den, e, r)


def _mul(a: Deg, b: Deg) -> Deg:
    e, r = _paths(a, b)
    return Deg(a.num + b.num, a.den + b.den, e, r)


def _inv(a: Deg) -> Deg:
    return Deg(a.den, a.num, a.exps, a.roots)


def _sqrt(a: Deg, w: _Walk) -> Deg:
    # sqrt(N/D) = sqrt(N D) / D: the root counts half the degree of N D.
    w.roots += 1
    if a.roots:
        w.unsound.add("sqrt of a square root")
    return Deg(-(-(a.num + a.den) // 2), a.den, a.exps, a.roots + 1)


def _exp(arg: Deg, w: _Walk, what: str) -> Deg:
    """exp(arg) as one exponential term; arg's degree bounds the exponent."""
    w.exps += 1
    w.exponent_degree = max(w.exponent_degree, arg.num, arg.den)
    if arg.exps:
        w.unsound.add(f"{what} on an exponential's path")
    if arg.roots:
        w.unsound.add(f"{what} of a square root")
    return Deg(0, 0, arg.exps + 1, arg.roots)


_CONSTANT = Deg(0, 0)


def _plus_eps(mean: Deg, eps: float) -> Deg:
    return _add(mean, _CONSTANT) if eps else mean


def _rms(x: Deg, w: _Walk, eps: float = 0.0) -> Deg:
    return _mul(x, _inv(_sqrt(_plus_eps(_mul(x, x), eps), w)))


Rule = Callable[[Op, Sequence[Deg], _Walk], list[Deg]]


def _same(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    return [args[0]] * len(op.results)


def _elementwise(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    kind = op.kind
    a = args[0]
    if kind in ("add", "sub", "max"):
        return [_add(a, args[1])]
    if kind in ("mul", "pow"):
        return [_mul(a, args[1])]
    if kind == "div":
        return [_mul(a, _inv(args[1]))]
    if kind == "square":
        return [_mul(a, a)]
    if kind == "sqrt":
        return [_sqrt(a, w)]
    if kind == "rsqrt":
        return [_inv(_sqrt(a, w))]
    if kind == "exp":
        return [_exp(a, w, "exp")]
    if kind in ("silu", "gelu"):  # x / (1 + exp(-c x))
        e = _exp(a, w, kind)
        return [replace(a, exps=e.exps)]
    if kind == "relu":
        return [a]
    raise KeyError(kind)


def _matmul(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    return [_mul(args[0], args[1])]


def _concat(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    e, r = _paths(*args)
    return [Deg(max(a.num for a in args), max(a.den for a in args), e, r)]


def _constant(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    return [Deg(0, 0)]


def _rms_norm(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    out = _rms(args[0], w, op.eps)
    if len(args) > 1:
        out = _mul(out, args[1])
    if len(args) > 2:
        out = _add(out, args[2])
    return [out]


def _accum_mean(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    return [_plus_eps(args[0], op.eps)]


def _accum_rms(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    return [_sqrt(_plus_eps(_mul(args[0], args[0]), op.eps), w)]


def _accum_rescale(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    v, s = args
    e = _exp(s, w, "accum_rescale")
    return [_mul(v, e)]


def _body(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    assert op.body is not None
    return _walk(op.body, list(args), w)


_RULES: dict[str, Rule] = {
    **{k: _elementwise for k in ELEMENTWISE_KINDS},
    "matmul": _matmul,
    "mul_scalar": _same,
    "constant": _constant,
    "reduce_sum": _same,
    "reduce_max": _same,
    "rms_norm": _rms_norm,
    "concat": _concat,
    "reshape": _same,
    "transpose": _same,
    "slice": _same,
    "graph": _body,
    "fuse": _body,
    "input": _same,
    "output": _same,
    "accum_sum": _same,
    "accum_sum_last": _same,
    "accum_mean_last": _accum_mean,
    "accum_max": _same,
    "accum_rms_last": _accum_rms,
    "accum_rescale": _accum_rescale,
}


def _walk(graph: Graph, args: list[Deg], w: _Walk) -> list[Deg]:
    values = list(args)
    for op in graph.ops:
        rule = OP_FIELD_RULES.get(op.kind)
        if rule is None or op.kind not in _RULES:
            raise ValueError(f"no finite-field rule for op kind '{op.kind}'")
        if not rule.exact:
            w.unsound.add(op.kind)
        values.extend(_RULES[op.kind](op, [values[i] for i in op.operands], w))
    return [values[o] for o in graph.outputs]


@lru_cache(maxsize=4096)
def analyze(graph: Graph) -> ProgramFacts:
    """Degrees, exponentials, square roots and unsound ops of a kernel-level program."""
    w = _Walk()
    outputs = _walk(graph, [Deg(1, 0) for _ in graph.args], w)
    return ProgramFacts(
        tuple(outputs), w.exps, w.roots, w.exponent_degree, tuple(sorted(w.unsound))
    )


# --- the bound --------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorBound:
    degree: int
    """d, with the factor 2 per square root."""
    exponentials: int
    """k."""
    per_test: float
    """The probability that one random test passes two programs that differ (at most 1)."""

    def tests_for(self, target: float) -> int | None:
        """Independent tests for an error of at most `target`; None if no count gets there."""
        if self.per_test >= 1.0:
            return None
        if self.per_test <= 0.0:
            return 1
        return max(1, math.ceil(math.log(target) / math.log(self.per_test)))

    def after(self, tests: int) -> float:
        return self.per_test**tests


def error_bound(reference: ProgramFacts, candidate: ProgramFacts) -> ErrorBound:
    d = max(
        (
            max(r.num + c.den, c.num + r.den)
            for r, c in zip(reference.outputs, candidate.outputs, strict=True)
        ),
        default=1,
    )
    d = max(d, reference.exponent_degree, candidate.exponent_degree, 1)
    d <<= reference.roots + candidate.roots
    k = reference.exps + candidate.exps
    try:
        eps = d / P if k == 0 else 8 * d * k**4 / Q + Q ** (-1.0 / (k * k))
    except OverflowError:  # a degree beyond any float: no number of tests bounds the error
        eps = 1.0
    return ErrorBound(d, k, min(1.0, eps))
