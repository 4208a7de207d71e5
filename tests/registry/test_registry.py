"""The op-kind registry: every kind through every concern.

Each pointwise kind is run through each of its rules, interpreted here independently of
the modules that implement them for real (numpy versions of the field, lowering and linalg
interfaces), and through the real modules (evaluator, verifier domain, degree analysis,
pruner, cost model, search vocabulary, linalg round trip, PTX). A kind with a missing row
in any concern fails here.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from conftest import get_func, parse_module
from mirage.dialects import opkinds
from mirage.dialects.opkinds import (
    ACCUMULATORS,
    ELEMENTWISE_KINDS,
    OP_KINDS,
    POINTWISE,
    FieldOps,
    LinalgOps,
    LoweringOps,
    OpKind,
)
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.tools.registry import get_all_dialects

sys.path.insert(0, str(Path(__file__).parent))
from kind_dispatch import count, mul_scalar_files

Array = NDArray[np.float64]
ALL = sorted(OP_KINDS)
POINTWISE_KINDS = [k for k in ALL if k in POINTWISE]
_RNG = np.random.default_rng(5)


def _samples(kind: OpKind) -> list[Array]:
    """Operands where the kind is finite: positive for roots, bases of pow and divisors."""
    positive = kind.name in ("sqrt", "rsqrt", "pow", "div")
    out: list[Array] = []
    for _ in range(kind.arity):
        x = _RNG.uniform(-3.0, 3.0, 64)
        out.append(np.abs(x) + 0.1 if positive else x)
    return out


def _params(kind: OpKind) -> tuple[float, ...]:
    return tuple(0.75 for _ in kind.params)


def _op_text(kind: OpKind, level: str, ty: str) -> str:
    operands = ", ".join([*(f"%a{i}" for i in range(kind.arity)), *("0.75" for _ in kind.params)])
    types = ", ".join(ty for _ in range(kind.arity))
    return f"{level}.{kind.name} {operands} : {types} -> {ty}"


# --- dialect classes ------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["kernel", "block", "thread"])
def test_every_dialect_op_has_a_record_at_its_level(level: str) -> None:
    dialect = get_all_dialects()[level]()
    for op in dialect.operations:
        name = op.name.partition(".")[2]
        assert name in OP_KINDS, f"{op.name} has no record"
        assert level in OP_KINDS[name].levels, f"{op.name}: the record misses level {level}"


def test_every_record_level_has_a_dialect_op() -> None:
    names = {op.name for d in get_all_dialects().values() for op in d().operations}
    for kind in OP_KINDS.values():
        for level in kind.levels:
            assert f"{level}.{kind.name}" in names, f"no op {level}.{kind.name}"


# --- the predicate sets ----------------------------------------------------------------------


def test_predicate_sets_come_from_the_records() -> None:
    assert {k for k, r in OP_KINDS.items() if r.pointwise} == opkinds.POINTWISE
    assert set(ELEMENTWISE_KINDS) | opkinds.SCALED == opkinds.POINTWISE
    assert set(ACCUMULATORS) == {k for k, r in OP_KINDS.items() if r.loop is not None}
    assert opkinds.REDUCTIONS == opkinds.SUM_REDUCTIONS | opkinds.MAX_REDUCTIONS
    assert opkinds.LAYOUT_OPS == opkinds.PERMUTES | opkinds.RESHAPES | opkinds.SLICES
    assert set(opkinds.SEARCH_ORDER) <= set(OP_KINDS)
    assert len(set(opkinds.SEARCH_ORDER)) == len(opkinds.SEARCH_ORDER)
    for group in (opkinds.UNARY, opkinds.BINARY, opkinds.SCALED, opkinds.REDUCTIONS):
        assert group <= set(opkinds.SEARCH_ORDER)
    for k in opkinds.COMMUTATIVE_KINDS:
        assert OP_KINDS[k].arity == 2


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_pointwise_records_are_complete(name: str) -> None:
    kind = OP_KINDS[name]
    for concern in ("float_fn", "evaluate", "abstract", "lower", "linalg"):
        assert getattr(kind, concern) is not None, f"{name} has no {concern}"
    assert kind.field_rule.apply is not None, f"{name} has no finite-field rule"
    assert kind.field_rule.note
    assert kind.flops > 0
    assert set(kind.levels) == {"kernel", "block", "thread"}


# --- independent interpretations of the rules ------------------------------------------


class _RealField(FieldOps[Array]):
    """The field interface over the reals: an exact rule computes the kind itself."""

    def const(self, value: float) -> Array:
        return np.asarray(value)

    def scale(self, x: Array, factor: float) -> Array:
        return x * factor

    def add(self, x: Array, y: Array) -> Array:
        return x + y

    def sub(self, x: Array, y: Array) -> Array:
        return x - y

    def mul(self, x: Array, y: Array) -> Array:
        return x * y

    def square(self, x: Array) -> Array:
        return x * x

    def div(self, x: Array, y: Array) -> Array:
        return x / y

    def sqrt(self, x: Array) -> Array:
        return np.sqrt(x)

    def rsqrt(self, x: Array) -> Array:
        return 1.0 / np.sqrt(x)

    def exp(self, x: Array) -> Array:
        return np.exp(x)

    def logistic(self, x: Array, scale: float) -> Array:
        return x / (1.0 + np.exp(-scale * x))

    def relu_standin(self, x: Array) -> Array:
        return np.full_like(x, np.nan)

    def max_standin(self, x: Array, y: Array) -> Array:
        return np.full_like(x, np.nan)

    def pow_standin(self, x: Array, y: Array) -> Array:
        return np.full_like(x, np.nan)


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_exact_field_rules_compute_the_kind(name: str) -> None:
    kind = OP_KINDS[name]
    assert kind.field_rule.apply is not None and kind.float_fn is not None
    args = _samples(kind)
    got = kind.field_rule.apply(_RealField(), args, _params(kind))
    if kind.field_rule.exact:
        np.testing.assert_allclose(got, kind.float_fn(*args, *_params(kind)), rtol=1e-12)
    else:  # a stand-in says so: its rule uses an operation without a field image
        assert np.isnan(got).all() or name == "gelu"


class _NumpyLowering(LoweringOps[Any]):
    """The lowering interface in numpy float32, transcendentals exact."""

    def f32(self, value: float) -> Any:
        return np.float32(value)

    def fadd(self, a: Any, b: Any) -> Any:
        return np.float32(a) + np.float32(b)

    def fsub(self, a: Any, b: Any) -> Any:
        return np.float32(a) - np.float32(b)

    def fmul(self, a: Any, b: Any) -> Any:
        return np.float32(a) * np.float32(b)

    def fdiv(self, a: Any, b: Any) -> Any:
        with np.errstate(all="ignore"):
            return np.float32(a) / np.float32(b)

    def fma(self, a: Any, b: Any, c: Any) -> Any:
        return np.float32(a) * np.float32(b) + np.float32(c)

    def fneg(self, a: Any) -> Any:
        return -np.float32(a)

    def fmax(self, a: Any, b: Any) -> Any:
        return np.fmax(a, b)

    def fabs(self, a: Any) -> Any:
        return np.abs(a)

    def ffloor(self, a: Any) -> Any:
        return np.floor(a)

    def ex2(self, a: Any) -> Any:
        return np.exp2(np.float32(a))

    def lg2(self, a: Any) -> Any:
        with np.errstate(all="ignore"):
            return np.log2(np.float32(a))

    def exp(self, a: Any) -> Any:
        return np.exp(np.float32(a))

    def sqrt(self, a: Any) -> Any:
        return np.sqrt(np.float32(a))

    def rsqrt(self, a: Any) -> Any:
        return np.float32(1.0) / np.sqrt(np.float32(a))

    def fcmp(self, pred: str, a: Any, b: Any) -> Any:
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "olt": np.less,
            "oeq": np.equal,
            "one": np.not_equal,
            "ogt": np.greater,
        }
        return ops[pred](a, b)

    def and1(self, a: Any, b: Any) -> Any:
        return np.logical_and(a, b)

    def select(self, cond: Any, a: Any, b: Any) -> Any:
        return np.where(cond, a, b)


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_scalar_lowering_computes_the_kind(name: str) -> None:
    kind = OP_KINDS[name]
    assert kind.lower is not None and kind.float_fn is not None
    args = _samples(kind)
    got = kind.lower(_NumpyLowering(), [a.astype(np.float32) for a in args], _params(kind))
    want = kind.float_fn(*args, *_params(kind))
    # erf's polynomial is good to 1.5e-7 absolute; everything else is a few f32 ulp
    np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=2e-6, atol=5e-7)


class _NumpyLinalg(LinalgOps[Any]):
    _OPS: dict[str, Callable[..., Any]] = {
        "arith.addf": np.add,
        "arith.subf": np.subtract,
        "arith.mulf": np.multiply,
        "arith.divf": np.divide,
        "arith.negf": np.negative,
        "arith.maximumf": np.maximum,
        "math.exp": np.exp,
        "math.sqrt": np.sqrt,
        "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
        "math.erf": np.vectorize(math.erf),
        "math.tanh": np.tanh,
        "math.powf": np.power,
    }

    def const(self, value: float) -> Any:
        return np.float64(value)

    def op(self, name: str, *args: Any) -> Any:
        return self._OPS[name](*args)


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_linalg_body_computes_the_kind(name: str) -> None:
    kind = OP_KINDS[name]
    assert kind.linalg is not None and kind.float_fn is not None
    args = _samples(kind)
    got = kind.linalg(_NumpyLinalg(), args, _params(kind))
    np.testing.assert_allclose(got, kind.float_fn(*args, *_params(kind)), rtol=1e-12)


# --- through the real modules --------------------------------------------------------------


def _one_op(kind: OpKind, shape: tuple[int, ...] = (4, 8)) -> Graph:
    t = TensorType(shape, "f32")
    attrs = dict(zip(kind.params, _params(kind), strict=True))
    op = make_op(kind.name, list(range(kind.arity)), [t], **attrs)
    return Graph(tuple([t] * kind.arity), (op,), (kind.arity,))


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_evaluator_and_verifier_domain(name: str) -> None:
    from mirage.passes.equivalence.field_domain import FiniteFieldDomain
    from mirage.passes.equivalence.soundness import analyze

    kind = OP_KINDS[name]
    assert kind.float_fn is not None
    graph = _one_op(kind)
    args = [a.reshape(4, 16)[:, :8] for a in _samples(kind)]
    (got,) = evaluate(graph, args, FloatDomain())
    np.testing.assert_allclose(got, kind.float_fn(*args, *_params(kind)), rtol=1e-12)
    ff = FiniteFieldDomain(omega=3)
    (value,) = evaluate(graph, [ff.from_array(np.round(a * 8)) for a in args], ff)
    assert value.shape == (4, 8)
    facts = analyze(graph)
    assert (name in facts.unsound_ops) == (not kind.field_rule.exact)


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_abstract_expression_cost_and_vocabulary(name: str) -> None:
    from mirage.passes.pruning import AbstractExprs
    from mirage.passes.pruning.terms import Unknown
    from mirage.passes.superoptimize.cost import (
        _vector_flops,  # pyright: ignore[reportPrivateUsage]
    )
    from mirage.passes.superoptimize.vocabulary import vocabulary_of

    kind = OP_KINDS[name]
    graph = _one_op(kind)
    (term,) = AbstractExprs.of(graph).outputs
    assert not isinstance(term, Unknown)
    assert _vector_flops(graph.ops[0], list(graph.args)) == kind.flops * 32
    vocab = vocabulary_of(graph)
    offered = {*vocab.unary, *vocab.binary, *(k for k, _ in vocab.scaled)}
    assert name in offered


_IMPORTED_AS = {"sub_scalar": "add_scalar", "div_scalar": "mul_scalar"}
"""Kinds the linalg importer recognizes in another form of one op: x - c as x + (-c), x / c
as x * (1 / c)."""


@pytest.mark.parametrize("name", POINTWISE_KINDS)
def test_linalg_round_trip_and_ptx(name: str) -> None:
    from mirage.lowering.ptx.compile import compile_function
    from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
    from mirage.passes.linalg.to_linalg import ConvertKernelToLinalgPass
    from mirage.tools.registry import make_context

    kind = OP_KINDS[name]
    ty = "tensor<4x8xf32>"
    args = ", ".join(f"%a{i}: {ty}" for i in range(kind.arity))
    text = f"""
func.func @f({args}) -> {ty} {{
  %r = {_op_text(kind, "kernel", ty)}
  func.return %r : {ty}
}}"""
    module = parse_module(text)
    program = compile_function(get_func(module, "f"), "sm_80")
    assert ".entry" in program.ptx
    ctx = make_context()
    ConvertKernelToLinalgPass().apply(ctx, module)
    assert "linalg.generic" in str(module)
    ConvertLinalgToKernelPass().apply(ctx, module)
    kinds = [op.kind for op in graph_from_func(get_func(module, "f")).ops]
    assert kinds == [_IMPORTED_AS.get(name, name)], kinds


# --- kind tests outside the registry ----------------------------------------------------


def test_kind_dispatch_stays_in_the_registry() -> None:
    assert len(mul_scalar_files()) <= 3, mul_scalar_files()
    found = count()
    # What is left are the node kinds of other algebras that share names with op kinds
    # (the pruner's and the linalg importer's terms); no module may add new kind tests.
    # (65: the importer's slice term has its case in the emitter, as every term kind does.)
    assert sum(found.values()) <= 65, found


def test_counter_finds_kind_tests() -> None:
    from kind_dispatch import kind_tests

    src = (
        'if op.kind == "mul_scalar":\n    pass\n'
        'x = kind in ("add", "mul")\n'
        'T = {"exp": 1}\n'
        'if op.kind.startswith("accum_"):\n    pass\n'
        "ok = isinstance(op, block.ExpOp)\n"
        'make_op("exp", [0], [t])\n'
    )
    assert sorted(set(kind_tests(src))) == [1, 3, 4, 5, 7]
