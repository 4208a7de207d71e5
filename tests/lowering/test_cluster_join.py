"""Split-KV pairs in one launch of thread-block clusters: when a pair joins, how a cluster
rank maps to a block of the second graph, what the descriptor and the model say."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from mirage.dialects.hardware import SM_80, SM_90, SM_90A
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize.cluster_join import (
    INTS,
    ClusterJoin,
    clear_offset,
    find_join,
    joined_smem,
    plan_second,
    second_offset,
)
from mirage.lowering.optimize.plan import plan_graph_op
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.program import KernelLaunch, ProgramError
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from mirage.passes.superoptimize.cost import op_cost, program_cost
from tests.conftest import get_func, parse_module

PAIRS = Path(__file__).parent / "data" / "split_pairs.mlir"


def _pair(name: str) -> tuple[Graph, Op, tuple[int, ...], Op]:
    g = graph_from_func(get_func(parse_module(PAIRS.read_text()), name))
    (first, results), (second, _) = list(g.result_ids())
    return g, first, results, second


def _join(name: str, **kw: object) -> ClusterJoin | str:
    _, first, results, second = _pair(name)
    args: dict[str, object] = {
        "exclusive": [True] * len(results),
        "target": SM_90A,
        "first_loads": "cp-async",
        "first_threads": 128,
    }
    args.update(kw)
    return find_join(first, results, second, **args)  # type: ignore[arg-type]


def test_split8_joins_along_z_with_eight_combine_blocks_a_cluster() -> None:
    join = _join("split8")
    assert isinstance(join, ClusterJoin)
    assert (join.axis, join.size, join.split_dim, join.quotas) == (2, 8, 2, (1, 8, 1))
    assert join.cluster == (1, 1, 8)
    assert [p.tile for p in join.pulls] == [(1, 8, 32), (1, 8, 1), (1, 8, 1)]
    # block (b, y, z) of the first grid plays combine block (b, 8 y + z): its 8 rows of the
    # 64 that the cluster (b, y) holds
    ar = INTS
    played = {
        tuple(join.second_block(ar, (b, y, z), z))
        for b, y, z in itertools.product(range(4), range(2), range(8))
    }
    assert played == set(itertools.product(range(4), range(16), range(1)))
    assert join.second_block(ar, (3, 1, 5), 5) == [3, 13, 0]


def test_swapped_grid_axes_map_ranks_to_the_combine_x_axis() -> None:
    join = _join("split4_swapped")
    assert isinstance(join, ClusterJoin)
    assert join.quotas == (1, 4, 1) and join.second_imap == (1, 0, -1)
    # the first graph's batch is on x, the combine's on y; its row blocks on x
    assert join.second_block(INTS, (1, 0, 3), 3) == [3, 1, 0]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"target": SM_80}, "has no thread-block clusters"),
        ({"target": replace(SM_90A, max_cluster_blocks=4)}, "exceed the 4"),
        ({"first_loads": "bulk-rows"}, "loads by bulk-rows"),
        ({"first_threads": 32}, "more threads"),
        ({"exclusive": [True, False, True]}, "read elsewhere"),
    ],
)
def test_pairs_that_cannot_join_say_why(change: dict[str, object], reason: str) -> None:
    why = _join("split8", **change)
    assert isinstance(why, str) and reason in why, why


def test_a_combine_of_fewer_blocks_does_not_join() -> None:
    # half as many combine blocks as first-graph blocks: a rank would play half a block
    _, first, results, second = _pair("split8")
    attrs = {**dict(second.attrs), "grid": (4, 8, 1)}
    fewer = replace(second, attrs=tuple(attrs.items()))
    why = find_join(first, results, fewer, [True] * 3, SM_90A, "cp-async", 128)
    assert why == "grids of 64 and 32 blocks"


def test_the_joined_plan_keeps_every_slice_resident_with_the_first_graphs_threads() -> None:
    _, first, _, second = _pair("split8")
    join = _join("split8")
    assert isinstance(join, ClusterJoin) and first.body is not None
    p1 = plan_graph_op(
        first.body, first.ints_attr("grid"), first.ints_attr("block"), 2, SM_90A, None, "cp-async"
    )
    p2 = plan_second(second, join, p1, SM_90A, "auto")
    assert not isinstance(p2, str)
    assert p2.threads == 128 and p2.stages == 8
    # the combine overlays the first graph's Q, K and V tiles, clear of the kept ones: the
    # pair needs no more than the first graph alone
    offset = second_offset(p1, join, p2.smem_bytes)
    for t in (p1.tiles[p.source] for p in join.pulls):
        assert offset + p2.smem_bytes <= t.offset or offset >= t.offset + t.total_bytes
    assert joined_smem(p1, join, p2) == p1.smem_bytes
    # too little shared memory for both graphs: not joined, and why
    small = replace(SM_90A, shared_memory_per_block=p1.smem_bytes - 1)
    why = plan_second(second, join, p1, small, "auto")
    assert isinstance(why, str) and "bytes of shared memory" in why


def test_the_joined_memory_starts_at_the_first_aligned_gap_clear_of_the_kept_tiles() -> None:
    assert clear_offset([], 5000) == 0
    assert clear_offset([(0, 100)], 5000) == 1024
    assert clear_offset([(3000, 3100)], 2048) == 0
    assert clear_offset([(3000, 3100)], 3001) == 4096
    # a gap between two kept tiles, aligned, that holds it
    assert clear_offset([(0, 16), (8192, 9000)], 4096) == 1024
    assert clear_offset([(0, 16), (8192, 9000)], 8000) == 9216


def test_descriptor_keeps_clusters_and_checks_them() -> None:
    split8 = get_func(parse_module(PAIRS.read_text()), "split8")
    program = compile_function(split8, "sm_90a", clusters=True)
    (launch,) = program.launches
    assert launch.cluster == (1, 1, 8) and '"cluster": [1, 1, 8]' in program.to_json()
    assert launch.shared_bytes >= 8 * 8 * 32 * 4  # the combine's eight resident slices
    with pytest.raises(ProgramError, match="not a whole number of clusters"):
        KernelLaunch("k", (4, 2, 6), (128, 1, 1), 0, (0,), (), (1, 1, 8))


def test_model_prices_the_joined_pair_without_the_second_launch() -> None:
    g, first, _, second = _pair("split8")
    joined = program_cost(g, SM_90, clusters=True)
    assert program_cost(g, SM_90).kernels == tuple(
        op_cost(op, [g.type_of(v) for v in op.operands], SM_90) for op in (first, second)
    )  # the default builds two launches, and the model prices those
    alone = [op_cost(op, [g.type_of(v) for v in op.operands], SM_90) for op in (first, second)]
    # the combine: no launch of its own, no device-memory round trip of the partial sums
    assert joined.kernels[1].seconds < alone[1].seconds - SM_90.launch_seconds
    assert joined.kernels[0].dram_bytes < alone[0].dram_bytes
    assert joined.seconds < sum(k.seconds for k in alone)


@pytest.mark.parametrize("clusters", [True, False])
def test_slices_of_one_key_tile_keep_the_running_maximum_in_a_tile(clusters: bool) -> None:
    # a loop of one iteration computes its accumulators in place, but the online chain's
    # rowmax task stores the running maximum after the loop: it keeps its tile
    func = get_func(parse_module(PAIRS.read_text()), "split4_once")
    program = compile_function(func, "sm_90a", clusters=clusters)
    assert len(program.launches) == (1 if clusters else 2)
    assert "wgmma.mma_async" in program.ptx
    if find_ptxas() is not None:
        report = resource_report(program.ptx, program.arch)
        assert "error" not in report.lower(), report
