"""kernel.slice in every concern of an op kind: its meaning in the float and finite-field
domains, its field rule and degree, batch separability, and its cost (a window's bytes)."""

from __future__ import annotations

import numpy as np
import pytest

from mirage.dialects.hardware import target_for
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.passes.equivalence import field
from mirage.passes.equivalence.batch import separable_batch
from mirage.passes.equivalence.field_domain import FiniteFieldDomain
from mirage.passes.equivalence.soundness import OP_FIELD_RULES, analyze
from mirage.passes.superoptimize.cost import program_cost


def _t(*shape: int, dtype: str = "f32") -> TensorType:
    return TensorType(shape, dtype)


Window = tuple[tuple[int, ...], tuple[int, ...]]


def _slices(shape: tuple[int, ...], windows: list[Window]) -> Graph:
    """One kernel.slice of the argument per (offsets, sizes), each an output."""
    ops = tuple(make_op("slice", (0,), [_t(*sizes)], offsets=offsets) for offsets, sizes in windows)
    return Graph((_t(*shape),), ops, tuple(range(1, 1 + len(ops))))


WINDOWS = [((0, 0, 0), (2, 3, 4)), ((1, 2, 3), (1, 1, 2)), ((0, 1, 0), (2, 2, 5))]


def test_a_slice_is_its_window_in_floats() -> None:
    x = np.arange(30.0).reshape(2, 3, 5)
    got = evaluate(_slices((2, 3, 5), WINDOWS), [x], FloatDomain())
    for (o, n), g in zip(WINDOWS, got, strict=True):
        want = x[o[0] : o[0] + n[0], o[1] : o[1] + n[1], o[2] : o[2] + n[2]]
        assert np.array_equal(g, want)


def test_a_slice_is_its_window_in_the_field() -> None:
    domain = FiniteFieldDomain(field.random_omega(np.random.default_rng(3)))
    rng = np.random.default_rng(4)
    x = rng.integers(0, 1000, (2, 3, 5)).astype(np.float64)
    got = evaluate(_slices((2, 3, 5), WINDOWS), [domain.from_array(x)], domain)
    for (o, n), g in zip(WINDOWS, got, strict=True):
        want = x[o[0] : o[0] + n[0], o[1] : o[1] + n[1], o[2] : o[2] + n[2]]
        assert np.array_equal(domain.to_array(g), domain.to_array(domain.from_array(want)))


def test_a_slice_is_exact_and_keeps_the_degree() -> None:
    assert OP_FIELD_RULES["slice"].exact
    sq = make_op("square", (0,), [_t(4, 6)])
    sl = make_op("slice", (1,), [_t(4, 2)], offsets=(0, 3))
    facts = analyze(Graph((_t(4, 6),), (sq, sl), (2,)))
    assert facts.outputs[0].num == 2 and not facts.unsound_ops


@pytest.mark.parametrize(
    ("offsets", "sizes", "separable"),
    [((0, 1), (3, 2), True), ((1, 0), (2, 4), False)],
)
def test_a_slice_is_separable_where_it_keeps_dim_zero(
    offsets: tuple[int, ...], sizes: tuple[int, ...], separable: bool
) -> None:
    exp = make_op("exp", (0,), [_t(3, 4)])
    sl = make_op("slice", (1,), [_t(*sizes)], offsets=offsets)
    graph = Graph((_t(3, 4),), (exp, sl), (2,))
    assert (separable_batch(graph) == 3) is separable


def test_a_slice_costs_its_window_not_its_operand() -> None:
    target = target_for("sm_90a")
    big = (_t(64, 4096, dtype="f16"),)
    narrow = Graph(big, (make_op("slice", (0,), [_t(64, 8, dtype="f16")], offsets=(0, 0)),), (1,))
    wide = Graph(big, (make_op("slice", (0,), [_t(64, 4000, dtype="f16")], offsets=(0, 0)),), (1,))
    (k_narrow,) = program_cost(narrow, target).kernels
    (k_wide,) = program_cost(wide, target).kernels
    assert k_narrow.dram_bytes == 2 * 64 * 8 * 2
    assert k_wide.dram_bytes == 2 * 64 * 4000 * 2
