"""What a finite-field test proves: which ops are exact in Z_P x Z_Q, and the error bound.

`OP_FIELD_RULES` (the records of `mirage.dialects.opkinds`) says, for every op kind of
the kernel, block and thread dialects, whether its finite-field meaning is the operation
itself (the sound fragment: multilinear ops, division, square roots, at most one
exponential per path) or a deterministic stand-in.
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

from mirage.dialects.opkinds import OP_KINDS, Family, FieldOps, FieldRule, Loop, OpKind
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.passes.equivalence.field import P, Q

OpFieldRule = FieldRule

OP_FIELD_RULES: dict[str, FieldRule] = {k.name: k.field_rule for k in OP_KINDS.values()}
"""Every op kind of the μGraph dialects (names without the dialect prefix), from the
op-kind registry."""


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


class _Degrees(FieldOps[Deg]):
    """The registry's finite-field rules read as degree bounds: the rule of a kind says
    which products, quotients, roots and exponentials it is made of."""

    def __init__(self, w: _Walk, kind: str) -> None:
        self.w = w
        self.kind = kind

    def const(self, value: float) -> Deg:
        return Deg(0, 0)

    def scale(self, x: Deg, factor: float) -> Deg:
        return x

    def add(self, x: Deg, y: Deg) -> Deg:
        return _add(x, y)

    def sub(self, x: Deg, y: Deg) -> Deg:
        return _add(x, y)

    def mul(self, x: Deg, y: Deg) -> Deg:
        return _mul(x, y)

    def square(self, x: Deg) -> Deg:
        return _mul(x, x)

    def div(self, x: Deg, y: Deg) -> Deg:
        return _mul(x, _inv(y))

    def sqrt(self, x: Deg) -> Deg:
        return _sqrt(x, self.w)

    def rsqrt(self, x: Deg) -> Deg:
        return _inv(_sqrt(x, self.w))

    def exp(self, x: Deg) -> Deg:
        return _exp(x, self.w, self.kind)

    def logistic(self, x: Deg, scale: float) -> Deg:
        # x / (1 + exp(-c x)): the degree of x, one more exponential on its paths
        e = _exp(x, self.w, self.kind)
        return replace(x, exps=e.exps)

    def relu_standin(self, x: Deg) -> Deg:
        return x

    def max_standin(self, x: Deg, y: Deg) -> Deg:
        return _add(x, y)

    def pow_standin(self, x: Deg, y: Deg) -> Deg:
        return _mul(x, y)


def _pointwise(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    kind = OP_KINDS[op.kind]
    apply = kind.field_rule.apply
    assert apply is not None
    return [apply(_Degrees(w, op.kind), list(args), kind.param_values(op.attr))]


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


def _accumulate(op: Op, args: Sequence[Deg], w: _Walk) -> list[Deg]:
    loop = OP_KINDS[op.kind].loop
    if loop is Loop.MEAN_LAST:
        return _accum_mean(op, args, w)
    if loop is Loop.RMS_LAST:
        return _accum_rms(op, args, w)
    if loop is Loop.RESCALE:
        return _accum_rescale(op, args, w)
    return _same(op, args, w)


_BY_FAMILY: dict[Family, Rule] = {
    Family.CONTRACTION: _matmul,
    Family.CONSTANT: _constant,
    Family.REDUCTION: _same,
    Family.NORM: _rms_norm,
    Family.CONCAT: _concat,
    Family.PERMUTE: _same,
    Family.RESHAPE: _same,
    Family.SLICE: _same,
    Family.INPUT: _same,
    Family.OUTPUT: _same,
    Family.ACCUMULATOR: _accumulate,
}


def _rule_of(kind: OpKind) -> Rule | None:
    if kind.field_rule.apply is not None:
        return _pointwise
    if kind.body is not None:
        return _body
    return _BY_FAMILY.get(kind.family)


_RULES: dict[str, Rule] = {
    k.name: rule for k in OP_KINDS.values() if (rule := _rule_of(k)) is not None
}
"""The degree rule of every kind of the search model (the loop's and bodies' terminators
are folded into graph structure there)."""


def _walk(graph: Graph, args: list[Deg], w: _Walk) -> list[Deg]:
    values = list(args)
    for op in graph.ops:
        rule = OP_FIELD_RULES.get(op.kind)
        if rule is None or op.kind not in _RULES:
            raise ValueError(f"no finite-field rule for op kind '{op.kind}'")
        if not rule.exact_for(OP_KINDS[op.kind].param_values(op.attr)):
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
