"""Ranking where the program is not finite in its f16/bf16 storage: a candidate that is
finite ranks above every one that is not, whatever the model says of their costs."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verdict, Verifier
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions


class _StorageBy:
    """The verifier, with the storage check's answer given by `fits` (the program: unfit)."""

    def __init__(self, program: Graph, fits: Callable[[Graph], bool]) -> None:
        self.inner = Verifier(program)
        self.program = program
        self.fits = fits

    def verify(self, candidate: Graph, stop: Callable[[], bool] | None = None) -> Verdict:
        verdict = self.inner.verify(candidate, stop)
        return dataclasses.replace(verdict, storage_fit=self.fits(candidate))

    def storage_check(self, candidate: Graph) -> str | None:
        if candidate is self.program or not self.fits(candidate):
            return "overflows at output 0"
        return None


def _norm_then_linear(b: KernelBuilder) -> None:
    x, w = b.input((8, 64), "f16"), b.input((64, 32), "f16")
    b.output(b.matmul(b.rms_norm(x), w))


def _search(program: Graph, fits: Callable[[Graph], bool]) -> Search:
    options = SearchOptions(time_budget=60.0, workers=1, target=SM_90, keep=2, max_kernel_ops=2)
    return Search(program, options, PrunerFactory(None), _StorageBy(program, fits))


def test_a_finite_candidate_ranks_first_where_the_program_is_not_finite() -> None:
    program = build(_norm_then_linear)
    # every candidate equivalent; only two-kernel ones finite in storage (the model rates
    # the one-kernel fused form cheaper)
    result = _search(program, lambda g: len(g.ops) == 2).run()
    assert any("not finite in f16/bf16 storage" in r for r in result.remarks)
    assert result.ranked
    assert len(result.ranked[0].graph.ops) == 2
    # where all are finite, a cheaper one-kernel form ranks first
    everything_fits = _search(program, lambda g: True).run()
    assert len(everything_fits.ranked[0].graph.ops) == 1
    assert everything_fits.ranked[0].seconds < result.ranked[0].seconds


def test_where_no_candidate_is_finite_the_model_ranks_them() -> None:
    program = build(_norm_then_linear)
    result = _search(program, lambda g: False).run()
    seconds = [r.seconds for r in result.ranked]
    assert seconds == sorted(seconds)
