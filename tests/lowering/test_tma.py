"""TMA loads on the CPU: the planner's facts (swizzled tiles, stages, fallbacks), the tensor
maps of the launch descriptor, the encoding call's arguments and the launch's parameters
(the driver replaced by fakes)."""

from __future__ import annotations

import ctypes
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from mirage.dialects.hardware import SM_80, SM_90A
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.optimize import load_plan
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.load_plan import PRODUCER_THREADS, box_rows, stage_bytes
from mirage.lowering.optimize.plan import Plan
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime import driver, loader, tensor_maps
from mirage.lowering.runtime.errors import ArgumentError
from mirage.lowering.runtime.program import (
    CompiledProgram,
    KernelLaunch,
    ProgramError,
    TensorMapSpec,
)
from tests.conftest import FIXTURES, get_func, parse_module, plan_function

DATA = Path(__file__).parent / "data"
TMA = DATA / "tma.mlir"
FOUND = Path(__file__).parents[2] / "benchmarks" / "found"


def _plan(path: Path, func: str, loads: str, target: Any = SM_90A) -> Plan:
    return plan_function(path, func, target, loads=loads)


# --- the planner -----------------------------------------------------------------------


def test_tma_plan_facts() -> None:
    p = _plan(TMA, "stream", "tma")
    assert p.loads == "tma"
    assert p.launch_threads == p.threads + PRODUCER_THREADS
    for v in p.streamed:
        t = p.tiles[v]
        assert t.swizzle == 128 and t.offset % 1024 == 0 and t.copy_bytes % 1024 == 0
    # as many stages as the loop and shared memory allow
    assert p.stages == 16
    # full and empty mbarriers after the tiles, then the slack that aligns the base
    assert p.mbarriers % 8 == 0
    assert p.smem_bytes == p.mbarriers + 16 * p.stages + 1024
    assert stage_bytes(p.streamed, p.tiles) == 16 * 128 + 64 * 128


def test_tma_stages_bounded_by_shared_memory() -> None:
    p = _plan(TMA, "stream_wide", "tma")
    per_stage = sum(p.tiles[v].copy_bytes for v in p.streamed)
    assert p.stages < 16
    assert p.smem_bytes <= SM_90A.shared_memory_per_block
    # one more stage would not fit
    assert p.smem_bytes + per_stage + 16 > SM_90A.shared_memory_per_block


def test_tma_falls_back_to_cp_async() -> None:
    # sm_80 has no tensor maps
    assert _plan(TMA, "stream", "tma", SM_80).loads == "cp-async"
    # 128x16 f16 W tiles: a whole-panel box would copy four times the 32 bytes a row read
    p = _plan(TMA, "slim", "tma")
    assert p.loads == "cp-async"
    # no tensor map's panels: the 32-byte rows take cp.async's own swizzle of their width
    assert {t.swizzle for t in p.tiles.values()} <= {0, 32}
    # gated_mlp's 512x32 tiles: twice (slower than cp.async, measured on one NVIDIA H100)
    assert _plan(TMA, "gated_narrow", "tma").loads == "cp-async"
    assert _plan(FOUND / "rmsnorm_linear_b8.mlir", "ugraph", "tma").loads == "tma"


def test_narrow_and_deep_tiles_load_by_whole_panel_boxes() -> None:
    # 64x48 f16 tiles (96-byte rows) of the rmsnorm_linear fixture: one panel each
    p = _plan(FIXTURES / "rmsnorm_linear.mlir", "ugraph", "tma")
    assert p.loads == "tma"
    # 512x48: one 128-byte panel of 512 rows, copied as two boxes of 256 rows
    p = _plan(TMA, "narrow_deep", "tma")
    assert p.loads == "tma"
    x, w = (p.tiles[v] for v in p.streamed)
    assert (w.shape, w.panels, w.copy_bytes) == ((512, 48), 1, 512 * 128)
    assert (x.shape, x.panels) == ((2, 512), 8)
    # the full barrier expects every box whole, the columns past the tile's too
    assert stage_bytes(p.streamed, p.tiles) == 512 * 128 + 8 * 2 * 128
    program = _tma_program("narrow_deep")
    (launch,) = program.launches
    assert [m.box for m in launch.tensor_maps] == [(64, 2), (64, 256)]


def test_batched_tiles_load_by_maps_of_the_tensor_as_rows() -> None:
    # split4_tma's K (2x64x2048) and V (2x2048x64) tiles of one batch each: the maps see
    # the tensors as 128 and 4096 rows
    pairs = DATA / "split_pairs.mlir"
    func = get_func(parse_module(pairs.read_text()), "split4_tma")
    # not by default: cp.async, as measured for attention; where asked, tensor maps
    assert not compile_function(func).launches[0].tensor_maps
    program = compile_function(func, loads="tma")
    launch = program.launches[0]  # the pair's first graph
    assert [(m.dims, m.box) for m in launch.tensor_maps] == [
        ((2048, 128), (64, 64)),
        ((64, 4096), (64, 128)),
    ]
    fits = load_plan._tma_fits  # pyright: ignore[reportPrivateUsage]
    assert fits(Tile((1, 64, 128), "f16", 128), (2, 64, 2048), 128)
    # a tile over two batches is not one box of rows
    assert not fits(Tile((2, 64, 128), "f16", 128), (2, 64, 2048), 128)


@pytest.mark.parametrize(
    ("rows", "box"),
    [(64, 64), (256, 256), (512, 256), (768, 256), (320, 160), (264, 88), (260, None)],
)
def test_box_rows(rows: int, box: int | None) -> None:
    # equal boxes of whole 8-row swizzle atoms, at most 256 rows each
    assert box_rows(rows) == box


def test_unknown_loads_is_an_error() -> None:
    with pytest.raises(ValueError, match="loads must be one of cp-async, bulk-rows, tma"):
        _plan(TMA, "stream", "tensor-maps")


def test_default_is_tma_on_sm_90a_and_cp_async_elsewhere() -> None:
    func = get_func(parse_module(TMA.read_text()), "stream")
    program = compile_function(func, "sm_90a")
    assert "cp.async.bulk.tensor" in program.ptx
    assert program.launches[0].block == (160, 1, 1) and program.launches[0].tensor_maps
    for arch in ("sm_80", "sm_90"):
        program = compile_function(func, arch)
        assert "cp.async.bulk" not in program.ptx
        assert program.launches[0].block == (128, 1, 1) and not program.launches[0].tensor_maps


# --- the descriptor --------------------------------------------------------------------


def _tma_program(func: str = "stream_wide") -> CompiledProgram:
    return compile_function(get_func(parse_module(TMA.read_text()), func), "sm_90a", loads="tma")


def test_descriptor_tensor_maps() -> None:
    program = _tma_program()
    (launch,) = program.launches
    assert launch.block == (160, 1, 1) and launch.args == (0, 1, 2)
    x, w = launch.tensor_maps
    assert x == TensorMapSpec(0, (4096, 16), (8192,), (64, 16), 128, "f16")
    assert w == TensorMapSpec(1, (8192, 4096), (16384,), (64, 64), 128, "f16")
    again = CompiledProgram.from_json(program.to_json())
    assert again.launches == program.launches


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"strides": (8200,)}, "multiples of 16"),
        ({"box": (64, 512)}, "at most 256"),
        ({"box": (128, 16)}, "at most the swizzle of 128"),
        ({"swizzle": 96}, "swizzle must be 0, 32, 64 or 128"),
        ({"strides": ()}, "must have 1 entries"),
    ],
)
def test_tensor_map_spec_checks(change: dict[str, Any], message: str) -> None:
    fields: dict[str, Any] = {
        "buffer": 0,
        "dims": (4096, 16),
        "strides": (8192,),
        "box": (64, 16),
        "swizzle": 128,
        "dtype": "f16",
    }
    fields.update(change)
    with pytest.raises(ProgramError, match=message):
        TensorMapSpec(**fields)


def test_tensor_map_must_fit_its_buffer() -> None:
    program = _tma_program()
    launch = program.launches[0]
    wrong = TensorMapSpec(0, (8192, 4096), (16384,), (64, 64), 128, "f16")
    bad = KernelLaunch(
        launch.name, launch.grid, launch.block, launch.shared_bytes, launch.args, (wrong,)
    )
    with pytest.raises(ProgramError, match="over buffer 0"):
        CompiledProgram(program.ptx, program.arch, program.buffers, 2, 1, (bad,))


def test_tensor_map_over_a_retyped_buffer() -> None:
    # the buffer is 16x1x4096; the kernel, behind a reshape, streams it as 16x4096
    program = _tma_program("stream_retyped")
    (launch,) = program.launches
    x = next(m for m in launch.tensor_maps if m.buffer == 0)
    assert program.buffers[0].shape == (16, 1, 4096) and x.dims == (4096, 16)
    retyped = TensorMapSpec(0, (2048, 32), (4096,), (64, 16), 128, "f16")  # same elements
    ok = KernelLaunch(
        launch.name, launch.grid, launch.block, launch.shared_bytes, launch.args, (retyped,)
    )
    CompiledProgram(program.ptx, program.arch, program.buffers, 2, 1, (ok,))


# --- encoding and launching, on a fake driver -------------------------------------------


class _Enum:
    def __getattr__(self, name: str) -> str:
        return name


class _Map:
    """What cuTensorMapEncodeTiled returns: 128 bytes behind getPtr()."""

    def __init__(self, fill: int) -> None:
        self.buf = (ctypes.c_uint8 * 128)(*([fill] * 128))

    def getPtr(self) -> int:
        return ctypes.addressof(self.buf)


def _u64(v: int) -> tuple[str, int]:
    return ("u64", v)


def _u32(v: int) -> tuple[str, int]:
    return ("u32", v)


def _same(stream: int) -> int:
    return stream


def _fake_driver(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    calls: list[tuple[str, tuple[Any, ...]]] = []
    fake = SimpleNamespace(
        CUtensorMapDataType=_Enum(),
        CUtensorMapInterleave=_Enum(),
        CUtensorMapSwizzle=_Enum(),
        CUtensorMapL2promotion=_Enum(),
        CUtensorMapFloatOOBfill=_Enum(),
        cuuint64_t=_u64,
        cuuint32_t=_u32,
    )
    keep: list[_Map] = []

    def call(name: str, *args: Any) -> Any:
        calls.append((name, args))
        if name == "cuTensorMapEncodeTiled":
            keep.append(_Map(len(keep) + 1))
            return keep[-1]
        return None

    monkeypatch.setattr(driver, "api", lambda: fake)
    monkeypatch.setattr(driver, "call", call)
    return calls


def test_encode_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_driver(monkeypatch)
    spec = TensorMapSpec(1, (8192, 4096), (16384,), (64, 64), 128, "f16")
    data = tensor_maps.encode(spec, 0x7F0000001000)
    assert data == bytes([1] * 128)
    ((name, args),) = calls
    assert name == "cuTensorMapEncodeTiled"
    assert args == (
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
        2,
        0x7F0000001000,
        [("u64", 8192), ("u64", 4096)],
        [("u64", 16384)],
        [("u32", 64), ("u32", 64)],
        [("u32", 1), ("u32", 1)],
        "CU_TENSOR_MAP_INTERLEAVE_NONE",
        "CU_TENSOR_MAP_SWIZZLE_128B",
        "CU_TENSOR_MAP_L2_PROMOTION_L2_256B",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
    )
    bf16 = TensorMapSpec(0, (64, 8), (128,), (64, 8), 128, "bf16")
    assert tensor_maps.encode_arguments(bf16, 256)[0] == "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"


def test_encode_refuses_a_misaligned_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_driver(monkeypatch)
    spec = TensorMapSpec(1, (8192, 4096), (16384,), (64, 64), 128, "f16")
    with pytest.raises(ArgumentError, match="buffer 1 at 0x1008 is not 16-byte aligned"):
        tensor_maps.encode(spec, 0x1008)
    assert not calls


def test_launch_passes_tensor_maps_after_pointers(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_driver(monkeypatch)
    program = _tma_program()
    launch = program.launches[0]
    loaded = object.__new__(loader.LoadedProgram)
    loaded.program = program
    loaded._functions = {launch.name: "fn"}  # pyright: ignore[reportPrivateUsage]
    loaded._scratch = []  # pyright: ignore[reportPrivateUsage]
    loaded._tensor_maps = tensor_maps.TensorMaps()  # pyright: ignore[reportPrivateUsage]
    seen: list[list[bytes]] = []

    def capture(name: str, *args: Any) -> Any:
        if name != "cuLaunchKernel":
            return calls_call(name, *args)
        params = args[9]
        pointers = np.ctypeslib.as_array((ctypes.c_uint64 * 5).from_address(params))
        values = [ctypes.string_at(int(p), 8) for p in pointers[:3]]
        maps = [ctypes.string_at(int(p), 128) for p in pointers[3:]]
        seen.append([*values, *maps])
        assert args[4:7] == (160, 1, 1) and args[7] == launch.shared_bytes
        return None

    calls_call = driver.call
    monkeypatch.setattr(driver, "call", capture)
    monkeypatch.setattr(driver, "as_stream", _same)
    ptrs = [0x10000, 0x20000, 0x30000]
    loaded.launch(ptrs, 0)
    loaded.launch(ptrs, 0)  # the same tensors: nothing encoded again
    loaded.launch([0x40000, 0x20000, 0x30000], 0)
    encoded = [args for name, args in calls if name == "cuTensorMapEncodeTiled"]
    assert [a[2] for a in encoded] == [0x10000, 0x20000, 0x40000]
    first = seen[0]
    assert [int.from_bytes(v, "little") for v in first[:3]] == ptrs
    assert first[3] == bytes([1] * 128) and first[4] == bytes([2] * 128)
    assert seen[1] == first
    assert seen[2][3] == bytes([3] * 128) and seen[2][4] == first[4]


def test_tma_plan_prints_parses_and_decodes() -> None:
    from mirage.lowering.optimize.annotate import PlanUgraph
    from mirage.lowering.optimize.decisions import PLAN, PlanAttr, decode
    from mirage.tools.registry import make_context

    module = parse_module(TMA.read_text())
    PlanUgraph("sm_90a", "tma").apply(make_context(), module)
    reparsed = parse_module(str(module))
    assert str(reparsed) == str(module)
    for name in ("stream", "stream_wide", "running_max"):
        (op,) = [o for o in graph_from_func(get_func(reparsed, name)).ops if o.kind == "graph"]
        attr = op.annotation(PLAN)
        assert isinstance(attr, PlanAttr)
        decoded = decode(op, attr)
        fresh = _plan(TMA, name, "tma")
        assert decoded.loads == "tma" and decoded.tensor_maps() == fresh.tensor_maps()
        for field in Plan.__dataclass_fields__:
            if field != "graph":
                assert getattr(decoded, field) == getattr(fresh, field), field


def test_swizzle_on_a_tile_is_checked() -> None:
    from xdsl.utils.exceptions import VerifyException

    # rows need not fill their last panel (a wgmma operand of 48 columns), but they must be
    # whole 16-byte chunks, and a tile of one dim has no rows
    text = "#mirage.tile<64x48xf16, offset 0, swizzle 128>"
    parse_module(f'"test.op"() {{t = {text}}} : () -> ()').verify()
    for bad in ("64x4xf16", "64xf16"):
        text = f"#mirage.tile<{bad}, offset 0, swizzle 128>"
        with pytest.raises(VerifyException, match=f"rows of whole 16-byte chunks, got {bad}"):
            parse_module(f'"test.op"() {{t = {text}}} : () -> ()').verify()
    # the narrower swizzles of short rows parse and print back
    for width in (32, 64):
        text = f"#mirage.tile<256x{width // 2}xf16, offset 0, swizzle {width}>"
        module = parse_module(f'"test.op"() {{t = {text}}} : () -> ()')
        module.verify()
        assert text in str(module)
    with pytest.raises(VerifyException, match="swizzle must be 0, 32, 64 or 128, got 16"):
        parse_module(
            '"test.op"() {t = #mirage.tile<64x64xf16, offset 0, swizzle 16>} : () -> ()'
        ).verify()


def test_consumer_barriers_are_not_duplicated_by_llvm() -> None:
    """A row reduction streamed by the producer warp combines its partial results under
    `tid == 0` between consumer barriers. LLVM must see those barriers as convergent: as
    inline PTX it tail-duplicated one into both arms of the branch, two different bar.sync
    instructions within one warp, and the block hung on the GPU."""
    import re

    from mirage.lowering.ptx.emit import llvm_ir

    module = parse_module(TMA.read_text())
    ir = llvm_ir(module, "sm_90a")
    # the intrinsic (convergent to LLVM), never inline PTX (which LLVM may duplicate)
    assert 'call void @"llvm.nvvm.barrier.cta.sync.aligned.count"(i32 1, i32 128)' in ir
    assert "bar.sync" not in ir
    ptx = compile_function(get_func(module, "row_max"), "sm_90a").ptx
    assert "cp.async.bulk.tensor" in ptx  # the producer warp's kernel, with consumer barriers
    assert re.search(r"bar\.sync\s+1, 128", ptx)
