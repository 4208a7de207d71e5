"""The wgmma matmul strategy on the CPU: descriptors (encoded, decoded, and the addresses the
canonical layouts of the PTX ISA give for them against the swizzled tiles), the planner's
facts and fallbacks, the matmuls option, the nvvm ops' verifiers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import f32
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from mirage.dialects import nvvm
from mirage.dialects.hardware import SM_80, SM_90, SM_90A
from mirage.dialects.opkinds import CONTRACTIONS
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.optimize import matmul_plan
from mirage.lowering.optimize import plan as plan_module
from mirage.lowering.optimize.decisions import MmaAttr
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.matmul_plan import (
    Descriptor,
    Operands,
    choose,
    decode_descriptor,
    encode_descriptor,
)
from mirage.lowering.optimize.plan import (
    OVERLAP_SPARE_REGISTERS,
    MatmulPlan,
    Plan,
    online_direct,
    overlap_registers,
    plan_graph_op,
)
from mirage.lowering.ptx.emit import ptx
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from mirage.lowering.to_llvm.llvm_builder import Builder
from mirage.lowering.to_llvm.tile_loads import swizzled_offset
from mirage.lowering.to_llvm.wgmma import descriptor_words
from tests.conftest import get_func, parse_module, plan_function

DATA = Path(__file__).parent / "data"
WGMMA = DATA / "wgmma.mlir"
TMA = DATA / "tma.mlir"
ROOT = Path(__file__).parent.parent.parent


def _plan(
    path: Path,
    func: str,
    matmuls: str,
    target: Any = SM_90A,
    loads: str = "cp-async",
    kernel: int = -1,
) -> Plan:
    return plan_function(path, func, target, kernel=kernel, loads=loads, matmuls=matmuls)


# --- descriptors ---------------------------------------------------------------------------


def test_descriptor_bits() -> None:
    d = Descriptor(address=0x1_2340, leading=0x2000, stride=1024)
    bits = encode_descriptor(d)
    assert bits & 0x3FFF == 0x1234  # address >> 4, bits 0-13
    assert (bits >> 16) & 0x3FFF == 0x200  # leading >> 4, bits 16-29
    assert (bits >> 32) & 0x3FFF == 64  # stride >> 4, bits 32-45
    assert (bits >> 49) & 7 == 0
    assert bits >> 62 == 1  # 128-byte swizzle
    assert decode_descriptor(bits) == d


@pytest.mark.parametrize("swizzle", [0, 32, 64, 128])
def test_descriptor_round_trip(swizzle: int) -> None:
    for address in (0, 16, 1024, 0x3FFF0):
        for leading, stride in ((16, 1024), (8192, 1024), (0x3FFF0, 16)):
            d = Descriptor(address, leading, stride, swizzle)
            assert decode_descriptor(encode_descriptor(d)) == d


def test_descriptor_refuses_what_it_cannot_hold() -> None:
    with pytest.raises(ValueError, match="address 8 is not a multiple of 16"):
        encode_descriptor(Descriptor(8, 16, 1024))
    with pytest.raises(ValueError, match="leading 262144 is not a multiple of 16 below 256 KiB"):
        encode_descriptor(Descriptor(0, 1 << 18, 1024))


def test_descriptor_words_are_the_constant_fields() -> None:
    lo, hi = descriptor_words(8192, 1024)
    address = 0x4560
    full = encode_descriptor(Descriptor(address, 8192, 1024))
    assert ((address >> 4) | lo) == full & 0xFFFFFFFF
    assert hi == full >> 32


def _swz(address: int) -> int:
    """The 128-byte swizzle on an address: 16-byte chunk bits 4-6 XOR row bits 7-9."""
    return address ^ (((address >> 7) & 7) << 4)


def _k_major(d: Descriptor, row: int, col: int, esize: int) -> int:
    """Address of element (row, col) of a K-major operand (rows of M or N, k along them)
    under the ISA's canonical 128-byte-swizzled layout: 8 rows of 128 bytes, 8-row groups
    `stride` apart."""
    assert d.swizzle == 128
    return _swz(d.address + (row // 8) * d.stride + (row % 8) * 128 + col * esize)


def _mn_major(d: Descriptor, k: int, n: int, esize: int) -> int:
    """Address of element (k, n) of an MN-major operand (rows of k, n along them): 128-byte
    panels of n `leading` apart, 8-row groups of k `stride` apart."""
    assert d.swizzle == 128
    per = 128 // esize
    offset = (n // per) * d.leading + (k // 8) * d.stride + (k % 8) * 128 + (n % per) * esize
    return _swz(d.address + offset)


def _tile_address(base: int, t: Tile, row: int, col: int) -> int:
    off = swizzled_offset(Builder(Block()), t, row, col)
    assert isinstance(off, int)
    return base + off


@pytest.mark.parametrize(
    ("rows", "cols", "dtype"),
    [(64, 64, "f16"), (128, 192, "bf16"), (64, 96, "f16"), (32, 16, "f16")],
)
def test_b_descriptors_address_the_swizzled_tile(rows: int, cols: int, dtype: str) -> None:
    """B (k rows of n) as the emitter describes it, for every k16 step and instruction:
    the ISA's MN-major addressing lands on the element's place in the tile."""
    t = Tile((rows, cols), dtype, 64, swizzle=128)
    base = 3 * 1024  # a tile on a swizzle atom
    leading, stride = matmul_plan.b_descriptor_fields(t.panel_bytes)
    width = matmul_plan.wgmma_instruction_n(cols, t.esize, resident=True)
    for k0 in range(0, rows, 16):
        for n0 in range(0, cols, width):
            start = _tile_address(base, t, k0, n0)
            d = decode_descriptor(encode_descriptor(Descriptor(start, leading, stride)))
            for k in range(16):
                for n in range(width):
                    want = _tile_address(base, t, k0 + k, n0 + n)
                    assert _mn_major(d, k, n, t.esize) == want, (k0, n0, k, n)


@pytest.mark.parametrize(("rows", "cols"), [(64, 64), (128, 128), (192, 256)])
def test_a_descriptors_address_the_swizzled_tile(rows: int, cols: int) -> None:
    """A (m rows of k) read through descriptors: each m64 tile and k16 step, the start
    advanced within the panel's 128-byte rows, lands on the tile's swizzled elements."""
    t = Tile((rows, cols), "f16", 64, swizzle=128)
    base = 5 * 1024
    leading, stride = matmul_plan.a_descriptor_fields()
    for m0 in range(0, rows, 64):
        for k0 in range(0, cols, 16):
            start = _tile_address(base, t, m0, k0)
            d = Descriptor(start, leading, stride)
            for m in range(64):
                for k in range(16):
                    want = _tile_address(base, t, m0 + m, k0 + k)
                    assert _k_major(d, m, k, t.esize) == want, (m0, k0, m, k)


# --- plans ---------------------------------------------------------------------------------


def test_plan_facts() -> None:
    p = _plan(WGMMA, "plain", "wgmma", loads="tma")
    (mm,) = p.matmuls.values()
    assert mm.strategy == "wgmma" and mm.mode == "regs" and mm.parts == (1, 1, 1, 1)
    # (batches, m64 tiles, n8 tiles, k16 steps) per warpgroup
    assert mm.tiles == (1, 1, 16, 4)
    assert p.tiles[mm.a].swizzle == 128 and p.tiles[mm.b].swizzle == 128
    assert p.async_proxy_reads and not p.remarks
    # two warpgroups, one m64 tile each
    p = _plan(WGMMA, "two_groups", "wgmma")
    (mm,) = p.matmuls.values()
    assert mm.parts == (1, 2, 1, 1) and mm.tiles == (1, 1, 16, 4)
    # a batch of 2 over two warpgroups
    p = _plan(WGMMA, "batched_max", "wgmma")
    (mm,) = p.matmuls.values()
    assert mm.parts == (2, 1, 1, 1) and mm.mode == "accumulate" and mm.combine == "max"


def test_a_from_registers_where_rows_are_fewer_than_64() -> None:
    p = _plan(WGMMA, "skinny", "wgmma")
    (mm,) = p.matmuls.values()
    assert mm.strategy == "wgmma" and mm.m == 24
    assert not matmul_plan.wgmma_a_descriptor(mm.m, mm.k, mm.ab_type)
    # A keeps its padded pitch (ldmatrix reads it); B, 96 columns, is one and a half panels
    assert p.tiles[mm.a].swizzle == 0
    b = p.tiles[mm.b]
    assert b.swizzle == 128 and b.panels == 2 and b.copy_bytes == 2 * 128 * 128
    # its 96-column tiles are not whole boxes: cp.async fills them
    assert _plan(WGMMA, "skinny", "wgmma", loads="tma").loads == "cp-async"


def test_auto_keeps_mma_sync() -> None:
    for matmuls in ("auto", "mma-sync"):
        p = _plan(WGMMA, "plain", matmuls)
        assert [mm.strategy for mm in p.matmuls.values()] == ["mma-sync"]
        assert not p.async_proxy_reads and not p.remarks
    p = _plan(WGMMA, "plain", "fma")
    assert [mm.strategy for mm in p.matmuls.values()] == ["fma"]


@pytest.mark.parametrize(
    ("target", "fallback", "remark"),
    [
        (SM_90, "mma-sync", "wgmma: sm_90 has no wgmma (sm_90a only): runs mma-sync"),
        (SM_80, "mma-sync", "wgmma: sm_80 has no wgmma (sm_90a only): runs mma-sync"),
    ],
)
def test_wgmma_falls_back_on_targets_without_it(target: Any, fallback: str, remark: str) -> None:
    p = _plan(WGMMA, "plain", "wgmma", target)
    assert [mm.strategy for mm in p.matmuls.values()] == [fallback]
    assert p.remarks == [f"matmul op 2: {remark}"]
    assert remark in p.describe()


def test_wgmma_rejects_shapes_it_cannot_take() -> None:
    target = SM_90A
    ok = Operands("f16", "f16", (), 64, 128, 64)
    assert choose("wgmma", target, ok, 128) == ("wgmma", "")
    cases = [
        (Operands("f16", "f16", (), 64, 128, 64), 96, "mma-sync", "not whole warpgroups of 128"),
        (
            Operands("f16", "f16", (), 64, 60, 64),
            128,
            "mma-sync",
            "its n (60) is not a multiple of 8",
        ),
        (Operands("f16", "f16", (), 64, 64, 40), 128, "fma", "its k (40) is not a multiple of 16"),
        (Operands("f32", "f32", (), 64, 64, 64), 128, "fma", "not both f16 or both bf16"),
        (Operands("f16", "bf16", (), 64, 64, 64), 128, "fma", "its operands are f16 and bf16"),
    ]
    for ops, threads, fallback, why in cases:
        strategy, remark = choose("wgmma", target, ops, threads)
        assert strategy == fallback, ops
        assert why in remark and remark.endswith(f"runs {fallback}"), remark


def test_wgmma_falls_back_in_a_planned_graph() -> None:
    """An f32 matmul of tma.mlir-like shape asks wgmma and runs fma, saying so."""
    text = WGMMA.read_text().replace("bf16", "f32")
    f = get_func(parse_module(text), "epilogue")
    graph_op = graph_from_func(f).ops[-1]
    assert graph_op.body is not None
    p = plan_graph_op(graph_op.body, (5, 3, 1), (128, 1, 1), 2, SM_90A, matmuls="wgmma")
    assert [mm.strategy for mm in p.matmuls.values()] == ["fma"]
    assert len(p.remarks) == 1 and "runs fma" in p.remarks[0]


def test_chain_on_wgmma() -> None:
    """matmul -> exp -> matmul with e read by nothing else but its row sums: e stays in
    registers as the second wgmma's A operand, both matmuls split over warpgroups alike."""
    p = _plan(DATA / "chain.mlir", "chain", "wgmma", kernel=0)
    m1, m2 = p.matmuls.values()
    assert (m1.strategy, m2.strategy) == ("wgmma", "wgmma")
    assert m1.chain_next == m2.op and m2.chain_prev == m1.op and m1.rowsum >= 0
    assert m1.parts == m2.parts == (1, 1, 1, 1) and m2.mode == "regs"
    assert m2.a in p.virtual and m2.a not in p.tiles
    # S of more than 128 columns a thread would hold too long: no chain
    assert matmul_plan.wgmma_chain_parts(1, 1, 64, 256, 64, 96) is None
    assert matmul_plan.wgmma_chain_parts(2, 2, 64, 64, 64, 96) == (2, 1, 1, 1)
    assert matmul_plan.wgmma_chain_parts(1, 4, 64, 64, 64, 96) is None  # 4 x 32 registers


@pytest.mark.parametrize(
    ("func", "kernel", "tiles", "direct"),
    [
        ("online_rows64", 0, (1, 1, 8, 2), True),
        ("online_rows48", 0, (1, 1, 4, 2), True),
        ("online_rows128", 0, (1, 2, 8, 3), True),
        ("online_split", 0, (1, 1, 8, 2), True),
        ("online_scaled", 0, (1, 1, 8, 2), False),
        ("online_d128", 0, (1, 1, 8, 8), True),
    ],
)
def test_online_chain_on_wgmma(
    func: str, kernel: int, tiles: tuple[int, ...], direct: bool
) -> None:
    """FlashAttention's loop on wgmma: one chain task, S, m, e and O in registers, the
    warpgroup holding whole rows (its m64 tiles; 48 rows padded to one)."""
    p = _plan(DATA / "online_chain.mlir", func, "wgmma", loads="tma", kernel=kernel)
    m1, m2 = sorted(p.matmuls.values(), key=lambda mm: mm.op)
    assert (m1.strategy, m2.strategy) == ("wgmma", "wgmma")
    assert m1.chain_next == m2.op and m1.rowmax >= 0 and m1.rowsum >= 0
    assert m1.parts == m2.parts == (1, 1, 1, 1) and m1.tiles == tiles
    assert [t.kind for t in p.loop] == ["chain"] and p.barriers == 1
    assert not p.rescale_max and not p.remarks
    assert online_direct(p.graph, m1) == direct
    assert ("rowmax" in [t.kind for t in p.post]) == (func == "online_split")


@pytest.fixture
def overlapping(monkeypatch: pytest.MonkeyPatch) -> None:
    """The overlapped chain loop, off by default (`plan.OVERLAP_CHAINS`), asked for."""
    monkeypatch.setattr(plan_module, "OVERLAP_CHAINS", True)


def test_chain_loops_are_not_overlapped_by_default() -> None:
    p = _plan(DATA / "online_chain.mlir", "online_rows64", "auto", kernel=0)
    assert not any(mm.overlap for mm in p.matmuls.values())


@pytest.mark.parametrize(
    ("func", "loads", "overlap"),
    [
        ("online_rows64", "cp-async", True),  # 4 stages: V of step i, K of i + 1, a copy
        ("online_d128", "cp-async", True),
        ("online_wide", "cp-async", True),  # two warpgroups, one m64 tile each
        ("online_scaled", "cp-async", False),  # e not exp(S - m): O rescaled after e V
        ("online_rows128", "cp-async", False),  # two m64 tiles a warpgroup
        ("online_batched", "cp-async", False),  # on mma.sync
    ],
)
def test_online_chain_loop_is_overlapped_where_it_can_be(
    func: str, loads: str, overlap: bool, overlapping: None
) -> None:
    """FlashAttention-3's overlap within a warpgroup (where `OVERLAP_CHAINS` asks for it):
    a direct-form chain on wgmma, the loop's one task, one row tile a warpgroup, stages
    for two steps' tiles."""
    p = _plan(DATA / "online_chain.mlir", func, "auto", loads=loads, kernel=0)
    head = min(p.matmuls.values(), key=lambda mm: mm.op)
    assert head.overlap == overlap
    assert not any(mm.overlap for mm in p.matmuls.values() if mm is not head)
    if overlap:
        _assert_round_trip(p, head, ", overlap>")


def _assert_round_trip(p: Plan, head: MatmulPlan, ending: str) -> None:
    """The matmul's decision prints with `ending` and parses back to the same plan."""
    attr = MmaAttr.of(head)
    assert str(attr).endswith(ending)
    parsed = parse_module(f'"test.op"() {{m = {attr}}} : () -> ()').body.block.first_op
    assert parsed is not None and parsed.attributes["m"] == attr
    assert attr.matmul(p.graph, head.op, head.result) == head


def test_overlap_needs_stages_for_two_steps_and_registers_for_two_es(overlapping: None) -> None:
    """cp.async copies a later step into a third stage while steps i and i + 1 are read;
    tensor maps need two. Where two steps' e, S and O would not fit a thread's registers
    (head dim 128 beside 128 keys a step, with the producer warp), no overlap."""
    f = get_func(parse_module((ROOT / "benchmarks/found/gqa_b8.mlir").read_text()), "ugraph")
    graph_op = next(op for op in graph_from_func(f).ops if op.kind == "graph")
    assert graph_op.body is not None
    for loads, stages, overlap in (("cp-async", 2, False), ("cp-async", 3, True), ("tma", 2, True)):
        p = plan_graph_op(graph_op.body, (16, 2, 4), (256, 1, 1), 8, SM_90A, stages, loads)
        assert (p.loads, p.stages) == (loads, stages)
        assert min(p.matmuls.values(), key=lambda mm: mm.op).overlap == overlap
    plan = _plan(DATA / "online_chain.mlir", "online_d128", "auto")
    m1 = min(plan.matmuls.values(), key=lambda mm: mm.op)
    m2 = plan.matmuls[m1.chain_next]
    assert overlap_registers(m1, m2) == 4 * 8 + 4 * 8 + 4 * 16 + OVERLAP_SPARE_REGISTERS
    wide = replace(m1, n=128)
    assert overlap_registers(wide, m2) > 65536 // 288 // 8 * 8


@pytest.mark.skipif(find_ptxas() is None, reason="no ptxas (pip install nvidia-cuda-nvcc)")
@pytest.mark.parametrize(
    ("path", "loads"),
    [
        (DATA / "online_chain.mlir", None),
        (ROOT / "benchmarks/found/gqa_b8.mlir", None),
        (ROOT / "benchmarks/found/gqa_b8.mlir", "tma"),
    ],
    ids=["fixtures", "gqa_b8", "gqa_b8_tma"],
)
def test_overlapped_loops_keep_wgmma_asynchronous(
    path: Path, loads: str | None, overlapping: None
) -> None:
    """ptxas serializes wgmma where registers an instruction in flight reads are written
    before its wait (the next e made where the held one lives): the overlapped loops must
    not give it cause, and must not spill."""
    text = ptx(parse_module(path.read_text()), "sm_90a", loads)
    assert "wgmma.wait_group.sync.aligned 1;" in text
    report = resource_report(text, "sm_90a")
    assert "serialized" not in report, report
    assert " 0 bytes spill stores" in report and "bytes spill stores" not in report.replace(
        " 0 bytes spill stores", ""
    ), report


def test_online_chain_on_wgmma_leaves_room_for_the_step_product() -> None:
    """A scaled e keeps the step's e V apart (n2 / 2 registers more a thread): where O and
    that would not fit, the loop keeps its tiles."""
    assert matmul_plan.wgmma_chain_parts(1, 1, 64, 64, 128, 96) == (1, 1, 1, 1)
    assert matmul_plan.wgmma_chain_parts(1, 1, 64, 64, 128, 96 - 64) is None


def test_unknown_matmuls_is_an_error() -> None:
    with pytest.raises(ValueError, match="matmuls must be one of auto, mma-sync, wgmma, fma"):
        _plan(WGMMA, "plain", "tensor-cores")


def test_wgmma_parts() -> None:
    # n split over warpgroups only on panel boundaries (64 f16 columns)
    assert matmul_plan.wgmma_parts(2, 1, 16, 256, 2, None) == (1, 1, 2, 1)
    assert matmul_plan.wgmma_parts(2, 1, 16, 96, 2, None) == (1, 1, 1, 1)
    assert matmul_plan.wgmma_parts(4, 2, 128, 64, 2, None) == (2, 2, 1, 1)
    # an accumulator kept across the loop must fit its registers
    assert matmul_plan.wgmma_parts(1, 1, 128, 256, 2, 96) is None
    assert matmul_plan.wgmma_parts(2, 1, 64, 256, 2, 96) == (1, 1, 2, 1)
    assert matmul_plan.wgmma_instruction_n(384, 2, resident=False) == 128
    assert matmul_plan.wgmma_instruction_n(192, 2, resident=False) == 64
    assert matmul_plan.wgmma_instruction_n(192, 2, resident=True) == 192
    assert matmul_plan.wgmma_instruction_n(512, 2, resident=True) == 256


def test_wgmma_plan_prints_parses_and_decodes() -> None:
    p = _plan(WGMMA, "two_groups", "wgmma", loads="tma")
    (mm,) = p.matmuls.values()
    attr = MmaAttr.of(mm)
    text = str(attr)
    assert text.startswith("#mirage.mma<wgmma.m64nNk16 warpgroups 1x2x1x1 regs")
    parsed = parse_module(f'"test.op"() {{m = {text}}} : () -> ()').body.block.first_op
    assert parsed is not None and parsed.attributes["m"] == attr
    assert attr.matmul(p.graph, mm.op, mm.result) == mm


# --- the nvvm ops --------------------------------------------------------------------------


def _f32s(n: int) -> list[Any]:
    return [create_ssa_value(f32) for _ in range(n)]


def _i32s(n: int) -> list[Any]:
    from xdsl.dialects.builtin import i32

    return [create_ssa_value(i32) for _ in range(n)]


def test_wgmma_op_verifier() -> None:
    nvvm.WgmmaMmaAsyncOp(_f32s(32), _i32s(2), _i32s(2), 64, "f16", True).verify()
    nvvm.WgmmaMmaAsyncOp(_f32s(4), _i32s(4), _i32s(2), 8, "bf16", True).verify()
    bad = [
        ((_f32s(30), _i32s(2), _i32s(2), 60, "f16"), "multiple of 8 from 8 to 256, got 60"),
        ((_f32s(132), _i32s(2), _i32s(2), 264, "f16"), "multiple of 8 from 8 to 256, got 264"),
        ((_f32s(16), _i32s(2), _i32s(2), 64, "f16"), "takes 32 accumulator registers, got 16"),
        ((_f32s(32), _i32s(3), _i32s(2), 64, "f16"), "4 registers or a descriptor of 2 words"),
        ((_f32s(32), _i32s(2), _i32s(1), 64, "f16"), "B is a descriptor of 2 words"),
        ((_f32s(32), _i32s(2), _i32s(2), 64, "f32"), "f16 or bf16, got f32"),
    ]
    for (acc, a, b, n, t), message in bad:
        with pytest.raises(VerifyException, match=message):
            nvvm.WgmmaMmaAsyncOp(acc, a, b, n, t, True).verify()
    nvvm.WgmmaWaitGroupOp(0, _f32s(8)).verify()
    with pytest.raises(VerifyException, match="leaves 0 to 7 groups pending, got 8"):
        nvvm.WgmmaWaitGroupOp(8, _f32s(8)).verify()
    with pytest.raises(VerifyException, match="at least one accumulator"):
        nvvm.WgmmaWaitGroupOp(0, []).verify()


def test_found_ugraphs_run_wgmma() -> None:
    """The benchmark's rmsnorm_linear and gqa μGraphs plan their matmuls on wgmma when
    asked (16 rows: A from registers)."""
    for name in ("rmsnorm_linear_b8", "gqa_b1"):
        f = get_func(
            parse_module((ROOT / "benchmarks" / "found" / f"{name}.mlir").read_text()), "ugraph"
        )
        # the kernel with the matmuls (gqa: the first of its split-KV pair)
        graph_op = next(
            op
            for op in graph_from_func(f).ops
            if op.body is not None and any(b.kind in CONTRACTIONS for b in op.body.ops)
        )
        assert graph_op.body is not None
        p = plan_graph_op(
            graph_op.body,
            graph_op.ints_attr("grid"),
            graph_op.ints_attr("block"),
            graph_op.int_attr("forloop_range"),
            SM_90A,
            matmuls="wgmma",
        )
        assert p.matmuls and all(mm.strategy == "wgmma" for mm in p.matmuls.values()), name
        assert not p.remarks


def test_cost_model_facts() -> None:
    """What the cost model charges a strategy's tensor cores: its tiles' padding (m to 64
    rows for wgmma, to 16 for mma.sync); and the planner's strategies reach it."""
    from mirage.passes.superoptimize.lowered import lowered_facts

    assert matmul_plan.tensor_core_flops("wgmma", 2, 16, 48, 512) == 2 * 2 * 64 * 48 * 512
    assert matmul_plan.tensor_core_flops("mma-sync", 2, 16, 48, 512) == 2 * 2 * 16 * 48 * 512
    assert matmul_plan.tensor_core_flops("mma-sync", 1, 8, 12, 40) == 2 * 16 * 16 * 48
    assert matmul_plan.tensor_core_flops("fma", 1, 64, 64, 64) == 0
    f = get_func(parse_module(WGMMA.read_text()), "plain")
    graph_op = graph_from_func(f).ops[-1]
    facts = lowered_facts(graph_op, SM_90A)
    assert facts is not None and facts.matmuls == ((2, "mma-sync"),)
    assert facts.strategy(2) == "mma-sync" and facts.strategy(0) is None


def test_a_kernel_too_large_for_wgmma_falls_back() -> None:
    """wgmma's operand tiles take whole 128-byte panel rows (skinny's 96-column B: 128 bytes
    a row where mma.sync pads to 208): where 6 stages of them cannot fit, the kernel plans
    as without wgmma, and says why."""
    f = get_func(parse_module(WGMMA.read_text()), "skinny")
    graph_op = graph_from_func(f).ops[-1]
    assert graph_op.body is not None
    p = plan_graph_op(graph_op.body, (16, 1, 1), (128, 1, 1), 6, SM_90A, 6, matmuls="wgmma")
    assert [mm.strategy for mm in p.matmuls.values()] == ["mma-sync"]
    assert len(p.remarks) == 1 and p.remarks[0].startswith("wgmma: block graph needs")
    assert p.remarks[0].endswith(": the kernel plans with matmuls=auto")
    # 4 stages fit on wgmma
    p = plan_graph_op(graph_op.body, (16, 1, 1), (128, 1, 1), 6, SM_90A, 4, matmuls="wgmma")
    assert [mm.strategy for mm in p.matmuls.values()] == ["wgmma"] and not p.remarks


@pytest.fixture
def pingpong(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns for a chain's two warpgroups, off by default (`plan.PINGPONG_CHAINS`), asked
    for."""
    monkeypatch.setattr(plan_module, "PINGPONG_CHAINS", True)


def test_chain_warpgroups_take_no_turns_by_default() -> None:
    p = _plan(DATA / "online_chain.mlir", "online_wide", "auto", kernel=0)
    assert not any(mm.pingpong for mm in p.matmuls.values())


@pytest.mark.parametrize(
    ("func", "turns"),
    [
        ("online_wide", True),  # two warpgroups, one m64 tile each
        ("online_rows64", False),  # one warpgroup
        ("online_rows128", False),  # two m64 tiles a warpgroup
        ("online_batched", False),  # on mma.sync
    ],
)
def test_two_warpgroups_of_a_chain_take_turns_where_asked(
    func: str, turns: bool, pingpong: None
) -> None:
    """FlashAttention-3's ping-pong: the chain's two warpgroups, one m64 row tile each,
    alternate at issuing S; the turn is a decision of the plan, printed and parsed back."""
    p = _plan(DATA / "online_chain.mlir", func, "auto", kernel=0)
    head = min(p.matmuls.values(), key=lambda mm: mm.op)
    assert head.pingpong == turns
    assert not any(mm.pingpong for mm in p.matmuls.values() if mm is not head)
    if turns:
        _assert_round_trip(p, head, ", pingpong>")


@pytest.mark.parametrize("loads", [None, "tma"])
def test_turns_are_named_barriers_each_warpgroup_waits_at_and_passes(
    loads: str | None, pingpong: None
) -> None:
    """Each warpgroup waits at its own barrier (2 or 3) for 256 arrivals and passes the
    turn at the other's: two waits and, with the second warpgroup's first pass, three
    arrivals in the kernel's text, none of them the consumer warps' barrier 1."""
    text = ptx(parse_module((ROOT / "benchmarks/found/gqa_b8.mlir").read_text()), "sm_90a", loads)
    k0 = text[text.index(".entry ugraph_k0") :]
    k0 = k0[: k0.index(".entry ugraph_k1")] if ".entry ugraph_k1" in k0 else k0
    for bid in (2, 3):
        assert k0.count(f"bar.sync \t{bid}, 256;") + k0.count(f"barrier.sync \t{bid}, 256;") == 1
    arrivals = [line for line in k0.splitlines() if "bar.arrive" in line]
    assert len(arrivals) == 3 and all(line.rstrip().endswith(", 256;") for line in arrivals)
    if find_ptxas() is not None:
        report = resource_report(text, "sm_90a")
        assert "bytes spill stores" not in report.replace(" 0 bytes spill stores", ""), report
