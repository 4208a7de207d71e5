"""Verification at realistic shapes: what it keeps in memory, and that a deadline stops
it (with a verdict that says so) wherever it is."""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.hardware import SM_90
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.semantics.domain import Array
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.passes.equivalence.incremental import run_incremental
from mirage.passes.equivalence.verifier import Verdict, Verifier, VerifierOptions
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions

T = TensorType((4, 8), "f32")
CHAIN = 12


def _load(name: str) -> tuple[Graph, Graph]:
    module = parse_module((FIXTURES / name).read_text())
    return graph_from_func(get_func(module, "program")), graph_from_func(get_func(module, "ugraph"))


def _chain() -> Graph:
    """x + y, then + y again, CHAIN times: each value is used by the next op only."""
    ops = [make_op("add", [0, 1], [T])]
    ops += [make_op("add", [2 + i, 1], [T]) for i in range(CHAIN - 1)]
    return Graph((T, T), tuple(ops), (2 + CHAIN - 1,))


class _Counting(FloatDomain):
    """Counts the results of elementwise ops still alive as each new one is made."""

    def __init__(self) -> None:
        super().__init__(np.float64)
        self.alive: list[weakref.ref[Array]] = []
        self.most = 0

    def elementwise(self, kind: str, args: Sequence[Array]) -> Array:
        out = np.array(super().elementwise(kind, args))  # its own array, tracked alone
        self.alive = [r for r in self.alive if r() is not None]
        self.alive.append(weakref.ref(out))
        self.most = max(self.most, len(self.alive))
        return out


def _inputs() -> list[Array]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(T.shape) for _ in range(2)]


def test_the_evaluator_lets_a_value_go_after_its_last_use() -> None:
    domain = _Counting()
    (out,) = evaluate(_chain(), _inputs(), domain)
    assert np.allclose(out, _inputs()[0] + CHAIN * _inputs()[1])
    # the new value and the one it was made from (the evaluator's list drops the rest)
    assert domain.most <= 2, domain.most


def test_incremental_runs_let_values_go_after_their_last_use() -> None:
    domain = _Counting()
    run_incremental(_chain(), _inputs(), domain, None, None, lambda v: v)
    assert domain.most <= 3, domain.most


def test_tests_drawn_again_give_the_same_verdicts() -> None:
    program, ugraph = _load("rmsnorm_linear_small.mlir")
    kept = Verifier(program)
    again = Verifier(program, VerifierOptions(input_bytes=0))
    a, b = kept.verify(ugraph), again.verify(ugraph)
    assert a.equivalent and b.equivalent and a.tests == b.tests
    assert all(t.kept is not None for t in kept.fingerprint.tests)
    assert all(t.kept is None for t in again.fingerprint.tests)
    # a different candidate fails on the same test, at the same index, either way
    reference = Graph((T, T), (make_op("div", [0, 1], [T]),), (2,))
    candidate = Graph((T, T), (make_op("div", [1, 0], [T]),), (2,))
    cx = Verifier(reference).verify(candidate).counterexample
    assert cx is not None
    assert (
        Verifier(reference, VerifierOptions(input_bytes=0)).verify(candidate).counterexample == cx
    )


def test_only_the_first_tests_keep_their_inputs() -> None:
    program, ugraph = _load("rmsnorm_linear_small.mlir")
    one = 16 * sum(t.numel for t in program.args)  # Z_P and Z_Q parts in float64
    verifier = Verifier(program, VerifierOptions(input_bytes=one))
    assert verifier.verify(ugraph).equivalent
    kept = [t.kept is not None for t in verifier.fingerprint.tests]
    assert kept[0] and not any(kept[1:]) and len(kept) >= 2, kept


def _stop_after(polls: int) -> Callable[[], bool]:
    count = [0]

    def stop() -> bool:
        count[0] += 1
        return count[0] > polls

    return stop


def test_a_stopped_verification_is_not_equivalent_and_says_how_far_it_got() -> None:
    program, ugraph = _load("rmsnorm_linear_small.mlir")
    verifier = Verifier(program)
    at_once = verifier.verify(ugraph, lambda: True)
    assert at_once.stopped and not at_once.equivalent and at_once.tests == 0
    assert str(at_once).startswith("not verified in the budget: stopped in the random tests")
    # stopped part of the way: some tests passed, but not enough for the bound
    full = verifier.verify(ugraph)
    polls = 0

    def counting() -> bool:
        nonlocal polls
        polls += 1
        return False

    Verifier(program).verify(ugraph, counting)
    late = Verifier(program).verify(ugraph, _stop_after(polls - 1))
    assert late.stopped and not late.equivalent
    assert late.tests < full.tests or "float32" in late.reason, late
    # an unhurried stop changes nothing
    assert Verifier(program).verify(ugraph, lambda: False) == Verifier(program).verify(ugraph)


class _Slow:
    """A verifier that takes until it is told to stop (or 30 s)."""

    def __init__(self, program: Graph) -> None:
        self.inner = Verifier(program)

    def verify(self, candidate: Graph, stop: Callable[[], bool] | None = None) -> Verdict:
        began = time.time()
        while (stop is None or not stop()) and time.time() - began < 30:
            time.sleep(0.01)
        return self.inner.verify(candidate, stop)

    def storage_check(self, candidate: Graph) -> str | None:
        return self.inner.storage_check(candidate)


def test_the_search_stops_verifications_at_its_deadline() -> None:
    program, _ = _load("rmsnorm_linear_small.mlir")
    options = SearchOptions(time_budget=2.0, workers=1, target=SM_90, normalize=False)
    began = time.time()
    result = Search(program, options, PrunerFactory(None), _Slow(program)).run()
    assert time.time() - began < 15
    assert result.ranked == []
    assert any(r.startswith("not verified in the budget") for r in result.remarks), result.remarks
    assert result.rejected_by_verifier == 0  # stopped, not found different


def test_remembered_products_are_computed_only_when_a_program_asks() -> None:
    square = TensorType((8, 8), "f32")
    reference = Graph((square, square), (make_op("add", [0, 1], [square]),), (2,))
    candidate = Graph((square, square), (make_op("add", [1, 0], [square]),), (2,))
    verifier = Verifier(reference)
    assert verifier.verify(candidate).equivalent
    domains = [verifier.fingerprint.drawn(t)[0] for t in verifier.fingerprint.tests]
    # a @ b, b @ a, a @ a, b @ b: remembered, none computed
    assert all(len(d.known) == 4 and not d.products for d in domains)


class _Timed:
    """A verifier that takes `seconds` for every candidate."""

    def __init__(self, program: Graph, seconds: float) -> None:
        self.inner = Verifier(program)
        self.seconds = seconds

    def verify(self, candidate: Graph, stop: Callable[[], bool] | None = None) -> Verdict:
        time.sleep(self.seconds)
        return self.inner.verify(candidate, stop)

    def storage_check(self, candidate: Graph) -> str | None:
        return self.inner.storage_check(candidate)


def test_the_normalized_search_leaves_time_to_verify_what_it_finds(monkeypatch: Any) -> None:
    # the restored normalized program and what the inner search finds are verified after
    # it: the inner search leaves a share of the budget for those verifications
    from mirage.passes.superoptimize.search import NORMALIZED_SHARE
    from mirage.passes.superoptimize.search_record import SearchRecord

    x, w = TensorType((64, 256), "f16"), TensorType((512, 256), "f16")
    ops = (
        make_op("transpose", [1], [TensorType((256, 512), "f16")], permutation=(1, 0)),
        make_op("matmul", [0, 2], [TensorType((64, 512), "f16")]),
    )
    program = Graph((x, w), ops, (3,))  # x @ w.T: a transpose the normalization takes away
    budgets: list[float] = []
    run = Search.run

    def recording(self: Search) -> Any:
        budgets.append(self.options.time_budget)
        return run(self)

    monkeypatch.setattr(Search, "run", recording)
    options = SearchOptions(time_budget=12.0, workers=1, target=SM_90)
    record = SearchRecord("timed")
    result = Search(
        program, options, PrunerFactory(None), _Timed(program, 2.0), record=record
    ).run()
    inner = budgets[1:]  # the outer run first
    assert inner and inner[0] <= 12.0 * NORMALIZED_SHARE + 0.5, budgets
    # a verification of 2 s fits after it: the search ends with a verified candidate
    assert result.ranked and "equivalent" in result.ranked[0].verdict
