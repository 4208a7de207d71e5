"""The μGraph optimizer's decisions on the fixtures and on small graphs."""

from __future__ import annotations

from pathlib import Path

import pytest

from mirage.dialects.hardware import target_for
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize.layout import Tile, row_pitch
from mirage.lowering.optimize.plan import (
    Plan,
    PlanError,
    live_ranges,
    online_direct,
    plan_graph_op,
    scratch_set_bytes,
)
from tests.conftest import FIXTURES, get_func, parse_module, plan_op

DATA = Path(__file__).parent / "data"


def _graph_ops(path: Path, func: str) -> list[Op]:
    g = graph_from_func(get_func(parse_module(path.read_text()), func))
    return [op for op in g.ops if op.kind == "graph"]


def _plan(op: Op, arch: str = "sm_90a", stages: int | None = None, matmuls: str = "auto") -> Plan:
    return plan_op(op, target_for(arch), stages=stages, matmuls=matmuls)


def _value_kind(body: Graph, v: int) -> str:
    n = len(body.args)
    for op in body.ops:
        if v < n + len(op.results):
            return op.kind
        n += len(op.results)
    return "arg"


def test_rmsnorm_linear_keeps_the_matmul_in_registers() -> None:
    (op,) = _graph_ops(FIXTURES / "rmsnorm_linear.mlir", "ugraph")
    plan = _plan(op)
    (mm,) = plan.matmuls.values()
    assert mm.tensor_core and mm.mode == "regs"
    # the square and the final division are fused: no tile of their own
    assert {_value_kind(plan.graph, v) for v in plan.virtual} >= {"square", "fuse"}
    # both input iterators are pipelined, with one barrier per iteration
    assert len(plan.streamed) == 2 and plan.stages >= 2
    assert plan.barriers == 1


def test_attention_fuses_exp_into_the_first_matmul() -> None:
    first, second = _graph_ops(FIXTURES / "attention.mlir", "ugraph")
    plan = _plan(first)
    qk, pv = sorted(plan.matmuls.values(), key=lambda m: m.op)
    assert qk.mode == "store" and _value_kind(plan.graph, qk.target) == "exp"
    assert pv.mode in ("regs", "accumulate")
    # the query tile does not change over the loop: loaded once
    assert len(plan.hoisted) == 1
    assert _plan(second).matmuls == {}


def _overlap(a: Tile, b: Tile) -> bool:
    return a.offset < b.offset + b.total_bytes and b.offset < a.offset + a.total_bytes


@pytest.mark.parametrize(
    ("path", "func"),
    [
        (FIXTURES / "attention.mlir", "ugraph"),
        (FIXTURES / "rmsnorm_linear.mlir", "ugraph"),
        (DATA / "blocks.mlir", "misc"),
        (DATA / "blocks.mlir", "online_softmax"),
        (DATA / "blocks.mlir", "post_matmul"),
    ],
)
def test_tiles_alive_together_never_share_bytes(path: Path, func: str) -> None:
    for op in _graph_ops(path, func):
        plan = _plan(op)
        ranges = live_ranges(plan)
        tiles = list(plan.tiles.items())
        for i, (u, a) in enumerate(tiles):
            assert a.offset % 16 == 0
            assert a.offset + a.total_bytes <= plan.smem_bytes
            for v, b in tiles[i + 1 :]:
                (lo1, hi1), (lo2, hi2) = ranges[u], ranges[v]
                if not (hi1 < lo2 or hi2 < lo1):
                    assert not _overlap(a, b), (u, v)


def test_memory_is_reused_after_last_use() -> None:
    (op,) = _graph_ops(DATA / "blocks.mlir", "post_matmul")
    plan = _plan(op)
    total = sum(t.total_bytes for t in plan.tiles.values())
    assert plan.smem_bytes < total


def test_too_much_shared_memory_is_a_plan_error() -> None:
    op, _ = _graph_ops(FIXTURES / "attention.mlir", "ugraph")
    with pytest.raises(PlanError, match="bytes of shared memory"):
        _plan(op, arch="sm_80", stages=4)


def test_stages_can_be_forced() -> None:
    (op,) = _graph_ops(FIXTURES / "rmsnorm_linear.mlir", "ugraph")
    assert _plan(op, stages=3).stages == 3


def test_ldmatrix_pitch_avoids_bank_conflicts() -> None:
    for inner in (16, 24, 48, 64, 96, 128, 256):
        pitch = row_pitch(inner, "f16", ldmatrix=True)
        units = pitch * 2 // 16
        assert pitch >= inner and pitch % 8 == 0
        # eight rows of 16 bytes land in eight distinct groups of four banks
        assert len({(r * units) % 8 for r in range(8)}) == 8 or inner * 2 < 32


def test_tensors_over_two_gib_are_refused() -> None:
    import importlib.util

    # Loaded by path under its own name: another module called `generate` may be imported.
    path = Path(__file__).parents[2] / "benchmarks" / "ugraphs" / "generate.py"
    spec = importlib.util.spec_from_file_location("benchmark_ugraphs_generate", path)
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)

    (op,) = generate.gated_mlp(8, 65536, 32768, nt=64, kt=64).ops
    with pytest.raises(PlanError, match="32-bit offsets"):
        _plan(op)


@pytest.mark.parametrize("func", ["norm_chain", "row_max_sum", "looped_row_sums"])
def test_reductions_across_warps_get_two_scratch_sets_of_one_f32_a_warp(func: str) -> None:
    (op,) = _graph_ops(DATA / "wide_rows.mlir", func)
    plan = _plan(op)
    assert plan.scratch >= 0 and plan.scratch % 16 == 0
    assert scratch_set_bytes(plan.threads) == 4 * (plan.threads // 32)
    assert plan.scratch + 2 * scratch_set_bytes(plan.threads) <= plan.smem_bytes
    for tile in plan.tiles.values():
        assert tile.offset + tile.total_bytes <= plan.scratch


def test_one_warp_per_row_needs_no_scratch() -> None:
    (op,) = _graph_ops(FIXTURES / "rmsnorm_linear.mlir", "ugraph")
    assert _plan(op).scratch == -1


def test_loop_invariant_block_ops_run_once_before_the_loop() -> None:
    (op,) = _graph_ops(DATA / "invariant.mlir", "norm_then_matmul")
    plan = _plan(op)
    assert [t.kind for t in plan.invariant] == ["rms_norm"]
    assert "rms_norm" not in [t.kind for t in plan.loop]
    # its tile is read in every iteration: nothing the loop writes may share its bytes
    (norm,) = plan.invariant[0].writes
    ranges = live_ranges(plan)
    loop_end = max(hi for _, hi in ranges.values())
    assert ranges[norm][1] >= max(hi for v, (_, hi) in ranges.items() if v in plan.streamed)
    assert loop_end >= ranges[norm][1]


def test_a_loop_of_one_iteration_hoists_nothing() -> None:
    (op,) = _graph_ops(DATA / "invariant.mlir", "norm_then_matmul")
    assert op.body is not None
    plan = plan_graph_op(op.body, op.ints_attr("grid"), op.ints_attr("block"), 1)
    assert plan.invariant == [] and "rms_norm" in [t.kind for t in plan.loop]


@pytest.mark.parametrize(
    ("func", "warps"),
    [
        ("online_rows64", (1, 4, 1, 1)),
        ("online_ragged", (1, 3, 1, 1)),
        ("online_batched", (2, 1, 1, 1)),
        ("online_split", (1, 4, 1, 1)),
        ("online_scaled", (1, 4, 1, 1)),
        ("online_d128", (1, 4, 1, 1)),
    ],
)
def test_online_softmax_loop_stays_in_registers(func: str, warps: tuple[int, ...]) -> None:
    """S, its row maxima, exp(S - m), e V and the row sums never get a tile: the loop is one
    chain task behind one barrier, and the accumulators reach their tiles after it."""
    op = _graph_ops(DATA / "online_chain.mlir", func)[0]
    plan = _plan(op, matmuls="mma-sync")
    assert op.body is not None
    assert [t.kind for t in plan.loop] == ["chain"]
    assert plan.barriers == 1
    first, second = sorted(plan.matmuls.values(), key=lambda mm: mm.op)
    assert first.chain_next == second.op and second.chain_prev == first.op
    assert first.rowmax >= 0 and first.rowsum >= 0
    assert first.parts == second.parts == warps
    assert second.mode == "regs"
    kinds = {_value_kind(op.body, v) for v in plan.tiles if v < op.body.num_values}
    assert kinds <= {"input", "accum_rescale", "accum_max", "output"}
    assert not plan.rescale_max  # the running maxima are registers too
    post = [t.kind for t in plan.post]
    assert {"materialize", "rowsum"} <= set(post)
    assert ("rowmax" in post) == (func == "online_split")
    # e = exp(S - m) is taken against the running maxima (e V adds to O directly); any
    # other e keeps the step's e V apart and rescales it
    assert online_direct(op.body, first) == (func != "online_scaled")


@pytest.mark.parametrize(
    ("func", "arch", "strategy"),
    [
        ("online_rows64", "sm_90a", "wgmma"),
        ("online_d128", "sm_90a", "wgmma"),
        ("online_split", "sm_90a", "wgmma"),
        ("online_rows128", "sm_90a", "wgmma"),
        ("online_rows64", "sm_80", "mma-sync"),  # no wgmma there
        ("online_ragged", "sm_90a", "mma-sync"),  # 96 threads: no whole warpgroup
        ("online_batched", "sm_90a", "mma-sync"),  # 32 rows would pad wgmma's m64
    ],
)
def test_auto_runs_online_chains_on_wgmma_where_it_can(func: str, arch: str, strategy: str) -> None:
    """matmuls=auto: an online chain whose rows fill m64 tiles runs on wgmma on sm_90a,
    elsewhere on mma.sync; either way the loop is one chain task."""
    op = _graph_ops(DATA / "online_chain.mlir", func)[0]
    plan = _plan(op, arch=arch)
    assert [t.kind for t in plan.loop] == ["chain"]
    assert {mm.strategy for mm in plan.matmuls.values()} == {strategy}
    assert not plan.remarks


def test_online_chain_loops_pipeline_their_loads() -> None:
    """An online chain's loop is one task: its loads overlap its matmuls only through a
    ring of stages, which the planner keeps even where the tensor work per byte, or a grid
    of more blocks than multiprocessors, would otherwise ask for two blocks an SM."""
    for func in ("online_wide", "online_many"):
        op = _graph_ops(DATA / "online_chain.mlir", func)[0]
        for matmuls in ("auto", "mma-sync"):
            plan = _plan(op, matmuls=matmuls)
            assert [t.kind for t in plan.loop] == ["chain"]
            assert plan.stages >= 2, (func, matmuls)


def test_online_softmax_without_whole_rows_per_warp_keeps_its_tiles() -> None:
    """16 query rows over four warps: no warp holds whole rows of S, so the row maxima
    go through shared memory as before; the rescaled accumulators, whose lanes keep their
    elements, stay in registers (`acc_update` of no tile)."""
    op = _graph_ops(DATA / "blocks.mlir", "online_softmax")[0]
    plan = _plan(op)
    assert all(mm.chain_next < 0 and mm.rowmax < 0 for mm in plan.matmuls.values())
    assert "reduce" in {t.kind for t in plan.loop}
    updates = [t for t in plan.loop if t.kind == "acc_update"]
    assert len(updates) == 2 and all(t.writes == () for t in updates)
    body = plan.graph
    rescaled = {v for v in range(body.num_values) if _value_kind(body, v) == "accum_rescale"}
    assert len(rescaled) == 2 and rescaled <= plan.register_rows


def test_a_norm_read_in_place_keeps_only_its_row_scales() -> None:
    (op,) = _graph_ops(DATA / "norms.mlir", "norm_in_place")
    plan = _plan(op)
    body = plan.graph
    (norm,) = [v for v in plan.virtual if _value_kind(body, v) == "rms_norm"]
    assert norm not in plan.tiles
    scales = plan.tiles[plan.norm_scales[norm]]
    assert (scales.shape, scales.dtype) == ((1, 6, 1), "f32")
    # the norm's task writes the scales; the output reads them with the norm's input
    (task,) = [t for t in plan.loop if t.kind == "rms_norm"]
    assert task.writes == (plan.norm_scales[norm],)
    (out,) = plan.post
    assert plan.norm_scales[norm] in out.reads
    # a loop that runs once: its accumulator is no task and no tile of its own
    acc = [v for v in range(body.num_values) if _value_kind(body, v) == "accum_max"]
    assert acc and set(acc) <= plan.virtual
    assert [t.kind for t in (*plan.pre, *plan.loop, *plan.post)] == ["rms_norm", "output"]
    # no tile holds a whole row in f32: the inputs, the gain and the scales
    assert all(t.dtype == "f16" or t.shape[-1] == 1 for t in plan.tiles.values())


def test_accumulators_of_a_longer_loop_keep_their_tiles() -> None:
    (op,) = _graph_ops(DATA / "norms.mlir", "norm_in_place")
    assert op.body is not None
    plan = plan_graph_op(op.body, op.ints_attr("grid"), op.ints_attr("block"), 2)
    kinds = [t.kind for t in (*plan.pre, *plan.loop, *plan.post)]
    assert "acc_init" in kinds and "acc_update" in kinds


def test_a_matmul_of_a_loop_run_once_stores_its_epilogue() -> None:
    (op,) = _graph_ops(DATA / "norms.mlir", "norm_in_epilogue")
    plan = _plan(op)
    (mm,) = plan.matmuls.values()
    # the epilogue's add is the block's output: stored from the registers, no tile of it
    assert mm.mode == "global" and _value_kind(plan.graph, mm.target) == "output"
    assert not plan.post and not any(_value_kind(plan.graph, v) == "add" for v in plan.tiles)
    (norm,) = plan.norm_scales
    (task,) = [t for t in plan.loop if t.kind == "matmul"]
    assert plan.norm_scales[norm] in task.reads  # the epilogue scales the norm's rows
    assert not plan.pre  # nothing to zero


def test_a_matmul_stores_a_block_output_from_its_registers() -> None:
    """LoRA's form: x W and x A are read by the last product (x A B), whose epilogue adds
    x W; that sum is read by nothing but the output, so the last matmul stores the output
    itself: no tile of the sum, no task or barrier after the loop."""
    (op,) = _graph_ops(DATA / "direct_outputs.mlir", "lora_ragged")
    plan = _plan(op)
    graph = plan.graph
    modes = {_value_kind(graph, mm.target): mm.mode for mm in plan.matmuls.values()}
    assert modes == {"matmul": "store", "output": "global"}
    assert not plan.post and plan.barriers_outside == 0
    assert not any(_value_kind(graph, v) in ("add", "accum_sum") for v in plan.tiles)
    (last,) = [t for t in plan.loop if plan.matmuls[t.op].mode == "global"]
    assert last.writes == () and last.phase == 1
    # the same program in a loop of two steps: the sum accumulates, the output waits
    assert op.body is not None
    looped = plan_graph_op(op.body, op.ints_attr("grid"), op.ints_attr("block"), 2)
    assert all(mm.mode != "global" for mm in looped.matmuls.values())
    assert [t.kind for t in looped.post][-1] == "output"


def test_two_products_an_output_joins_keep_their_tiles() -> None:
    (op,) = _graph_ops(DATA / "direct_outputs.mlir", "gated_once")
    plan = _plan(op)
    assert {mm.mode for mm in plan.matmuls.values()} == {"store"}
    assert {t.phase for t in plan.loop} == {0}  # the two products side by side
    assert [t.kind for t in plan.post] == ["output"]


def test_a_combine_keeps_its_rescaled_accumulators_in_registers() -> None:
    """A split-KV combine's accum_rescale: each lane rescales the same elements every
    iteration, so they and their rows' maxima stay in its registers, written to their
    tiles once after the loop; no running-maximum tile, no loop state in shared memory."""
    _, combine = _graph_ops(DATA / "split_pairs.mlir", "split4_once")
    plan = _plan(combine)
    body = plan.graph
    rescaled = {v for v in range(body.num_values) if _value_kind(body, v) == "accum_rescale"}
    assert len(rescaled) == 2 and rescaled <= plan.register_rows
    assert not plan.rescale_max
    assert all(t.writes == () for t in plan.loop if t.kind == "acc_update")
    flushed = {w for t in plan.post if t.kind == "acc_flush" for w in t.writes}
    assert flushed == rescaled
    # the short loop of small tiles is staged whole: every load in flight at once
    assert plan.stages == plan.loops == 4


def test_a_combine_too_wide_for_registers_keeps_its_tiles() -> None:
    """Two warps over 128 rows of 32: 64 elements a lane stay in shared memory with a
    running-maximum tile; the row sums (two a lane) still go to registers."""
    _, combine = _graph_ops(DATA / "split_pairs.mlir", "split4_tall")
    plan = _plan(combine)
    body = plan.graph
    acc, sums = sorted(v for v in range(body.num_values) if _value_kind(body, v) == "accum_rescale")
    assert body.type_of(acc).shape == (1, 128, 32)
    assert acc not in plan.register_rows and acc in plan.rescale_max
    assert sums in plan.register_rows and sums not in plan.rescale_max
