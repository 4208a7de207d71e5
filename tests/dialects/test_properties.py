"""Property tests: random well-formed kernel programs (with small kernel.graphs and
thread.fuse chains, built through the model) verify, print, parse back in custom and generic
form to the same model, and evaluate the same; IR -> model -> IR -> model is the identity."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from dialect_programs import only_func, print_func
from hypothesis import given, settings
from hypothesis import strategies as st
from program_strategies import kernel_programs

from mirage.dialects.semantics import FloatDomain, evaluate, evaluate_function
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph

SETTINGS = settings(max_examples=60, deadline=None)


def _inputs(graph: Graph, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.5, 1.5, size=t.shape) for t in graph.args]


def _same(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@SETTINGS
@given(st.data())
def test_print_parse_and_evaluate(data: st.DataObject) -> None:
    graph = kernel_programs(data)
    func = func_from_graph("f", graph)
    func.verify()
    inputs = _inputs(graph, data.draw(st.integers(0, 2**16)))
    dom = FloatDomain()
    with np.errstate(all="ignore"):
        want = evaluate(graph, inputs, dom)
        for generic in (False, True):
            parsed = only_func(print_func(func, generic))
            assert graph_from_func(parsed) == graph
            _same(evaluate_function(parsed, inputs, dom), want)


@SETTINGS
@given(st.data())
def test_model_round_trip(data: st.DataObject) -> None:
    graph = kernel_programs(data)
    text = print_func(func_from_graph("f", graph))
    parsed = only_func(text)
    model = graph_from_func(parsed)
    rebuilt = func_from_graph("f", model)
    assert graph_from_func(rebuilt) == model
    # IR -> model -> IR gives the same text back.
    assert print_func(rebuilt) == print_func(parsed)
