"""The finite-field domain: its rules are the field operations (identities hold exactly),
it plugs into the one evaluator, and the contracting wrapper changes nothing but speed."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.passes.equivalence import field
from mirage.passes.equivalence.contraction import ContractingDomain, folded_matmul
from mirage.passes.equivalence.field import P, Q
from mirage.passes.equivalence.field_domain import FIELD_RULES, FFValue, FiniteFieldDomain, Lazy
from mirage.passes.equivalence.verifier import draw_inputs


def test_field_rules_cover_every_elementwise_kind() -> None:
    assert set(FIELD_RULES) == set(ELEMENTWISE_KINDS)


def _domain(seed: int = 0) -> FiniteFieldDomain:
    return FiniteFieldDomain(field.random_omega(np.random.default_rng(seed)))


def _random(shape: tuple[int, ...], seed: int) -> FFValue:
    rng = np.random.default_rng(seed)
    re = rng.integers(0, P, shape).astype(np.float64)
    return FFValue(re, None, Lazy.of(rng.integers(0, Q, shape).astype(np.float64)))


def _same(a: FFValue, b: FFValue) -> bool:
    return bool(np.all(a.same_as(b)))


def test_exp_turns_sums_into_products() -> None:
    d = _domain()
    a, b = _random((5, 7), 1), _random((5, 7), 2)
    lhs = d.elementwise("exp", [d.elementwise("add", [a, b])])
    rhs = d.elementwise("mul", [d.elementwise("exp", [a]), d.elementwise("exp", [b])])
    assert _same(lhs, rhs)
    quotient = d.elementwise("div", [d.elementwise("exp", [a]), d.elementwise("exp", [b])])
    assert _same(d.elementwise("exp", [d.elementwise("sub", [a, b])]), quotient)


def test_silu_is_x_over_one_plus_exp_minus_x() -> None:
    d = _domain(3)
    x = _random((4, 6), 3)
    one = FFValue(np.ones((1, 1)), None, Lazy.of(np.ones((1, 1))))
    e = d.elementwise("exp", [d.scale(x, -1.0)])
    want = d.elementwise("div", [x, d.elementwise("add", [one, e])])
    assert _same(d.elementwise("silu", [x]), want)


def test_square_roots_are_roots_for_every_element() -> None:
    d = _domain()
    x = _random((50, 40), 4)
    root = d.elementwise("sqrt", [x])
    assert root.im is not None  # about half the elements are non-residues
    assert _same(d.elementwise("square", [root]), x)
    nonzero = x.re != 0
    one = d.elementwise("mul", [root, d.elementwise("rsqrt", [x])])
    assert np.all(one.re[nonzero] == 1) and np.all(one.im[nonzero] == 0)  # type: ignore[index]


def test_division_and_zero_denominators() -> None:
    d = _domain()
    a, b = _random((6, 6), 5), _random((6, 6), 6)
    q = d.elementwise("div", [a, b])
    assert not q.poisoned
    assert _same(d.elementwise("mul", [q, b]), a)
    zero = FFValue(np.zeros((6, 6)), None, Lazy.of(np.zeros((6, 6))))
    assert d.elementwise("div", [a, zero]).poisoned
    assert d.elementwise("rsqrt", [zero]).poisoned
    # The Z_Q part meets its zero denominator only when an exponential needs it.
    lazy = d.elementwise("div", [a, FFValue(b.re, None, Lazy.of(np.zeros((6, 6))))])
    assert not lazy.poisoned
    assert d.elementwise("exp", [lazy]).poisoned


def test_stand_ins_are_consistent() -> None:
    d = _domain()
    x = _random((8, 8), 7)
    zero = FFValue(np.zeros((1, 1)), None, Lazy.of(np.zeros((1, 1))))
    assert _same(d.elementwise("relu", [x]), d.elementwise("max", [x, zero]))
    m = d.reduce("max", x, 1)
    assert np.all(field.centered(m.re, P) >= field.centered(x.re, P))


def test_mul_scalar_takes_the_exact_rational() -> None:
    d = _domain()
    x = _random((3, 3), 8)
    third = d.scale(x, 1 / 3)
    back = d.scale(third, 3.0)
    # 1/3 is not a float: the float stored times 3 is not 1, and the field says so.
    assert not _same(back, x)
    assert _same(d.scale(d.scale(x, 0.125), 8.0), x)


def test_exponent_parts_stay_lazy_without_exponentials() -> None:
    d = ContractingDomain(_domain())
    x, w = _random((4, 8), 9), _random((8, 5), 10)
    y = d.force(d.matmul(x, w))
    s = d.reduce("sum", d.elementwise("mul", [y, y]), 1)
    assert not y.q.computed and not s.q.computed
    assert d.elementwise("exp", [s]).q.computed and s.q.computed


def _polynomial_program() -> Graph:
    a, w = TensorType((4, 8), "f32"), TensorType((8, 6), "f32")
    return Graph(
        (a, w),
        (
            make_op("matmul", [0, 1], [TensorType((4, 6), "f32")]),
            make_op("square", [2], [TensorType((4, 6), "f32")]),
            make_op("reduce_sum", [3], [TensorType((4, 1), "f32")], dim=1, size=1),
            make_op("sub", [3, 4], [TensorType((4, 6), "f32")]),
            make_op("mul_scalar", [5], [TensorType((4, 6), "f32")], scalar=-3.0),
        ),
        (6,),
    )


def test_integer_programs_agree_with_float64_modulo_p() -> None:
    graph = _polynomial_program()
    rng = np.random.default_rng(11)
    inputs = [rng.integers(-5, 6, t.shape).astype(np.float64) for t in graph.args]
    (want,) = evaluate(graph, inputs, FloatDomain(np.float64))
    d = _domain()
    (got,) = evaluate(graph, [d.from_array(x) for x in inputs], d)
    assert got.re.tolist() == (want.astype(np.int64) % P).tolist()


def _fixture(name: str) -> tuple[Graph, Graph]:
    module = parse_module((FIXTURES / name).read_text())
    return graph_from_func(get_func(module, "program")), graph_from_func(get_func(module, "ugraph"))


@pytest.mark.parametrize("name", ["rmsnorm_linear_small.mlir", "attention_small.mlir"])
def test_contracting_domain_changes_nothing(name: str) -> None:
    _, ugraph = _fixture(name)
    plain, inputs = draw_inputs(ugraph, 5)
    wrapped = ContractingDomain(plain.inner)
    got = [wrapped.force(v) for v in evaluate(ugraph, inputs, wrapped)]
    want = evaluate(ugraph, inputs, plain.inner)
    assert all(_same(g, w) for g, w in zip(got, want, strict=True))
    rng = np.random.default_rng(0)
    floats = [rng.standard_normal(t.shape) for t in ugraph.args]
    f64 = FloatDomain(np.float64)
    fast = ContractingDomain(f64)
    for g, w in zip(
        [fast.force(v) for v in evaluate(ugraph, floats, fast)],
        evaluate(ugraph, floats, f64),
        strict=True,
    ):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    ("a_shape", "b_shape"),
    [
        ((1, 3, 1, 5, 4), (6, 1, 2, 4, 7)),
        ((2, 1, 5, 4), (1, 3, 4, 2)),
        ((5, 4), (4, 3)),
        ((3, 1, 2, 2), (3, 4, 2, 2)),
    ],
)
def test_folded_matmul_matches_numpy(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    got = folded_matmul(FloatDomain(np.float64), a, b)
    np.testing.assert_allclose(got, np.matmul(a, b), rtol=1e-12)
