"""PTX for every fixture, assembled by ptxas for sm_80 and sm_90a; the compiled program's
buffers and launches; the elementwise table covers every op kind."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mirage.dialects.hardware import target_for
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.lowering.optimize import plan as plan_module
from mirage.lowering.optimize.matmul_plan import MMA_SYNC_CHAINS, mma_sync_k_chains
from mirage.lowering.optimize.plan import scratch_set_bytes
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.program import CompiledProgram
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from mirage.lowering.to_llvm.scalar import SCALAR_OPS
from tests.conftest import FIXTURES, get_func, parse_module, plan_function

DATA = Path(__file__).parent / "data"
needs_ptxas = pytest.mark.skipif(
    find_ptxas() is None, reason="no ptxas (pip install nvidia-cuda-nvcc)"
)


def test_scalar_table_covers_every_elementwise_kind() -> None:
    assert set(SCALAR_OPS) == set(ELEMENTWISE_KINDS)


def _compile(path: Path, func: str, arch: str, loads: str | None = None) -> CompiledProgram:
    return compile_function(get_func(parse_module(path.read_text()), func), arch, loads=loads)


def _assembles(program: CompiledProgram) -> str:
    report = resource_report(program.ptx, program.arch)
    assert "error" not in report.lower(), report
    return report


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_small_fixtures_assemble(arch: str) -> None:
    for name in ("rmsnorm_linear_small", "attention_small"):
        for func in ("program", "ugraph"):
            program = _compile(FIXTURES / f"{name}.mlir", func, arch)
            assert f".target {arch}" in program.ptx
            _assembles(program)


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["norm_chain", "row_max_sum"])
def test_reductions_across_warps_assemble(func: str, arch: str) -> None:
    program = _compile(DATA / "wide_rows.mlir", func, arch)
    _assembles(program)
    # totals go through shared memory between two barriers
    assert program.ptx.count("bar.sync") >= 2
    assert "st.shared.b32" in program.ptx


@needs_ptxas
@pytest.mark.parametrize(
    ("func", "arch", "barriers"),
    [
        # the copies' wait, each rms_norm's partials published, the two phases after them:
        # 7 where each reduction also waited for its scratch to be read before going on
        ("norm_chain", "sm_90a", 5),
        ("norm_chain", "sm_80", 5),
        # the copies' wait, the max's and the sum's partials, the phase after them: 6 so
        ("row_max_sum", "sm_80", 4),
    ],
)
def test_a_reduction_across_warps_waits_at_one_barrier(func: str, arch: str, barriers: int) -> None:
    # its partials alternate between two scratch sets: the next reduction writes the other
    program = _compile(DATA / "wide_rows.mlir", func, arch)
    _assembles(program)
    assert program.ptx.count("bar.sync") == barriers


@needs_ptxas
def test_a_looped_reduction_alternates_its_scratch_sets() -> None:
    # one reduction met again in each of the loop's 4 steps: its warps' partials go to
    # the one set, then the other, so that no barrier need wait for the last step's reads
    program = _compile(DATA / "wide_rows.mlir", "looped_row_sums", "sm_80")
    _assembles(program)
    plan = plan_function(DATA / "wide_rows.mlir", "looped_row_sums", target_for("sm_80"))
    first, second = plan.scratch, plan.scratch + scratch_set_bytes(plan.threads)
    stored = [
        int(offset)
        for offset in re.findall(r"st\.shared\.b32\s+\[%r\d+\+(\d+)\]", program.ptx)
        if first <= int(offset) < second + scratch_set_bytes(plan.threads)
    ]
    assert stored == [first, second, first, second]


@needs_ptxas
@pytest.mark.slow
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("name", ["rmsnorm_linear", "attention"])
def test_fixtures_assemble_with_the_instructions_they_need(name: str, arch: str) -> None:
    # cp.async on sm_90a too (its default loads by tensor maps: tests/lowering/test_tma.py)
    for func in ("program", "ugraph"):
        program = _compile(FIXTURES / f"{name}.mlir", func, arch, loads="cp-async")
        report = _assembles(program)
        assert " 0 bytes spill stores" in report or name == "attention"
        ptx = program.ptx
        for needed in ("cp.async.cg.shared.global", "bar.sync", "mma.sync.aligned.m16n8k16"):
            assert needed in ptx, (func, needed)
        assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in ptx


def test_program_describes_buffers_and_launches() -> None:
    path = FIXTURES / "attention_small.mlir"
    func = get_func(parse_module(path.read_text()), "ugraph")
    program = compile_function(func, "sm_90a")  # two launches unless clusters are asked for
    assert [b.shape for b in program.inputs] == [(2, 8, 4), (2, 4, 32), (2, 32, 4)]
    assert [b.shape for b in program.outputs] == [(2, 8, 4)]
    # the split-KV partial sums are intermediates between the two kernels
    assert [b.dtype for b in program.intermediates] == ["f32", "f32"]
    k1, k2 = program.launches
    assert k1.grid == (2, 2, 1) and k1.block == (128, 1, 1)
    assert k1.args == (0, 1, 2, 4, 5) and k2.args == (4, 5, 3)
    assert k1.cluster == (1, 1, 1) and k2.cluster == (1, 1, 1)
    assert f".entry {k1.name}(" in program.ptx and f".entry {k2.name}(" in program.ptx
    assert CompiledProgram.from_json(program.to_json()) == program


def test_split_kv_pair_runs_as_one_launch_of_clusters() -> None:
    # the combine runs in the blocks of the first kernel: clusters of the 2 blocks along y
    # that hold one batch slice's key halves, partial sums read from the peer's tiles
    func = get_func(parse_module((FIXTURES / "attention_small.mlir").read_text()), "ugraph")
    program = compile_function(func, "sm_90a", clusters=True)
    (launch,) = program.launches
    assert launch.grid == (2, 2, 1) and launch.cluster == (1, 2, 1)
    assert launch.args == (0, 1, 2, 4, 5, 4, 5, 3)
    ptx = program.ptx
    assert ".reqnctapercluster 1, 2, 1" in ptx
    assert ptx.count("barrier.cluster.arrive") == 2 and ptx.count("barrier.cluster.wait") == 2
    assert "mapa.shared::cluster.u32" in ptx and "ld.shared::cluster" in ptx
    assert CompiledProgram.from_json(program.to_json()) == program


@pytest.mark.parametrize(
    ("arch", "enabled", "dependent"),
    [("sm_90a", True, True), ("sm_80", True, False), ("sm_90a", False, False)],
)
def test_launches_after_the_first_can_be_dependent_on_sm_90(
    arch: str, enabled: bool, dependent: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Programmatic dependent launch (off by default, `DEPENDENT_LAUNCHES`): on sm_90 each
    graph kernel first waits for the launch before it (griddepcontrol.wait, before any
    load); the descriptor marks every launch but the first dependent."""
    monkeypatch.setattr(plan_module, "DEPENDENT_LAUNCHES", enabled)
    func = get_func(parse_module((FIXTURES / "attention_small.mlir").read_text()), "ugraph")
    program = compile_function(func, arch)
    first, second = program.launches
    assert not first.dependent and second.dependent == dependent
    for launch in program.launches:
        body = program.ptx.split(f".entry {launch.name}(", 1)[1].split("\n}", 1)[0]
        if dependent:
            wait = body.index("griddepcontrol.wait;")
            assert all(wait < m.start() for m in re.finditer(r"ld\.global|cp\.async", body))
        else:
            assert "griddepcontrol" not in body
    assert CompiledProgram.from_json(program.to_json()) == program


def test_layout_ops_get_kernels_or_aliases() -> None:
    program = _compile(DATA / "ops.mlir", "layout", "sm_90a")
    names = [launch.name for launch in program.launches]
    # transpose and constant have kernels of their own; the reshapes none
    assert len(names) == 6
    exp = program.launches[1]
    assert exp.args[0] == 0  # the exp reads the input through its reshape


@needs_ptxas
def test_cubin_target_writes_a_loadable_descriptor(tmp_path: Path) -> None:
    out = tmp_path / "prog.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mirage.tools.mirage_opt",
            str(FIXTURES / "rmsnorm_linear_small.mlir"),
            "-t",
            "cubin{arch=sm_80 function=ugraph}",
            "-o",
            str(out),
        ],
        check=True,
    )
    program = CompiledProgram.from_json(out.read_text())
    assert program.arch == "sm_80" and program.cubin and program.cubin[:4] == b"\x7fELF"
    assert json.loads(out.read_text())["num_inputs"] == 2


@needs_ptxas
def test_bulk_copies_on_request() -> None:
    program = _compile(FIXTURES / "rmsnorm_linear_small.mlir", "ugraph", "sm_90a", "bulk-rows")
    ptx = program.ptx
    for needed in (
        "mbarrier.init.shared::cta.b64",
        "mbarrier.arrive.expect_tx.shared::cta.b64",
        "mbarrier.try_wait.parity.shared::cta.b64",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
        "fence.proxy.async.shared::cta",
    ):
        assert needed in ptx, needed
    _assembles(program)
    # sm_80 has no bulk copies: the same request gives cp.async there
    assert (
        "cp.async.bulk"
        not in _compile(FIXTURES / "rmsnorm_linear_small.mlir", "ugraph", "sm_80", "bulk-rows").ptx
    )


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_hoisted_block_ops_assemble(arch: str) -> None:
    program = _compile(DATA / "invariant.mlir", "norm_then_matmul", arch)
    _assembles(program)
    assert "mma.sync.aligned.m16n8k16" in program.ptx


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["transposed_weight", "head_split_attention"])
def test_strided_views_assemble(func: str, arch: str) -> None:
    program = _compile(DATA / "views.mlir", func, arch)
    _assembles(program)
    # the transposed operand's tile is gathered element by element, the others in 16 bytes
    assert "cp.async.ca.shared.global" in program.ptx
    assert "cp.async.cg.shared.global" in program.ptx


@needs_ptxas
@pytest.mark.parametrize(
    ("arch", "loads"),
    [("sm_80", None), ("sm_90a", None), ("sm_90a", "bulk-rows"), ("sm_90a", "tma")],
)
def test_an_epilogue_operand_is_copied_after_the_loop(arch: str, loads: str | None) -> None:
    program = _compile(DATA / "epilogue.mlir", "linear_bias", arch, loads)
    _assembles(program)
    ptx = program.ptx
    # the bias tile (1x32 f16: four 16-byte copies) is copied once, after the last mma
    last_mma = ptx.rindex("mma.sync.aligned.m16n8k16")
    after = ptx[last_mma:]
    assert after.count("cp.async.cg.shared.global") == 1
    assert after.index("cp.async.cg.shared.global") < after.index("st.global")


@needs_ptxas
@pytest.mark.parametrize(
    ("func", "matmuls", "absent"),
    [
        # f16 pairs of columns: one 32-bit store each, never 16 bits alone
        ("lora_ragged", "auto", "st.global.b16"),
        ("lora_ragged", "wgmma", "st.global.b16"),
        ("biased_rows64", "wgmma", "st.global.b16"),
        ("biased_rows64", "auto", "st.global.b16"),
        # a ragged n8 tile: each f32 alone, behind its column's guard
        ("scaled_narrow", "auto", "st.global.v2"),
    ],
)
def test_a_block_output_is_stored_from_the_matmul_registers(
    func: str, matmuls: str, absent: str
) -> None:
    program = compile_function(
        get_func(parse_module((DATA / "direct_outputs.mlir").read_text()), func),
        "sm_90a",
        matmuls=matmuls,
    )
    _assembles(program)
    ptx = program.ptx
    last = max(ptx.rfind("mma.sync.aligned"), ptx.rfind("wgmma.wait_group"))
    after = ptx[last:]
    # after the last product: no barrier, nothing written to shared memory, the stores
    assert "bar.sync" not in after and "st.shared" not in after
    assert "st.global.b32" in after and absent not in after


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["nn_linear_bias", "gpt2_fc"])
def test_searched_linear_bias_kernels_assemble(func: str, arch: str) -> None:
    program = _compile(DATA / "epilogue.mlir", func, arch)
    _assembles(program)
    # after the last mma: the loop's copies waited for, a barrier, the bias's copy (a
    # 16-byte cp.async), waited for too, then the output stored
    ptx = program.ptx
    after = ptx[ptx.rindex("mma.sync.aligned.m16n8k16") :]
    steps = r"cp\.async\.wait_group\s+0;\s+bar\.sync.*?cp\.async\.cg\.shared\.global.*?"
    steps += r"cp\.async\.wait_group\s+0;.*?st\.global"
    assert re.search(steps, after, re.DOTALL)


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["swiglu_chunk", "rotate_half"])
def test_slices_assemble(func: str, arch: str) -> None:
    program = _compile(DATA / "slices.mlir", func, arch)
    _assembles(program)
    # each slice is a copy kernel of its own, reading the input into an intermediate
    first, second, *_ = program.launches
    assert len(program.launches) == 4
    assert first.args == (0, 2) and second.args == (0, 3)
    (x,) = program.inputs
    half = (*x.shape[:-1], x.shape[-1] // 2)
    assert [b.shape for b in program.intermediates][:2] == [half, half]
    for launch in program.launches:
        assert f".entry {launch.name}(" in program.ptx


@needs_ptxas
def test_a_window_view_assembles() -> None:
    # found for an H200: its tiles need more shared memory than sm_80 has
    arch = "sm_90a"
    program = _compile(DATA / "slices.mlir", "swiglu_windows", arch)
    _assembles(program)
    copy, _, fused = program.launches
    # the fused kernel reads the fused weight (input 1) itself, not a copy of its window
    assert 1 in fused.args and copy.args[0] == 1
    assert "cp.async.cg.shared.global" in program.ptx


@pytest.mark.parametrize(
    ("tiles", "steps", "chains"),
    [(1, 16, 4), (1, 6, 3), (2, 16, 2), (4, 8, 1), (1, 1, 1), (1, 2, 2), (3, 9, 1), (1, 7, 1)],
)
def test_k_chains_fill_the_warp_and_divide_its_steps(tiles: int, steps: int, chains: int) -> None:
    assert mma_sync_k_chains(tiles, steps) == chains


def test_a_warp_keeps_independent_accumulations_along_a_long_k() -> None:
    # one m16n8 tile a warp over 16 k steps: MMA_SYNC_CHAINS accumulations start from zero
    # (one would make every mma.sync wait for the one before it)
    ptx = _compile(DATA / "long_k.mlir", "long_k", "sm_90a").ptx
    assert ptx.count("mma.sync.aligned.m16n8k16") == 16
    assert len(re.findall(r"\{(%r\d+), \1, \1, \1\};", ptx)) == MMA_SYNC_CHAINS


@needs_ptxas
@pytest.mark.parametrize("func", ["long_k", "long_k_deep", "long_k_looped"])
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_long_k_matmuls_assemble(func: str, arch: str) -> None:
    _assembles(_compile(DATA / "long_k.mlir", func, arch))


def test_a_kernel_of_elementwise_ops_waits_once() -> None:
    # its loop runs once and has no task (the output computes the chain): the barrier
    # after the copies is the only one
    ptx = _compile(DATA / "immediates.mlir", "kernel_immediates", "sm_80").ptx
    start = ptx.index(".entry kernel_immediates_k0(")
    first = ptx[start : ptx.index(".entry kernel_immediates_k1(")]
    assert first.count("bar.sync") == 1
