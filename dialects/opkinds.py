"""The op-kind registry: one record per op kind of the three dialects.

A record holds everything the project knows of its kind: the dialect levels it exists at
(`kernel.<name>`, `block.<name>`, `thread.<name>`), its family (which says its shape rule
and how search, fusion and code generation treat it), and, for the pointwise kinds, its
meaning in every value domain the project computes in:

- `float_fn`: numpy floating arrays (the reference evaluator, linalg recognition);
- `field`: the finite-field rule, exact or a stand-in, as a function over `FieldOps`
  (the verifier's Z_P x Z_Q domain and the degree analysis of the error bound both
  implement it);
- `abstract`: the abstract expression, over `AbstractOps` (the pruner's term algebra);
- `lower`: the f32 code, over `LoweringOps` (the LLVM builder);
- `linalg`: the `arith`/`math` body of its `linalg.generic`, over `LinalgOps`;
- `flops`: arithmetic instructions per element, for the cost model.

Each concern's module implements its interface once and reads the record, so adding an
elementwise op is one row of `UNARY_KINDS` or `BINARY_KINDS` here plus its tests (the
dialect classes are made from the rows). The predicate sets (`POINTWISE`, `REDUCTIONS`,
`ACCUMULATORS`, `LAYOUT_OPS`, ...) are defined once, from the records.

A pointwise kind may take constant parameters from attributes (`mul_scalar`'s `scalar`):
every rule gets them as its third argument, in the order of `params`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.floating[Any]]
S = TypeVar("S")


# --- the interfaces the rules are written against ---------------------------------------


class FieldOps(Protocol[S]):
    """Arithmetic of the finite-field domain (and of anything that follows its rules, such
    as the degree bounds of the error analysis). The `*_standin` operations are the
    deterministic stand-ins of operations that have no field image."""

    def const(self, value: float) -> S: ...
    def scale(self, x: S, factor: float) -> S: ...
    def add(self, x: S, y: S) -> S: ...
    def sub(self, x: S, y: S) -> S: ...
    def mul(self, x: S, y: S) -> S: ...
    def square(self, x: S) -> S: ...
    def div(self, x: S, y: S) -> S: ...
    def sqrt(self, x: S) -> S: ...
    def rsqrt(self, x: S) -> S: ...
    def exp(self, x: S) -> S: ...
    def logistic(self, x: S, scale: float) -> S:
        """x / (1 + exp(-scale x)), with one exponential."""
        ...

    def relu_standin(self, x: S) -> S: ...
    def max_standin(self, x: S, y: S) -> S: ...
    def pow_standin(self, x: S, y: S) -> S: ...


class AbstractOps(Protocol[S]):
    """The abstract-expression algebra of the pruner (constants are not part of it)."""

    def identity(self, x: S) -> S: ...
    def one(self) -> S: ...
    def add(self, x: S, y: S) -> S: ...
    def mul(self, x: S, y: S) -> S: ...
    def div(self, x: S, y: S) -> S: ...
    def sqrt(self, x: S) -> S: ...
    def exp(self, x: S) -> S: ...
    def opaque(self, name: str, args: Sequence[S]) -> S:
        """An uninterpreted function `name` of `args`."""
        ...


class LoweringOps(Protocol[S]):
    """The f32 scalar operations code generation offers (approximate transcendentals)."""

    def f32(self, value: float) -> S: ...
    def fadd(self, a: S, b: S) -> S: ...
    def fsub(self, a: S, b: S) -> S: ...
    def fmul(self, a: S, b: S) -> S: ...
    def fdiv(self, a: S, b: S) -> S: ...
    def fma(self, a: S, b: S, c: S) -> S: ...
    def fneg(self, a: S) -> S: ...
    def fmax(self, a: S, b: S) -> S: ...
    def fabs(self, a: S) -> S: ...
    def ffloor(self, a: S) -> S: ...
    def ex2(self, a: S) -> S: ...
    def lg2(self, a: S) -> S: ...
    def exp(self, a: S) -> S: ...
    def sqrt(self, a: S) -> S: ...
    def rsqrt(self, a: S) -> S: ...
    def fcmp(self, pred: str, a: S, b: S) -> Any:
        """An i1 condition (LLVM fcmp predicates: olt, oeq, one, ...)."""
        ...

    def and1(self, a: Any, b: Any) -> Any: ...
    def select(self, cond: Any, a: S, b: S) -> S: ...


class ValueOps(Protocol[S]):
    """The arithmetic of a value domain of the evaluator (`mirage.dialects.semantics`)."""

    def elementwise(self, kind: str, args: Sequence[S]) -> S:
        """The elementwise kind `kind` (a row of `UNARY_KINDS` or `BINARY_KINDS`)."""
        ...

    def scale(self, value: S, factor: float) -> S: ...
    def from_array(self, array: FloatArray) -> S:
        """A value of real numbers (a constant operand, broadcasting like numpy)."""
        ...


class LinalgOps(Protocol[S]):
    """Building a `linalg.generic` body: constants of the body's element type and `arith`
    or `math` ops by their MLIR names (`arith.addf`, `math.exp`)."""

    def const(self, value: float) -> S: ...
    def op(self, name: str, *args: S) -> S: ...


Params = Sequence[float]
FieldFn = Callable[[FieldOps[Any], Sequence[Any], Params], Any]
AbstractFn = Callable[[AbstractOps[Any], Sequence[Any], Params], Any]
LowerFn = Callable[[LoweringOps[Any], Sequence[Any], Params], Any]
LinalgFn = Callable[[LinalgOps[Any], Sequence[Any], Params], Any]
EvalFn = Callable[[ValueOps[Any], Sequence[Any], Params], Any]


@dataclass(frozen=True)
class FieldRule:
    exact: bool
    """True: the rule is the operation itself (division by the modular inverse, square
    root by a modular root, exp by omega^x). False: a deterministic stand-in."""
    note: str
    apply: FieldFn | None = None
    """For pointwise kinds: the rule over `FieldOps`."""
    exact_with: Callable[[Params], bool] | None = None
    """Parameters with which a stand-in rule is the operation itself (a power by a small
    natural number is that many products)."""

    def exact_for(self, params: Params) -> bool:
        """Whether the rule is the operation itself for an op with these parameters."""
        return self.exact or (self.exact_with is not None and self.exact_with(params))


# --- families ---------------------------------------------------------------------------


class Family(Enum):
    ELEMENTWISE = "elementwise"
    """Unary and binary elementwise ops, broadcasting like numpy; one row each below."""
    SCALED = "scaled"
    """Pointwise with constant parameters (mul_scalar, and the other immediate forms of
    binary kinds: add_scalar, sub_scalar, div_scalar, pow_scalar)."""
    CONTRACTION = "contraction"
    REDUCTION = "reduction"
    NORM = "norm"
    CONCAT = "concat"
    PERMUTE = "permute"
    """Moves elements without arithmetic: a permutation of the dims (transpose)."""
    RESHAPE = "reshape"
    """Moves elements without arithmetic: the same elements in another shape."""
    SLICE = "slice"
    """Selects elements without arithmetic: a static window of unit strides."""
    CONSTANT = "constant"
    INPUT = "input"
    OUTPUT = "output"
    ACCUMULATOR = "accumulator"
    STRUCTURE = "structure"
    """The IR's skeleton: graph, fuse, for_loop, yield, return."""


class Loop(Enum):
    """How an accumulator combines the loop's iterations."""

    SUM = "sum"
    MAX = "max"
    # (this order is the search's order of accumulators)
    SUM_LAST = "sum_last"
    """Sums the iterations and the tile's last dim."""
    MEAN_LAST = "mean_last"
    RMS_LAST = "rms_last"
    RESCALE = "rescale"
    """Online softmax: sum of v * exp(s - max s)."""


class Partials(Enum):
    """What a kind does to operands that are partial sums (summed later over a dim)."""

    PASSES = "passes"
    """Linear in its one operand: the result is a partial sum too."""
    SUM = "sum"
    """A sum of its operands: partial where they are, unless one is broadcast."""
    PRODUCT = "product"
    """At most one operand may be partial."""
    QUOTIENT = "quotient"
    """Only the dividend may be partial."""


class Scaling(Enum):
    """What a kind does to values that carry online softmax's factor exp(-m), m a running
    maximum (the search's `Stabilizer` layouts); a kind without one may not take them."""

    PASSES = "passes"
    """Linear in its one operand: the factor stays."""
    ALIKE = "alike"
    """A sum: its operands carry the same factor, which stays."""
    PRODUCT = "product"
    """At most one operand carries a factor, which stays."""
    QUOTIENT = "quotient"
    """Factors alike cancel; a divisor without one keeps the dividend's."""
    CONTRACTION = "contraction"
    """Only the first operand may carry one (constant along the contracted dim)."""


KERNEL, BLOCK, THREAD = "kernel", "block", "thread"


@dataclass(frozen=True)
class Infix:
    """How an expression prints a kind between its two operands (its params counting as
    operands): `x + y`, `x * 0.5`."""

    symbol: str
    precedence: int
    """Higher binds tighter (products over sums)."""
    associative: bool = False
    """(a op b) op c == a op (b op c): a right operand of the same precedence needs no
    parentheses."""


@dataclass(frozen=True)
class OpKind:
    """One op kind, named as in the dialects without the dialect prefix."""

    name: str
    family: Family
    levels: tuple[str, ...]
    """The dialects that define `<level>.<name>`."""
    summary: str
    field_rule: FieldRule
    arity: int = 1
    params: tuple[str, ...] = ()
    """Attributes that are constant parameters of a pointwise rule."""
    float_fn: Callable[..., FloatArray] | None = None
    """Pointwise kinds: the meaning on numpy floating arrays (broadcasting like numpy),
    then the params."""
    evaluate: EvalFn | None = None
    """Pointwise kinds: the meaning in any value domain of the evaluator."""
    abstract: AbstractFn | None = None
    lower: LowerFn | None = None
    linalg: LinalgFn | None = None
    flops: int = 0
    """Arithmetic instructions per element, for the cost model (of the result, or of the
    first operand with `flops_of_operand`)."""
    flops_of_operand: bool = False
    partials: Partials | None = None
    """How the kind treats partial results (sums the search leaves to a later reduction):
    None where its operands must be complete."""
    reduce: Literal["sum", "max"] | None = None
    """Reductions and accumulators: the combination (sum or max)."""
    loop: Loop | None = None
    """Accumulators: how the iterations combine."""
    same_shape: bool = False
    """The result has the shape of the first operand (an accumulator that keeps the tile,
    mul_scalar, rms_norm)."""
    commutative: bool = False
    """Binary kinds: f(x, y) == f(y, x)."""
    linear: bool = False
    """Commutes with sums (a linear map of its operand, as mul_scalar and accum_sum)."""
    body: str | None = None
    """Structural ops with a body: the level of the body's ops."""
    implies: frozenset[str] = frozenset()
    """Kinds the search also needs where a program has this one (what computes it across
    a loop: rms_norm is accum_rms_last and a division after the loop)."""
    offered_with: tuple[frozenset[str], ...] = field(default_factory=tuple[frozenset[str], ...])
    """Accumulators: the search offers this one when the program has every kind of one of
    these sets (never when there is none)."""
    eps: bool = False
    """Has an `eps` property (default 0) added to the last dim's mean before any root."""
    scaling: Scaling | None = None
    """How the kind treats values scaled by online softmax's exp(-max)."""
    shifts: bool = False
    """x minus a running maximum of x's slice is online softmax's shift (sub)."""
    unshifts: bool = False
    """Turns a shifted value into one scaled by exp(-max) (exp): the only function of a
    shifted value."""
    infix: Infix | None = None
    """Pointwise kinds written as an operator in printed expressions."""
    operand_implies: tuple[str, ...] = ()
    """Kinds the search also needs for each optional operand after the first, in order
    (rms_norm's gain is a multiplication, its bias an addition)."""
    immediate_of: str | None = None
    """Scaled kinds: the binary kind this is the immediate form of (`x * c`, c a splat
    constant, is mul_scalar(x) with c as its parameter; `x - c` is sub_scalar(x)). The
    constant is either operand of a commutative kind, else the second."""

    def param_values(self, attr: Callable[[str], Any]) -> tuple[float, ...]:
        """The constant parameters of one op, read by `attr(name)`."""
        return tuple(float(attr(name)) for name in self.params)

    @property
    def pointwise(self) -> bool:
        """Computes each element from the same element of its operands (thread level)."""
        return self.family in (Family.ELEMENTWISE, Family.SCALED)

    @property
    def is_accumulator(self) -> bool:
        return self.family is Family.ACCUMULATOR

    @property
    def is_reduction(self) -> bool:
        return self.family is Family.REDUCTION


# --- the elementwise rows -----------------------------------------------------------------

_erf = np.frompyfunc(math.erf, 1, 1)


def _gelu(x: FloatArray) -> FloatArray:
    # The exact (erf) form, as torch.nn.functional.gelu computes it by default.
    erf: FloatArray = np.asarray(_erf(x / math.sqrt(2.0))).astype(x.dtype)
    return np.asarray(0.5 * x * (1.0 + erf)).astype(x.dtype)


def _rsqrt(x: FloatArray) -> FloatArray:
    return 1.0 / np.sqrt(x)


def _relu(x: FloatArray) -> FloatArray:
    return np.maximum(x, 0)


def _scaled(x: FloatArray, c: float) -> FloatArray:
    return x * c


def _silu(x: FloatArray) -> FloatArray:
    return x / (1.0 + np.exp(-x))


def _lower_silu(b: LoweringOps[S], x: S) -> S:
    return b.fdiv(x, b.fadd(b.f32(1.0), b.exp(b.fneg(x))))


def _lower_erf(b: LoweringOps[S], x: S) -> S:
    # Abramowitz and Stegun 7.1.26: absolute error below 1.5e-7.
    ax = b.fabs(x)
    t = b.fdiv(b.f32(1.0), b.fma(ax, b.f32(0.3275911), b.f32(1.0)))
    poly = b.f32(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = b.fma(poly, t, b.f32(c))
    poly = b.fmul(poly, t)
    y = b.fsub(b.f32(1.0), b.fmul(poly, b.exp(b.fneg(b.fmul(ax, ax)))))
    return b.select(b.fcmp("olt", x, b.f32(0.0)), b.fneg(y), y)


def _lower_gelu(b: LoweringOps[S], x: S) -> S:
    e = _lower_erf(b, b.fmul(x, b.f32(1.0 / math.sqrt(2.0))))
    return b.fmul(b.fmul(x, b.f32(0.5)), b.fadd(b.f32(1.0), e))


def _lower_pow(b: LoweringOps[S], x: S, y: S) -> S:
    """x ** y as numpy computes it for real results: negative bases only with integral
    exponents (sign from the exponent's parity), NaN otherwise; x ** 0 == 1."""
    r = b.ex2(b.fmul(y, b.lg2(b.fabs(x))))
    integral = b.fcmp("oeq", b.ffloor(y), y)
    half = b.fmul(y, b.f32(0.5))
    odd = b.and1(integral, b.fcmp("one", b.ffloor(half), half))
    negative_base = b.select(odd, b.fneg(r), r)
    negative_base = b.select(integral, negative_base, b.f32(math.nan))
    r = b.select(b.fcmp("olt", x, b.f32(0.0)), negative_base, r)
    return b.select(b.fcmp("oeq", y, b.f32(0.0)), b.f32(1.0), r)


def _field_tanh(f: FieldOps[S], x: S) -> S:
    e = f.exp(f.scale(x, -2.0))
    return f.div(f.sub(f.const(1.0), e), f.add(f.const(1.0), e))


def _lower_tanh(b: LoweringOps[S], x: S) -> S:
    # odd, so computed from |x|: exp(-2|x|) is at most 1 and never overflows
    e = b.exp(b.fmul(b.fabs(x), b.f32(-2.0)))
    y = b.fdiv(b.fsub(b.f32(1.0), e), b.fadd(b.f32(1.0), e))
    return b.select(b.fcmp("olt", x, b.f32(0.0)), b.fneg(y), y)


def _linalg_silu(m: LinalgOps[S], x: S) -> S:
    e = m.op("math.exp", m.op("arith.negf", x))
    return m.op("arith.divf", x, m.op("arith.addf", e, m.const(1.0)))


def _linalg_gelu(m: LinalgOps[S], x: S) -> S:
    scaled = m.op("arith.mulf", x, m.const(math.sqrt(0.5)))
    erf = m.op("math.erf", scaled)
    half = m.op("arith.mulf", m.op("arith.addf", erf, m.const(1.0)), m.const(0.5))
    return m.op("arith.mulf", x, half)


_ALL_LEVELS = (KERNEL, BLOCK, THREAD)


def _unary(
    name: str,
    summary: str,
    float_fn: Callable[..., FloatArray],
    flops: int,
    field_rule: tuple[bool, str, Callable[[FieldOps[Any], Any], Any]],
    abstract: Callable[[AbstractOps[Any], Any], Any],
    lower: Callable[[LoweringOps[Any], Any], Any],
    linalg: Callable[[LinalgOps[Any], Any], Any],
    *,
    unshifts: bool = False,
) -> OpKind:
    exact, note, ff = field_rule
    return OpKind(
        name,
        Family.ELEMENTWISE,
        _ALL_LEVELS,
        summary,
        FieldRule(exact, note, lambda f, a, p: ff(f, a[0])),
        arity=1,
        float_fn=float_fn,
        evaluate=lambda d, a, p: d.elementwise(name, a),
        abstract=lambda e, a, p: abstract(e, a[0]),
        lower=lambda b, a, p: lower(b, a[0]),
        linalg=lambda m, a, p: linalg(m, a[0]),
        flops=flops,
        unshifts=unshifts,
    )


def _binary(
    name: str,
    summary: str,
    float_fn: Callable[..., FloatArray],
    flops: int,
    commutative: bool,
    field_rule: tuple[bool, str, Callable[[FieldOps[Any], Any, Any], Any]],
    partials: Partials | None,
    abstract: Callable[[AbstractOps[Any], Any, Any], Any],
    lower: Callable[[LoweringOps[Any], Any, Any], Any],
    linalg: Callable[[LinalgOps[Any], Any, Any], Any],
    *,
    scaling: Scaling | None = None,
    shifts: bool = False,
    infix: Infix | None = None,
) -> OpKind:
    exact, note, ff = field_rule
    return OpKind(
        name,
        Family.ELEMENTWISE,
        _ALL_LEVELS,
        summary,
        FieldRule(exact, note, lambda f, a, p: ff(f, a[0], a[1])),
        arity=2,
        float_fn=float_fn,
        evaluate=lambda d, a, p: d.elementwise(name, a),
        abstract=lambda e, a, p: abstract(e, a[0], a[1]),
        lower=lambda b, a, p: lower(b, a[0], a[1]),
        linalg=lambda m, a, p: linalg(m, a[0], a[1]),
        flops=flops,
        commutative=commutative,
        partials=partials,
        scaling=scaling,
        shifts=shifts,
        infix=infix,
    )


UNARY_KINDS: tuple[OpKind, ...] = (
    _unary(
        "exp",
        "e to the power of x",
        np.exp,
        4,
        (True, "omega^(x mod Q), omega of order Q", lambda f, x: f.exp(x)),
        lambda e, x: e.exp(x),
        lambda b, x: b.exp(x),
        lambda m, x: m.op("math.exp", x),
        unshifts=True,
    ),
    _unary(
        "square",
        "x * x",
        np.square,
        1,
        (True, "x * x", lambda f, x: f.square(x)),
        lambda e, x: e.mul(x, x),
        lambda b, x: b.fmul(x, x),
        lambda m, x: m.op("arith.mulf", x, x),
    ),
    _unary(
        "sqrt",
        "square root",
        np.sqrt,
        4,
        (
            True,
            "canonical modular square root, in Z_P[i] for non-residues",
            lambda f, x: f.sqrt(x),
        ),
        lambda e, x: e.sqrt(x),
        lambda b, x: b.sqrt(x),
        lambda m, x: m.op("math.sqrt", x),
    ),
    _unary(
        "rsqrt",
        "reciprocal square root",
        _rsqrt,
        4,
        (True, "inverse of the canonical modular square root", lambda f, x: f.rsqrt(x)),
        lambda e, x: e.div(e.one(), e.sqrt(x)),
        lambda b, x: b.rsqrt(x),
        lambda m, x: m.op("math.rsqrt", x),
    ),
    _unary(
        "silu",
        "x * sigmoid(x)",
        _silu,
        8,
        (True, "x / (1 + exp(-x)), one exponential", lambda f, x: f.logistic(x, 1.0)),
        lambda e, x: e.opaque("silu", [x]),
        _lower_silu,
        _linalg_silu,
    ),
    _unary(
        "gelu",
        "x * Phi(x), the exact (erf) form",
        _gelu,
        16,
        (
            False,
            "stand-in x / (1 + exp(-1.702 x)); erf has no field image",
            lambda f, x: f.logistic(x, 1.702),
        ),
        lambda e, x: e.opaque("gelu", [x]),
        _lower_gelu,
        _linalg_gelu,
    ),
    _unary(
        "relu",
        "max(x, 0)",
        _relu,
        1,
        (
            False,
            "stand-in: x if its centered residue is >= 0, else 0",
            lambda f, x: f.relu_standin(x),
        ),
        lambda e, x: e.opaque("relu", [x]),
        lambda b, x: b.fmax(x, b.f32(0.0)),
        lambda m, x: m.op("arith.maximumf", x, m.const(0.0)),
    ),
    _unary(
        "tanh",
        "hyperbolic tangent",
        np.tanh,
        8,
        (True, "(1 - e) / (1 + e), e = exp(-2x): one exponential", _field_tanh),
        lambda e, x: e.opaque("tanh", [x]),
        _lower_tanh,
        lambda m, x: m.op("math.tanh", x),
    ),
)

BINARY_KINDS: tuple[OpKind, ...] = (
    _binary(
        "add",
        "x + y",
        np.add,
        1,
        True,
        (True, "x + y", lambda f, x, y: f.add(x, y)),
        Partials.SUM,
        lambda e, x, y: e.add(x, y),
        lambda b, x, y: b.fadd(x, y),
        lambda m, x, y: m.op("arith.addf", x, y),
        scaling=Scaling.ALIKE,
        infix=Infix("+", 1, associative=True),
    ),
    _binary(
        "sub",
        "x - y",
        np.subtract,
        1,
        False,
        (True, "x - y", lambda f, x, y: f.sub(x, y)),
        Partials.SUM,
        # a - b = a + (-1) b, and constants are not part of the abstraction
        lambda e, x, y: e.add(x, y),
        lambda b, x, y: b.fsub(x, y),
        lambda m, x, y: m.op("arith.subf", x, y),
        scaling=Scaling.ALIKE,
        shifts=True,
        infix=Infix("-", 1),
    ),
    _binary(
        "mul",
        "x * y",
        np.multiply,
        1,
        True,
        (True, "x * y", lambda f, x, y: f.mul(x, y)),
        Partials.PRODUCT,
        lambda e, x, y: e.mul(x, y),
        lambda b, x, y: b.fmul(x, y),
        lambda m, x, y: m.op("arith.mulf", x, y),
        scaling=Scaling.PRODUCT,
        infix=Infix("*", 2, associative=True),
    ),
    _binary(
        "div",
        "x / y",
        np.divide,
        4,
        False,
        (True, "x * y^-1 (modular inverse)", lambda f, x, y: f.div(x, y)),
        Partials.QUOTIENT,
        lambda e, x, y: e.div(x, y),
        lambda b, x, y: b.fdiv(x, y),
        lambda m, x, y: m.op("arith.divf", x, y),
        scaling=Scaling.QUOTIENT,
        infix=Infix("/", 2),
    ),
    _binary(
        "pow",
        "x to the power of y",
        np.power,
        8,
        False,
        (False, "stand-in: x^(y mod P-1) on the residues", lambda f, x, y: f.pow_standin(x, y)),
        None,
        lambda e, x, y: e.opaque("pow", [x, y]),
        _lower_pow,
        lambda m, x, y: m.op("math.powf", x, y),
    ),
    _binary(
        "max",
        "the larger of x and y",
        np.maximum,
        1,
        True,
        (False, "stand-in: the larger centered residue", lambda f, x, y: f.max_standin(x, y)),
        None,
        lambda e, x, y: e.opaque("max", [x, y]),
        lambda b, x, y: b.fmax(x, y),
        lambda m, x, y: m.op("arith.maximumf", x, y),
    ),
)


# --- the other kinds -----------------------------------------------------------------------

_STRUCTURAL = FieldRule(True, "moves values; no arithmetic")
_KB = (KERNEL, BLOCK)

MUL_SCALAR = OpKind(
    "mul_scalar",
    Family.SCALED,
    _ALL_LEVELS,
    "x times a constant",
    FieldRule(
        True,
        "the constant as an exact rational mod P and mod Q",
        lambda f, a, p: f.scale(a[0], p[0]),
    ),
    params=("scalar",),
    float_fn=_scaled,
    evaluate=lambda d, a, p: d.scale(a[0], p[0]),
    abstract=lambda e, a, p: e.identity(a[0]),
    lower=lambda b, a, p: b.fmul(a[0], b.f32(p[0])),
    linalg=lambda m, a, p: m.op("arith.mulf", a[0], m.const(p[0])),
    same_shape=True,
    linear=True,
    flops=1,
    flops_of_operand=True,
    partials=Partials.PASSES,
    scaling=Scaling.PASSES,
    infix=Infix("*", 2, associative=True),
    immediate_of="mul",
)
"""Multiplication by a constant (`scalar`): the pointwise kind with a parameter."""


MAX_NATURAL_POWER = 8
"""`x ** c` for a natural c up to this is exact in the finite fields (that many products)."""


def _natural(params: Params) -> bool:
    c = params[0]
    return float(c).is_integer() and 0 <= c <= MAX_NATURAL_POWER


def _power_rule(standin: FieldFn) -> FieldFn:
    """`x ** c` with c the constant: products of x where c is a small natural number,
    else `standin` of x and c."""

    def rule(f: Any, a: Sequence[Any], p: Params) -> Any:
        if not _natural(p):
            return standin(f, [a[0], f.const(p[0])], ())
        out = f.const(1.0)
        for _ in range(int(p[0])):
            out = f.mul(out, a[0])
        return out

    return rule


def _immediate(
    of: OpKind,
    *,
    linear: bool = False,
    infix: Infix | None = None,
    natural_power: bool = False,
) -> OpKind:
    """The immediate form `<of>_scalar` of binary kind `of` whose second operand is the
    constant `scalar`: every meaning is `of`'s with the constant in that place (so a program
    means the same before and after `x <of> c` becomes the form). A linear form (x / c)
    passes partial sums and online softmax's factor through, as mul_scalar does."""
    float_fn, field_fn, abstract, lower, linalg = (
        of.float_fn,
        of.field_rule.apply,
        of.abstract,
        of.lower,
        of.linalg,
    )
    assert float_fn and field_fn and abstract and lower and linalg
    return OpKind(
        f"{of.name}_scalar",
        Family.SCALED,
        _ALL_LEVELS,
        f"{of.summary} with y a constant",
        FieldRule(
            of.field_rule.exact,
            f"{of.field_rule.note}, y the constant as an exact rational mod P and mod Q"
            + ("; products of x for a natural y up to 8" if natural_power else ""),
            _power_rule(field_fn)
            if natural_power
            else lambda f, a, p: field_fn(f, [a[0], f.const(p[0])], ()),
            exact_with=_natural if natural_power else None,
        ),
        params=("scalar",),
        float_fn=float_fn,
        evaluate=lambda d, a, p: d.elementwise(of.name, [a[0], d.from_array(np.asarray(p[0]))]),
        # constants are not part of the abstraction: the constant is `one`, as a constant
        # operand of `of` is
        abstract=lambda e, a, p: abstract(e, [a[0], e.one()], ()),
        lower=lambda b, a, p: lower(b, [a[0], b.f32(p[0])], ()),
        linalg=lambda m, a, p: linalg(m, [a[0], m.const(p[0])], ()),
        same_shape=True,
        linear=linear,
        flops=of.flops,
        flops_of_operand=True,
        partials=Partials.PASSES if linear else None,
        scaling=Scaling.PASSES if linear else None,
        infix=infix,
        immediate_of=of.name,
    )


_BINARY_BY_NAME = {k.name: k for k in BINARY_KINDS}
IMMEDIATE_KINDS: tuple[OpKind, ...] = (
    _immediate(_BINARY_BY_NAME["add"], infix=Infix("+", 1, associative=True)),
    _immediate(_BINARY_BY_NAME["sub"], infix=Infix("-", 1)),
    _immediate(_BINARY_BY_NAME["div"], linear=True, infix=Infix("/", 2)),
    _immediate(_BINARY_BY_NAME["pow"], natural_power=True),
)
"""`x + c`, `x - c`, `x / c` and `x ** c` with c a constant (`scalar`): what a program
adds, subtracts, divides by or raises to without a constant operand (and so without a
launch that fills one). The constant is the second operand: `c - x` and `c / x` keep
their constant."""

MATMUL = OpKind(
    "matmul",
    Family.CONTRACTION,
    _KB,
    "batched matrix product",
    FieldRule(True, "exact modular product (float64 BLAS on limbs)"),
    arity=2,
    scaling=Scaling.CONTRACTION,
)
REDUCE_SUM = OpKind(
    "reduce_sum",
    Family.REDUCTION,
    _KB,
    "sum over a dim",
    FieldRule(True, "modular sum"),
    reduce="sum",
    flops=1,
    flops_of_operand=True,
    scaling=Scaling.PASSES,
)
REDUCE_MAX = OpKind(
    "reduce_max",
    Family.REDUCTION,
    _KB,
    "max over a dim",
    FieldRule(False, "stand-in: the element with the largest centered residue"),
    reduce="max",
    flops=1,
    flops_of_operand=True,
)
RMS_NORM = OpKind(
    "rms_norm",
    Family.NORM,
    _KB,
    "x / sqrt(mean(x^2) + eps) over the last dim, times a gain, plus a bias (both optional)",
    FieldRule(True, "x / sqrt(mean(x^2) + eps) * gain + bias with the modular square root"),
    same_shape=True,
    implies=frozenset({"div"}),
    eps=True,
    operand_implies=("mul", "add"),
)
CONCAT = OpKind(
    "concat",
    Family.CONCAT,
    _KB,
    "concatenation along a dim",
    _STRUCTURAL,
    arity=2,
    flops=1,
    flops_of_operand=True,
)
CONSTANT = OpKind(
    "constant",
    Family.CONSTANT,
    (KERNEL,),
    "a tensor of one value",
    FieldRule(True, "the constant as an exact rational mod P and mod Q"),
    arity=0,
)
TRANSPOSE = OpKind("transpose", Family.PERMUTE, (KERNEL,), "permuted dims", _STRUCTURAL)
RESHAPE = OpKind("reshape", Family.RESHAPE, (KERNEL,), "the same elements, reshaped", _STRUCTURAL)
SLICE = OpKind(
    "slice",
    Family.SLICE,
    (KERNEL,),
    "a static window of unit strides (offsets; the result's extents its sizes)",
    FieldRule(True, "selects elements; no arithmetic"),
)
INPUT = OpKind("input", Family.INPUT, (BLOCK,), "a block's tile of a device tensor", _STRUCTURAL)
OUTPUT = OpKind("output", Family.OUTPUT, (BLOCK,), "a block's tile saved", _STRUCTURAL)


def _accumulator(
    name: str,
    loop: Loop,
    field_rule: FieldRule,
    offered_with: tuple[frozenset[str], ...] = (),
    *,
    arity: int = 1,
    same_shape: bool = True,
    linear: bool = False,
    flops: int = 1,
    eps: bool = False,
) -> OpKind:
    return OpKind(
        name,
        Family.ACCUMULATOR,
        (BLOCK,),
        f"accumulates over the loop ({loop.value})",
        field_rule,
        arity=arity,
        reduce="max" if loop is Loop.MAX else "sum",
        loop=loop,
        same_shape=same_shape,
        linear=linear,
        offered_with=offered_with,
        eps=eps,
        flops=flops,
        flops_of_operand=True,
        partials=Partials.PASSES if linear else None,
    )


ACCUMULATOR_KINDS: tuple[OpKind, ...] = (
    _accumulator(
        "accum_sum",
        Loop.SUM,
        FieldRule(True, "modular sum over iterations"),
        (frozenset(),),
        linear=True,
    ),
    _accumulator(
        "accum_sum_last",
        Loop.SUM_LAST,
        FieldRule(True, "modular sum over iterations and the last dim"),
        (frozenset({"reduce_sum"}),),
        same_shape=False,
        flops=3,
    ),
    _accumulator(
        "accum_mean_last",
        Loop.MEAN_LAST,
        FieldRule(True, "modular mean (times the inverse of the count), plus eps"),
        (frozenset({"reduce_sum", "mul_scalar"}),),
        same_shape=False,
        flops=3,
        eps=True,
    ),
    _accumulator(
        "accum_rms_last",
        Loop.RMS_LAST,
        FieldRule(True, "modular square root of the mean of squares plus eps"),
        (frozenset({"rms_norm"}), frozenset({"reduce_sum", "sqrt"})),
        same_shape=False,
        flops=3,
        eps=True,
    ),
    _accumulator(
        "accum_max",
        Loop.MAX,
        FieldRule(False, "stand-in: the largest centered residue"),
        (frozenset({"reduce_max"}), frozenset({"max"})),
    ),
    _accumulator(
        "accum_rescale",
        Loop.RESCALE,
        FieldRule(
            False, "exp(s - max s): exact up to the max, a stand-in that cancels when normalized"
        ),
        arity=2,
        flops=3,
    ),
)


def _structure(name: str, levels: tuple[str, ...], summary: str, body: str | None = None) -> OpKind:
    return OpKind(name, Family.STRUCTURE, levels, summary, _STRUCTURAL, arity=-1, body=body)


STRUCTURE_KINDS: tuple[OpKind, ...] = (
    _structure("graph", (KERNEL,), "a custom kernel: a block graph launched on a grid", BLOCK),
    _structure("fuse", (THREAD,), "a thread graph: pointwise ops fused per element", THREAD),
    _structure("for_loop", (BLOCK,), "the loop of a block graph"),
    _structure("yield", (BLOCK, THREAD), "the loop's or the fused body's results"),
    _structure("return", (BLOCK,), "a block graph's outputs"),
)

OP_KINDS: dict[str, OpKind] = {
    k.name: k
    for k in (
        *UNARY_KINDS,
        *BINARY_KINDS,
        MUL_SCALAR,
        *IMMEDIATE_KINDS,
        MATMUL,
        REDUCE_SUM,
        REDUCE_MAX,
        RMS_NORM,
        CONCAT,
        CONSTANT,
        TRANSPOSE,
        RESHAPE,
        SLICE,
        INPUT,
        OUTPUT,
        *ACCUMULATOR_KINDS,
        *STRUCTURE_KINDS,
    )
}
"""Every op kind of the three dialects, by name."""


def op_kind(name: str) -> OpKind:
    """The record of kind `name`; a KeyError names an unknown kind."""
    try:
        return OP_KINDS[name]
    except KeyError:
        raise KeyError(f"unknown op kind '{name}'") from None


# --- predicate sets, defined once ----------------------------------------------------------


def _names(pred: Callable[[OpKind], bool]) -> frozenset[str]:
    return frozenset(k.name for k in OP_KINDS.values() if pred(k))


ELEMENTWISE_KINDS: dict[str, OpKind] = {k.name: k for k in UNARY_KINDS + BINARY_KINDS}
"""The unary and binary elementwise kinds (one op class per row at each level)."""
UNARY = frozenset(k.name for k in UNARY_KINDS)
BINARY = frozenset(k.name for k in BINARY_KINDS)
POINTWISE = _names(lambda k: k.pointwise)
"""Elementwise and scaled kinds: what a thread.fuse body may hold."""
FUSED = POINTWISE | {"fuse"}
"""Pointwise kinds and the fused op itself: each element from the same operand elements."""
REDUCTIONS = _names(lambda k: k.is_reduction)
ACCUMULATORS = tuple(k.name for k in ACCUMULATOR_KINDS)
LAST_DIM_ACCUMULATORS = frozenset(
    k.name for k in ACCUMULATOR_KINDS if k.loop in (Loop.SUM_LAST, Loop.MEAN_LAST, Loop.RMS_LAST)
)
SAME_SHAPE_ACCUMULATORS = frozenset(k.name for k in ACCUMULATOR_KINDS if k.same_shape)
LAYOUT_OPS = _names(lambda k: k.family in (Family.PERMUTE, Family.RESHAPE, Family.SLICE))
"""Kinds that only move or select elements (no arithmetic). The search never generates
them: they are normalized away before it, into views of the operands and results of the
μGraph (`mirage.passes.superoptimize.normalize`); a slice is a window view of an operand
(a view with an offset), after it is moved through the ops between it and the operand."""
DATA_MOVEMENT = _names(
    lambda k: (
        k.family in (Family.PERMUTE, Family.RESHAPE, Family.SLICE, Family.CONCAT, Family.CONSTANT)
    )
)
"""Kernel-level kinds that compute nothing: they move, join or fill values."""
STRUCTURE = _names(lambda k: k.family is Family.STRUCTURE)
SCALED = _names(lambda k: k.family is Family.SCALED)
"""Pointwise kinds with constant parameters."""
COMMUTATIVE_KINDS = _names(lambda k: k.commutative)
SUM_REDUCTIONS = _names(lambda k: k.is_reduction and k.reduce == "sum")
MAX_REDUCTIONS = _names(lambda k: k.is_reduction and k.reduce == "max")
CONTRACTIONS = _names(lambda k: k.family is Family.CONTRACTION)
NORMS = _names(lambda k: k.family is Family.NORM)
CONCATS = _names(lambda k: k.family is Family.CONCAT)
CONSTANTS = _names(lambda k: k.family is Family.CONSTANT)
PERMUTES = _names(lambda k: k.family is Family.PERMUTE)
RESHAPES = _names(lambda k: k.family is Family.RESHAPE)
SLICES = _names(lambda k: k.family is Family.SLICE)
"""Windows of unit strides (kernel level; a view with an offset on block.input)."""
INPUTS = _names(lambda k: k.family is Family.INPUT)
"""Input iterators (block level)."""
OUTPUTS = _names(lambda k: k.family is Family.OUTPUT)
"""Output savers (block level)."""
ITERATORS = INPUTS | OUTPUTS
LAUNCHES = _names(lambda k: k.body == BLOCK)
"""Graph-defined kernels (a block graph as body)."""
FUSES = _names(lambda k: k.body == THREAD)
"""Fused thread graphs."""


def accumulators_with(*loops: Loop) -> frozenset[str]:
    """The accumulators that combine the loop in one of these ways."""
    return frozenset(k.name for k in ACCUMULATOR_KINDS if k.loop in loops)


SEARCH_ORDER: tuple[str, ...] = (
    *INPUTS,
    *CONTRACTIONS,
    *(k.name for k in UNARY_KINDS),
    *(k.name for k in BINARY_KINDS),
    *sorted(SCALED),
    *(k for k in OP_KINDS if k in REDUCTIONS),
    *sorted(NORMS),
    *sorted(CONCATS),
    *(k.name for loop in Loop for k in ACCUMULATOR_KINDS if k.loop is loop),
    *sorted(LAUNCHES),
    *sorted(FUSES),
    *OUTPUTS,
)
"""The order the search generates kinds in (its canonical order of ops)."""


LOOP_SUM = accumulators_with(Loop.SUM)
LOOP_MAX = accumulators_with(Loop.MAX)
LOOP_SUM_LAST = accumulators_with(Loop.SUM_LAST)
LOOP_MEAN_LAST = accumulators_with(Loop.MEAN_LAST)
LOOP_RMS_LAST = accumulators_with(Loop.RMS_LAST)
LOOP_RESCALE = accumulators_with(Loop.RESCALE)
PLAIN_ACCUMULATORS = accumulators_with(Loop.SUM, Loop.MAX)
"""Accumulators that combine each element over the iterations and nothing else."""
SUMMING_ACCUMULATORS = accumulators_with(Loop.SUM, Loop.SUM_LAST, Loop.RESCALE)
"""Accumulators that add their iterations up (no mean, root or max): L copies of a
loop-invariant value are L times it."""
QUOTIENTS = _names(lambda k: k.scaling is Scaling.QUOTIENT)
"""Divisions (what normalizes a softmax)."""
PRODUCTS = _names(lambda k: k.arity == 2 and k.scaling is Scaling.PRODUCT)
"""Elementwise products of two operands (mul): a gain applied to a norm's rows."""
SHIFTS = _names(lambda k: k.shifts)
"""What subtracts a running maximum in online softmax (sub)."""
EXPONENTIALS = _names(lambda k: k.unshifts)
"""The exponential of online softmax (exp)."""
SUM_ACCUMULATOR = next(k.name for k in ACCUMULATOR_KINDS if k.loop is Loop.SUM)
"""The plain sum over the loop's iterations."""
SAME_SHAPE = _names(lambda k: k.same_shape)
"""Kinds whose result has the shape of their first operand."""
EPS_KINDS = _names(lambda k: k.eps)
"""Kinds with an `eps` property (default 0), added to the last dim's mean before any root:
rms_norm is x / sqrt(mean(x^2) + eps) * gain + bias (gain and bias its optional operands
after x), accum_mean_last the mean plus eps, accum_rms_last sqrt(mean of squares + eps)."""


SCALAR_FORMS: dict[str, str] = {
    k.immediate_of: k.name for k in OP_KINDS.values() if k.immediate_of is not None
}
"""Binary kinds with an immediate form: `x <kind> c`, c a splat constant, is the form's op
on x with c as its `scalar` property (`c <kind> x` too where the kind is commutative)."""
