"""Shape families for split-KV attention (`family.retile`): a pair's key split is no layout
pattern that re-tiling follows, so the pair is built again for the new shapes by the
generator that makes such pairs, where that gives the same structure."""

from __future__ import annotations

from superoptimize.so_helpers import benchmark_program, only_func

from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize.family import retile
from mirage.passes.superoptimize.online_split import online_split_candidates


def _attention(bh: int, n: int, d: int, kv: int) -> Graph:
    shapes = ((bh, n, d), (bh, d, kv), (bh, kv, d))
    return graph_from_func(only_func(benchmark_program("gqa", shapes)))


def test_a_split_kv_pair_carries_over_to_more_keys_and_heads() -> None:
    (pair,) = online_split_candidates(_attention(1, 8, 8, 4096), SM_90)
    big = _attention(2, 8, 8, 16384)
    tiled = retile(pair, big, SM_90)
    assert tiled is not None
    assert tiled.args == big.args
    assert [op.kind for op in tiled.ops] == ["graph", "graph"]
    # the first kernel leaves its slices' numerators, sums and maxima side by side
    assert max(r.shape[-1] for r in tiled.ops[0].results) > 8
    assert Verifier(big).verify(tiled).equivalent


def test_a_pair_is_not_built_again_for_a_program_of_another_structure() -> None:
    """The gqa pair for qknorm (its norms in the first kernel): the generator gives a pair
    of another structure, so the gqa pair does not re-tile (the caller searches)."""
    (pair,) = online_split_candidates(_attention(1, 8, 8, 4096), SM_90)
    shapes = ((1, 8, 8), (1, 8, 4096), (1, 4096, 8))
    qknorm = graph_from_func(only_func(benchmark_program("qknorm", shapes)))
    (own,) = online_split_candidates(qknorm, SM_90)
    assert [op.kind for op in own.ops] == ["graph", "graph"]  # it has a pair of its own
    assert retile(pair, qknorm, SM_90) is None
