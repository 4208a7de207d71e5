"""Separable programs verified one batch slice at a time: the batch-1 program of a
separable launch computes slice 0, the verifier's random tests then run on slices, and a
wrong candidate still gets a counterexample on the programs as they are."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence import verifier as verifier_module
from mirage.passes.equivalence.batch import first_slice, separable_batch
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions
from mirage.passes.superoptimize.online_split import online_split_candidates

SHAPES = ((4, 16, 32), (4, 32, 512), (4, 512, 32))


def _attention(exp: bool = True) -> Graph:
    b = KernelBuilder()
    q, k, v = (b.input(s, "f32") for s in SHAPES)
    s = b.matmul(q, k)
    e = b.exp(s) if exp else b.mul(s, s)
    b.output(b.matmul(b.div(e, b.reduce_sum(e, 2)), v))
    (func,) = b.build("program").ops
    return graph_from_func(func)  # type: ignore[arg-type]


def _pair(program: Graph) -> Graph:
    (pair,) = online_split_candidates(program, SM_90)
    return pair


def test_first_slice_of_a_split_pair_computes_slice_zero() -> None:
    program = _attention()
    pair = _pair(program)
    assert separable_batch(pair) == 4 and separable_batch(program) == 4
    one = first_slice(pair)
    assert [t.shape for t in one.args] == [(1, *s[1:]) for s in SHAPES]
    assert all(op.ints_attr("grid")[0] == 1 for op in one.ops)
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s) for s in SHAPES]
    domain = FloatDomain(np.float64)
    (want,) = evaluate(pair, inputs, domain)
    (got,) = evaluate(one, [x[:1] for x in inputs], domain)
    np.testing.assert_allclose(got, want[:1], rtol=1e-12, atol=1e-12)


def _recording(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    shapes: list[tuple[int, ...]] = []
    run = verifier_module.run_incremental

    def spy(graph: Graph, *rest: Any, **more: Any) -> Any:
        shapes.append(graph.args[0].shape)
        return run(graph, *rest, **more)

    monkeypatch.setattr(verifier_module, "run_incremental", spy)
    return shapes


def test_random_tests_run_on_one_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    program = _attention()
    pair = _pair(program)
    options = VerifierOptions(stability=None, slice_elements=0)
    verifier = Verifier(program, options)
    shapes = _recording(monkeypatch)
    verdict = verifier.verify(pair)
    assert verdict.equivalent and verdict.sliced and verdict.batch == 4
    assert verdict.tests == verdict.bound.tests_for(options.error_bound)
    assert shapes and all(s[0] == 1 for s in shapes)
    assert "of one batch slice" in str(verdict)


def test_small_programs_keep_whole_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    program = _attention()
    verifier = Verifier(program, VerifierOptions(stability=None))
    shapes = _recording(monkeypatch)
    verdict = verifier.verify(_pair(program))
    assert verdict.equivalent and not verdict.sliced
    assert shapes and all(s[0] == 4 for s in shapes)


def test_a_wrong_candidate_gets_a_counterexample_on_the_whole_programs() -> None:
    program = _attention()
    wrong = _attention(exp=False)
    assert separable_batch(wrong) == 4
    verdict = Verifier(program, VerifierOptions(stability=None, slice_elements=0)).verify(wrong)
    assert not verdict.equivalent and not verdict.sliced
    assert verdict.counterexample is not None
