"""The finite-field value domain of the verifier, plugged into the one evaluator.

A value is a pair: its image in Z_P (extended to Z_P[i], i^2 = -1, where square roots of
non-residues live) and its image in the exponent domain Z_Q, Q | P - 1. exp maps the Z_Q
part into Z_P: exp(x) = omega^(x mod Q) with omega of order Q, so exp(a + b) = exp(a) exp(b)
holds exactly. The Z_Q part is computed lazily: only values that reach an exp need it.

The rule of every elementwise kind is its record's `field_rule` in the op-kind registry
(`mirage.dialects.opkinds`), written over `FieldOps`, which `FieldArith` implements here;
`exact` says whether the rule is the operation itself in the field (the sound fragment) or
only a deterministic stand-in that both programs share (max, relu, gelu, pow).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from mirage.dialects.opkinds import ELEMENTWISE_KINDS, FieldOps, FieldRule
from mirage.dialects.semantics.domain import Array, Domain, ReduceKind
from mirage.passes.equivalence import field
from mirage.passes.equivalence.field import Arr, P, Q


class Lazy:
    """The Z_Q part of a value, computed on first use: (residues, met a zero denominator)."""

    __slots__ = ("_result", "_thunk")

    def __init__(self, thunk: Callable[[], tuple[Arr, bool]]) -> None:
        self._thunk: Callable[[], tuple[Arr, bool]] | None = thunk
        self._result: tuple[Arr, bool] | None = None

    @staticmethod
    def of(value: Arr, poisoned: bool = False) -> Lazy:
        lazy = Lazy(lambda: (value, poisoned))
        lazy._result = (value, poisoned)
        lazy._thunk = None
        return lazy

    def get(self) -> tuple[Arr, bool]:
        if self._result is None:
            assert self._thunk is not None
            self._result = self._thunk()
            self._thunk = None
        return self._result

    @property
    def computed(self) -> bool:
        return self._result is not None

    def map(self, f: Callable[[Arr], Arr]) -> Lazy:
        def run() -> tuple[Arr, bool]:
            value, poisoned = self.get()
            return f(value), poisoned

        return Lazy(run)


def _lazy_combine(fn: Callable[..., tuple[Arr, bool] | Arr], *parts: Lazy) -> Lazy:
    """A lazy Z_Q part from others; fn returns residues or (residues, zero denominator)."""

    def run() -> tuple[Arr, bool]:
        got = [p.get() for p in parts]
        out = fn(*(g[0] for g in got))
        poisoned = any(g[1] for g in got)
        if isinstance(out, tuple):
            return out[0], poisoned or out[1]
        return out, poisoned

    return Lazy(run)


@dataclass(eq=False, slots=True)
class FFValue:
    """re + i im in Z_P[i] (im None: zero), the lazy Z_Q part, and whether a zero
    denominator was met in Z_P on the way (the test then says nothing about this value)."""

    re: Arr
    im: Arr | None
    q: Lazy
    poisoned: bool = False

    def __post_init__(self) -> None:
        # An imaginary part computed from one broadcast operand has that operand's shape.
        if self.im is not None and self.im.shape != self.re.shape:
            shape = np.broadcast_shapes(self.re.shape, self.im.shape)
            self.re = np.broadcast_to(self.re, shape)
            self.im = np.broadcast_to(self.im, shape)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.re.shape)

    @property
    def nbytes(self) -> int:
        n = self.re.nbytes + (0 if self.im is None else self.im.nbytes)
        if self.q.computed:
            n += self.q.get()[0].nbytes
        return n

    def same_as(self, other: FFValue) -> Array:
        """Elementwise equality in Z_P[i] (broadcast to the common shape)."""
        eq = self.re == other.re
        if self.im is not None or other.im is not None:
            eq = eq & (_z((self.re, self.im)) == _z((other.re, other.im)))
        return np.asarray(eq)


# --- complex arithmetic in Z_P[i] -------------------------------------------------------

Complex = tuple[Arr, Arr | None]


def _c_add(a: Complex, b: Complex) -> Complex:
    im = None
    if a[1] is not None or b[1] is not None:
        im = field.add(_z(a), _z(b), P)
    return field.add(a[0], b[0], P), im


def _c_sub(a: Complex, b: Complex) -> Complex:
    im = None
    if a[1] is not None or b[1] is not None:
        im = field.sub(_z(a), _z(b), P)
    return field.sub(a[0], b[0], P), im


def _z(a: Complex) -> Arr:
    return a[1] if a[1] is not None else np.zeros((1,) * a[0].ndim)


def _c_mul(a: Complex, b: Complex) -> Complex:
    ar, ai = a
    br, bi = b
    if ai is None and bi is None:
        return field.mul(ar, br, P), None
    if ai is None:
        assert bi is not None
        return field.mul(ar, br, P), field.mul(ar, bi, P)
    if bi is None:
        return field.mul(ar, br, P), field.mul(ai, br, P)
    re = field.sub(field.mul(ar, br, P), field.mul(ai, bi, P), P)
    im = field.add(field.mul(ar, bi, P), field.mul(ai, br, P), P)
    return re, im


def _broadcast_axes(parts: Sequence[Arr]) -> list[bool]:
    """Axes of extent > 1 along which every part is a stride-0 broadcast."""
    shape = parts[0].shape
    return [
        n > 1 and all(p.shape[i] == n and p.strides[i] == 0 for p in parts)
        for i, n in enumerate(shape)
    ]


def _c_inverse(a: Complex) -> tuple[Complex, bool]:
    """1 / a, and whether some element was zero (its inverse is then taken as 0); computed
    once per distinct element of a broadcast value."""
    parts = [a[0]] if a[1] is None else [a[0], a[1]]
    broadcast = _broadcast_axes(parts)
    if not any(broadcast):
        return _c_inverse_dense(a)
    index = tuple(slice(0, 1) if b else slice(None) for b in broadcast)
    shape = a[0].shape
    (re, im), zero = _c_inverse_dense((a[0][index], None if a[1] is None else a[1][index]))
    return (np.broadcast_to(re, shape), None if im is None else np.broadcast_to(im, shape)), zero


def _c_inverse_dense(a: Complex) -> tuple[Complex, bool]:
    ar, ai = a
    if ai is None:
        zero = bool(np.any(ar == 0))
        return (field.on_distinct(lambda x: field.inverse(x, P), ar), None), zero
    # 1/(x + iy) = (x - iy) / (x^2 + y^2); x^2 + y^2 = 0 only at 0 since -1 is no square.
    norm = field.add(field.mul(ar, ar, P), field.mul(ai, ai, P), P)
    zero = bool(np.any(norm == 0))
    inv = field.on_distinct(lambda x: field.inverse(x, P), norm)
    return (field.mul(ar, inv, P), field.mul(field.neg(ai, P), inv, P)), zero


def _c_sqrt(a: Complex) -> Complex:
    """The canonical square root: r = a^((P+1)/4) when a is a square in Z_P, i r otherwise
    (then r^2 = -a). A radicand off the real line gets the root of its real part: a
    deterministic stand-in, which the soundness analysis reports (nested roots)."""
    ar = a[0]
    root = field.on_distinct(lambda x: field.sqrt_or_negated(x, P), ar)
    is_square = field.mul(root, root, P) == ar
    if bool(np.all(is_square)):
        return root, None
    zero = np.zeros_like(root)
    return np.where(is_square, root, zero), np.where(is_square, zero, root)


# --- the rules of the elementwise kinds --------------------------------------------------


def _binary(
    pf: Callable[[Complex, Complex], tuple[Complex, bool]],
    qf: Callable[[Arr, Arr], tuple[Arr, bool] | Arr],
) -> Callable[[FiniteFieldDomain, Sequence[FFValue]], FFValue]:
    def apply(d: FiniteFieldDomain, args: Sequence[FFValue]) -> FFValue:
        a, b = args
        (re, im), zero = pf((a.re, a.im), (b.re, b.im))
        return FFValue(re, im, _lazy_combine(qf, a.q, b.q), a.poisoned or b.poisoned or zero)

    return apply


def _unary(
    pf: Callable[[FiniteFieldDomain, FFValue], tuple[Complex, bool]],
    qf: Callable[[Arr], tuple[Arr, bool] | Arr],
) -> Callable[[FiniteFieldDomain, Sequence[FFValue]], FFValue]:
    def apply(d: FiniteFieldDomain, args: Sequence[FFValue]) -> FFValue:
        (a,) = args
        (re, im), poisoned = pf(d, a)
        return FFValue(re, im, _lazy_combine(qf, a.q), poisoned)

    return apply


def _q_inverse(b: Arr) -> tuple[Arr, bool]:
    return field.on_distinct(lambda x: field.inverse(x, Q), b), bool(np.any(b == 0))


def _q_div(a: Arr, b: Arr) -> tuple[Arr, bool]:
    inv, zero = _q_inverse(b)
    return field.mul(a, inv, Q), zero


def _q_div_by_one_plus(e: Arr, x: Arr) -> tuple[Arr, bool]:
    return _q_div(x, field.add(e, np.asarray(1.0), Q))


def _p_div(a: Complex, b: Complex) -> tuple[Complex, bool]:
    inv, zero = _c_inverse(b)
    return _c_mul(a, inv), zero


def _select(take_a: Array, a: Complex, b: Complex) -> Complex:
    re = np.where(take_a, a[0], b[0])
    if a[1] is None and b[1] is None:
        return re, None
    return re, np.where(take_a, _z(a), _z(b))


def _p_max(a: Complex, b: Complex) -> tuple[Complex, bool]:
    return _select(field.centered(a[0], P) >= field.centered(b[0], P), a, b), False


def _q_max(a: Arr, b: Arr) -> Arr:
    return np.where(field.centered(a, Q) >= field.centered(b, Q), a, b)


def _p_pow(a: Complex, b: Complex) -> tuple[Complex, bool]:
    # Exponents are taken mod P - 1 (Fermat); only real parts take part.
    return (field.power_elementwise(a[0], b[0] % (P - 1), P), None), False


def _q_pow(a: Arr, b: Arr) -> Arr:
    return field.power_elementwise(a, b % (Q - 1), Q)


def _exp_p(d: FiniteFieldDomain, a: FFValue, scale_q: int = 1) -> tuple[Arr, bool]:
    """omega^(scale * x_Q) in Z_P, and whether x_Q met a zero denominator."""
    xq, poisoned = a.q.get()
    if scale_q != 1:
        xq = field.mul(xq, np.asarray(float(scale_q)), Q)
    return field.on_distinct(d.exp_table, xq), poisoned


def _exp(d: FiniteFieldDomain, args: Sequence[FFValue]) -> FFValue:
    (a,) = args
    e, poisoned = _exp_p(d, a)
    # The Z_Q image of an exponential is never used by a sound program (one exp per
    # path); it is the Z_P residue reduced mod Q, a deterministic stand-in.
    return FFValue(e, None, Lazy.of(field.reduce_mod(e, Q)), poisoned)


def _logistic(scale: float) -> Callable[[FiniteFieldDomain, Sequence[FFValue]], FFValue]:
    """x / (1 + exp(-scale x)); 1 + omega^k is never 0 since omega has odd order."""
    neg_scale_q = field.residue_of(-scale, Q)

    def apply(d: FiniteFieldDomain, args: Sequence[FFValue]) -> FFValue:
        (a,) = args
        e, poisoned = _exp_p(d, a, neg_scale_q)
        denominator = field.add(e, np.asarray(1.0), P)
        inv = field.on_distinct(lambda x: field.inverse(x, P), denominator)
        re, im = _c_mul((a.re, a.im), (inv, None))
        eq = field.reduce_mod(e, Q)
        return FFValue(
            re,
            im,
            _lazy_combine(partial(_q_div_by_one_plus, eq), a.q),
            a.poisoned or poisoned,
        )

    return apply


def _relu_p(d: FiniteFieldDomain, a: FFValue) -> tuple[Complex, bool]:
    keep = field.centered(a.re, P) >= 0
    zero = np.zeros_like(a.re)
    return _select(keep, (a.re, a.im), (zero, None)), a.poisoned


def _sqrt_p(d: FiniteFieldDomain, a: FFValue) -> tuple[Complex, bool]:
    return _c_sqrt((a.re, a.im)), a.poisoned


def _rsqrt_p(d: FiniteFieldDomain, a: FFValue) -> tuple[Complex, bool]:
    inv, zero = _c_inverse(_c_sqrt((a.re, a.im)))
    return inv, a.poisoned or zero


def _q_sqrt(x: Arr) -> Arr:
    return field.on_distinct(lambda v: field.sqrt_or_negated(v, Q), x)


def _q_rsqrt(x: Arr) -> tuple[Arr, bool]:
    return _q_inverse(_q_sqrt(x))


def _add_p(a: Complex, b: Complex) -> tuple[Complex, bool]:
    return _c_add(a, b), False


def _sub_p(a: Complex, b: Complex) -> tuple[Complex, bool]:
    return _c_sub(a, b), False


def _mul_p(a: Complex, b: Complex) -> tuple[Complex, bool]:
    return _c_mul(a, b), False


def _square_p(d: FiniteFieldDomain, a: FFValue) -> tuple[Complex, bool]:
    return _c_mul((a.re, a.im), (a.re, a.im)), a.poisoned


_ADD = _binary(_add_p, lambda x, y: field.add(x, y, Q))
_SUB = _binary(_sub_p, lambda x, y: field.sub(x, y, Q))
_MUL = _binary(_mul_p, lambda x, y: field.mul(x, y, Q))
_DIV = _binary(_p_div, _q_div)
_POW = _binary(_p_pow, _q_pow)
_MAX = _binary(_p_max, _q_max)
_SQUARE = _unary(_square_p, lambda x: field.mul(x, x, Q))
_SQRT = _unary(_sqrt_p, _q_sqrt)
_RSQRT = _unary(_rsqrt_p, _q_rsqrt)
_RELU = _unary(_relu_p, lambda x: np.where(field.centered(x, Q) >= 0, x, 0.0))


class FieldArith(FieldOps[FFValue]):
    """The operations the registry's finite-field rules are written in, on `FFValue`s of
    one test's domain."""

    def __init__(self, d: FiniteFieldDomain) -> None:
        self.d = d

    def const(self, value: float) -> FFValue:
        return self.d.from_array(np.asarray(value, dtype=np.float64))

    def scale(self, x: FFValue, factor: float) -> FFValue:
        return self.d.scale(x, factor)

    def add(self, x: FFValue, y: FFValue) -> FFValue:
        return _ADD(self.d, [x, y])

    def sub(self, x: FFValue, y: FFValue) -> FFValue:
        return _SUB(self.d, [x, y])

    def mul(self, x: FFValue, y: FFValue) -> FFValue:
        return _MUL(self.d, [x, y])

    def square(self, x: FFValue) -> FFValue:
        return _SQUARE(self.d, [x])

    def div(self, x: FFValue, y: FFValue) -> FFValue:
        return _DIV(self.d, [x, y])

    def sqrt(self, x: FFValue) -> FFValue:
        return _SQRT(self.d, [x])

    def rsqrt(self, x: FFValue) -> FFValue:
        return _RSQRT(self.d, [x])

    def exp(self, x: FFValue) -> FFValue:
        return _exp(self.d, [x])

    def logistic(self, x: FFValue, scale: float) -> FFValue:
        return _logistic(scale)(self.d, [x])

    def relu_standin(self, x: FFValue) -> FFValue:
        return _RELU(self.d, [x])

    def max_standin(self, x: FFValue, y: FFValue) -> FFValue:
        return _MAX(self.d, [x, y])

    def pow_standin(self, x: FFValue, y: FFValue) -> FFValue:
        return _POW(self.d, [x, y])


FIELD_RULES: dict[str, FieldRule] = {k: r.field_rule for k, r in ELEMENTWISE_KINDS.items()}
"""The finite-field rule of every elementwise kind (from the op-kind registry)."""


# --- the domain -----------------------------------------------------------------------


class FiniteFieldDomain(Domain[FFValue]):
    """Z_P[i] x Z_Q arithmetic for one random test (its omega)."""

    def __init__(self, omega: int) -> None:
        self.omega = omega
        self.exp_table = field.ExpTable(omega)
        self.name = f"Z_{P} x Z_{Q}"

    def from_array(self, array: Array) -> FFValue:
        return FFValue(
            field.residues_of_array(array, P), None, Lazy.of(field.residues_of_array(array, Q))
        )

    def to_array(self, value: FFValue) -> Array:
        if value.im is None:
            return value.re
        return value.re + 1j * value.im

    def shape(self, value: FFValue) -> tuple[int, ...]:
        return value.shape

    def restructure(self, value: FFValue, f: Callable[[Array], Array]) -> FFValue:
        im = None if value.im is None else f(value.im)
        return FFValue(f(value.re), im, value.q.map(f), value.poisoned)

    def elementwise(self, kind: str, args: Sequence[FFValue]) -> FFValue:
        apply = FIELD_RULES[kind].apply
        assert apply is not None
        arith = FieldArith(self)
        if len(args) == 1:
            return _on_distinct_values(lambda a: apply(arith, [a], ()), args[0])
        return apply(arith, args, ())

    def scale(self, value: FFValue, factor: float) -> FFValue:
        cp = np.asarray(float(field.residue_of(factor, P)))
        cq = np.asarray(float(field.residue_of(factor, Q)))
        im = None if value.im is None else field.mul(value.im, cp, P)
        return FFValue(
            field.mul(value.re, cp, P),
            im,
            value.q.map(lambda x: field.mul(x, cq, Q)),
            value.poisoned,
        )

    def matmul(self, a: FFValue, b: FFValue) -> FFValue:
        re, im = _c_matmul((a.re, a.im), (b.re, b.im))
        return FFValue(
            re,
            im,
            _lazy_combine(partial(field.matmul, m=Q), a.q, b.q),
            a.poisoned or b.poisoned,
        )

    def reduce(self, kind: ReduceKind, value: FFValue, axis: int) -> FFValue:
        if kind == "sum":
            im = None if value.im is None else _sum(value.im, axis, P)
            return FFValue(
                _sum(value.re, axis, P),
                im,
                value.q.map(lambda x: _sum(x, axis, Q)),
                value.poisoned,
            )
        # max: the element with the largest centered real residue (a stand-in).
        where = np.expand_dims(np.argmax(field.centered(value.re, P), axis=axis), axis)
        im = None if value.im is None else np.take_along_axis(value.im, where, axis)

        def q_max(x: Arr) -> Arr:
            at = np.expand_dims(np.argmax(field.centered(x, Q), axis=axis), axis)
            return np.take_along_axis(x, at, axis)

        return FFValue(
            np.take_along_axis(value.re, where, axis), im, value.q.map(q_max), value.poisoned
        )

    def concat(self, values: Sequence[FFValue], axis: int) -> FFValue:
        re = np.concatenate([v.re for v in values], axis=axis)
        im = None
        if any(v.im is not None for v in values):
            im = np.concatenate(
                [v.im if v.im is not None else np.zeros_like(v.re) for v in values], axis=axis
            )
        return FFValue(
            re,
            im,
            _lazy_combine(lambda *xs: np.concatenate(xs, axis=axis), *(v.q for v in values)),
            any(v.poisoned for v in values),
        )


def _on_distinct_values(fn: Callable[[FFValue], FFValue], a: FFValue) -> FFValue:
    """fn on the distinct Z_P[i] positions of a broadcast value (axes of stride 0 in both
    parts are computed once), broadcast back; the Z_Q part is left whole, it keeps its own
    shape through fn."""
    shape = a.re.shape
    broadcast = _broadcast_axes([a.re] if a.im is None else [a.re, a.im])
    if not any(broadcast):
        return fn(a)
    index = tuple(slice(0, 1) if b else slice(None) for b in broadcast)
    compact = FFValue(a.re[index], None if a.im is None else a.im[index], a.q, a.poisoned)
    out = fn(compact)
    im = None if out.im is None else np.broadcast_to(out.im, shape)
    return FFValue(np.broadcast_to(out.re, shape), im, out.q, out.poisoned)


def _sum(x: Arr, axis: int, m: int) -> Arr:
    n = x.shape[axis]
    if n * (m - 1) < field.EXACT_LIMIT:
        return field.reduce_mod(np.sum(x, axis=axis, keepdims=True), m)
    chunk = (field.EXACT_LIMIT - 1) // (m - 1)
    total = np.zeros_like(np.take(x, [0], axis=axis))
    for start in range(0, n, chunk):
        part = np.take(x, range(start, min(n, start + chunk)), axis=axis)
        total = field.add(total, field.reduce_mod(np.sum(part, axis=axis, keepdims=True), m), m)
    return total


def _c_matmul(a: Complex, b: Complex) -> Complex:
    ar, ai = a
    br, bi = b
    if ai is None and bi is None:
        return field.matmul(ar, br, P), None
    if ai is None:
        assert bi is not None
        n = br.shape[-1]
        both = field.matmul(ar, np.concatenate(np.broadcast_arrays(br, bi), axis=-1), P)
        return both[..., :n], both[..., n:]
    rows = ar.shape[-2]
    if bi is None:
        both = field.matmul(np.concatenate(np.broadcast_arrays(ar, ai), axis=-2), br, P)
        return both[..., :rows, :], both[..., rows:, :]
    n = br.shape[-1]
    full = field.matmul(
        np.concatenate(np.broadcast_arrays(ar, ai), axis=-2),
        np.concatenate(np.broadcast_arrays(br, bi), axis=-1),
        P,
    )
    rr, ri = full[..., :rows, :n], full[..., :rows, n:]
    ir, ii = full[..., rows:, :n], full[..., rows:, n:]
    return field.sub(rr, ii, P), field.add(ri, ir, P)


def field_rule_table() -> dict[str, tuple[bool, str]]:
    """{kind: (exact, note)} for documentation and the verdict."""
    return {k: (r.exact, r.note) for k, r in FIELD_RULES.items()}


__all__ = ["FIELD_RULES", "FFValue", "FieldArith", "FiniteFieldDomain", "Lazy", "field_rule_table"]
