"""The soundness table covers every op of the three dialects, and the bound is computed as
documented."""

from __future__ import annotations

import math

import pytest

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.passes.equivalence.field import P, Q
from mirage.passes.equivalence.soundness import (
    _RULES,  # pyright: ignore[reportPrivateUsage]
    OP_FIELD_RULES,
    Deg,
    analyze,
    error_bound,
)
from mirage.tools.registry import get_all_dialects

STRUCTURE_ONLY = {"for_loop", "yield", "return"}
"""IR ops that the search model folds into graph structure."""


@pytest.mark.parametrize("level", ["kernel", "block", "thread"])
def test_every_op_of_the_dialects_has_a_field_rule(level: str) -> None:
    dialect = get_all_dialects()[level]()
    kinds = {op.name.partition(".")[2] for op in dialect.operations}
    assert kinds <= set(OP_FIELD_RULES), kinds - set(OP_FIELD_RULES)


def test_every_model_kind_has_a_degree_rule() -> None:
    assert set(OP_FIELD_RULES) - STRUCTURE_ONLY == set(_RULES)
    assert set(ELEMENTWISE_KINDS) <= set(_RULES)


def test_the_sound_fragment() -> None:
    unsound = {k for k, r in OP_FIELD_RULES.items() if not r.exact}
    assert unsound == {
        "relu", "gelu", "pow", "pow_scalar", "max", "reduce_max", "accum_max", "accum_rescale"
    }  # fmt: skip


def _load(name: str) -> tuple[Graph, Graph]:
    module = parse_module((FIXTURES / name).read_text())
    return graph_from_func(get_func(module, "program")), graph_from_func(get_func(module, "ugraph"))


def test_rmsnorm_linear_facts() -> None:
    program, ugraph = _load("rmsnorm_linear.mlir")
    p, u = analyze(program), analyze(ugraph)
    # rms_norm(X) W: X / sqrt(mean(X^2)) is (1 + 1) / 1 ... times W: numerator 2, denominator 1.
    assert p.outputs == (Deg(2, 1, 0, 1),)
    assert u.outputs[0].num == 2 and u.outputs[0].den == 1
    assert (p.roots, u.roots, p.exps, u.exps) == (1, 1, 0, 0)
    assert p.unsound_ops == () and u.unsound_ops == ()
    bound = error_bound(p, u)
    assert bound.degree == 3 * 4 and bound.exponentials == 0
    assert bound.per_test == pytest.approx(12 / P)
    assert bound.tests_for(1e-12) == 2


def test_attention_facts() -> None:
    program, ugraph = _load("attention.mlir")
    bound = error_bound(analyze(program), analyze(ugraph))
    assert bound.exponentials == 2
    d = bound.degree
    assert bound.per_test == pytest.approx(8 * d * 2**4 / Q + Q ** (-1 / 4))
    n = bound.tests_for(1e-12)
    assert n is not None and bound.after(n) <= 1e-12 < bound.after(n - 1)


def _unary_chain(*kinds: str) -> Graph:
    t = TensorType((4, 4), "f32")
    ops = tuple(make_op(k, [i], [t]) for i, k in enumerate(kinds))
    return Graph((t,), ops, (len(kinds),))


def test_unsound_conditions_are_reported() -> None:
    assert analyze(_unary_chain("exp", "exp")).unsound_ops == ("exp on an exponential's path",)
    assert analyze(_unary_chain("sqrt", "sqrt")).unsound_ops == ("sqrt of a square root",)
    assert analyze(_unary_chain("sqrt", "exp")).unsound_ops == ("exp of a square root",)
    assert analyze(_unary_chain("relu", "silu")).unsound_ops == ("relu",)
    assert analyze(_unary_chain("exp", "square", "rsqrt")).unsound_ops == ()


def test_many_exponentials_reach_no_bound() -> None:
    chain = _unary_chain(*(["exp", "square"] * 4))
    bound = error_bound(analyze(chain), analyze(chain))
    assert bound.exponentials == 8
    assert bound.per_test == min(1.0, 8 * bound.degree * 8**4 / Q + Q ** (-1 / 64))
    if bound.per_test >= 1.0:
        assert bound.tests_for(1e-12) is None
    else:
        assert bound.tests_for(1e-12) == math.ceil(math.log(1e-12) / math.log(bound.per_test))
