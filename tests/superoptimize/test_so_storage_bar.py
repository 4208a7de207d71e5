"""The bar of a program that overflows its f16 storage: a μGraph finite where it is not
replaces it at any modelled cost; one that overflows as it does (the same kernels, or an
MLP's stored intermediate as PyTorch stores it) only where it is faster."""

from __future__ import annotations

import math

from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.explore import Found
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions


def _fourth_power_norm(b: KernelBuilder) -> None:
    x, w = b.input((16, 512), "f16"), b.input((512, 64), "f16")
    b.output(b.rms_norm(b.square(b.square(b.matmul(x, w)))))


def _search() -> tuple[Search, float]:
    program = build(_fourth_power_norm)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    options = SearchOptions(time_budget=5.0, workers=1, target=SM_90, keep=1)
    search = Search(program, options, PrunerFactory(None), verifier)
    cost = program_cost(program, SM_90).seconds
    search.unfit_bar = cost
    return search, cost


def test_a_candidate_as_unfit_as_the_program_is_kept_only_where_it_is_faster() -> None:
    search, cost = _search()
    same = build(_fourth_power_norm)
    slower, faster = Found(cost * 2, "slower", same), Found(cost / 2, "faster", same)
    for f in (slower, faster):
        search._add(f, "test")  # pyright: ignore[reportPrivateUsage]
    assert not search._verify(slower)  # pyright: ignore[reportPrivateUsage]
    assert "not faster than it" in search.verdicts["slower"]
    assert search._verify(faster)  # pyright: ignore[reportPrivateUsage]


def test_the_search_of_an_unfit_program_keeps_its_cost_as_the_bar_of_unfit_candidates() -> None:
    search, cost = _search()
    search.unfit_bar = math.inf
    result = search.run()
    assert result.baseline == math.inf
    assert search.unfit_bar == cost
    for r in result.ranked:
        text = next(t for t, f in search.found.items() if f.graph == r.graph)
        assert "not faster" not in search.verdicts[text]
