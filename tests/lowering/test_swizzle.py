"""Swizzled shared-memory tiles: the offsets the readers and copies compute for each
swizzle width, the bank groups they touch, and the planner's choice of swizzle over
padding for tiles of short rows that ldmatrix reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.ir import Block

from mirage.dialects.hardware import target_for
from mirage.lowering.optimize.layout import Tile, row_pitch
from mirage.lowering.optimize.plan import Plan
from mirage.lowering.to_llvm.llvm_builder import Builder
from mirage.lowering.to_llvm.tile_loads import swizzled_offset
from tests.conftest import plan_function

DATA = Path(__file__).parent / "data"


def _reference_offset(t: Tile, row: int, col: int) -> int:
    """The address-bit form the TMA unit and wgmma use: rows of S bytes one after the
    other, panels of S-byte columns one after the other, and within a row the 16-byte
    chunk index XOR bits 7 .. 7 + log2(S / 16) of the row's offset."""
    s = t.swizzle
    panel, within = divmod(col * t.esize, s)
    chunk, rest = divmod(within, 16)
    line = row * s
    return panel * t.panel_bytes + line + ((chunk ^ (line >> 7) & (s // 16 - 1)) * 16) + rest


def _offset(t: Tile, row: int, col: int) -> int:
    """The emitter's swizzled offset, folded to a constant for constant coordinates."""
    off = swizzled_offset(Builder(Block()), t, row, col)
    assert isinstance(off, int)
    return off


def _bank_groups(offsets: list[int]) -> list[int]:
    """The 16-byte bank groups (4 banks each, 8 in all) that 16-byte accesses touch."""
    return [(off // 16) % 8 for off in offsets]


SHAPES = [
    ((64, 64), "f16", 128),
    ((16, 128), "bf16", 128),
    ((2, 64), "f16", 128),
    ((8, 64), "f32", 128),
    ((256, 32), "f16", 64),
    ((16, 32), "bf16", 64),
    ((32, 48), "f16", 64),
    ((128, 16), "f16", 32),
    ((64, 8), "f32", 32),
]


@pytest.mark.parametrize(("shape", "dtype", "swizzle"), SHAPES)
def test_swizzled_offsets(shape: tuple[int, int], dtype: str, swizzle: int) -> None:
    t = Tile(shape, dtype, swizzle // 4 if dtype == "f32" else swizzle // 2, swizzle=swizzle)
    seen: set[int] = set()
    for row in range(shape[0]):
        for col in range(shape[1]):
            off = _offset(t, row, col)
            assert off == _reference_offset(t, row, col), (row, col)
            seen.add(off // t.esize)
    # one element per slot, all inside one stage of the tile
    assert len(seen) == shape[0] * shape[1]
    assert max(seen) * t.esize < t.copy_bytes
    assert t.copy_bytes % 1024 == 0


@pytest.mark.parametrize("swizzle", [32, 64, 128])
def test_swizzle_moves_chunks_not_bytes_within_them(swizzle: int) -> None:
    t = Tile((64, swizzle // 2), "f16", swizzle // 2, swizzle=swizzle)
    for row in (3, 13, 38):
        for c in range(swizzle // 16):
            base = _offset(t, row, 8 * c)
            assert base // swizzle == row  # the chunk stays in its row
            assert [_offset(t, row, 8 * c + e) for e in range(8)] == [
                base + 2 * e for e in range(8)
            ]


@pytest.mark.parametrize("swizzle", [32, 64, 128])
def test_ldmatrix_rows_and_copies_touch_distinct_bank_groups(swizzle: int) -> None:
    chunks = swizzle // 16
    t = Tile((64, swizzle // 2), "f16", swizzle // 2, swizzle=swizzle)
    for first in range(0, 64, 8):
        # ldmatrix: 8 consecutive rows, one chunk column
        for c in range(chunks):
            offs = [_offset(t, first + r, 8 * c) for r in range(8)]
            assert sorted(_bank_groups(offs)) == list(range(8))
    # 16-byte copies in row-major chunk order, 8 threads at a time (one wavefront)
    order = [(i // chunks, i % chunks) for i in range(64 * chunks)]
    for q in range(0, len(order), 8):
        offs = [_offset(t, r, 8 * c) for r, c in order[q : q + 8]]
        assert sorted(_bank_groups(offs)) == list(range(8))


@pytest.mark.parametrize("inner", [16, 32])
def test_padded_short_rows_split_the_copies_wavefronts(inner: int) -> None:
    """What the swizzle replaces: at the odd pitch ldmatrix needs, 8 threads' 16-byte
    stores over 2 rows of 64 bytes (4 of 32) meet in one bank group."""
    pitch = row_pitch(inner, "f16", ldmatrix=True)
    chunks = inner * 2 // 16
    offs = [(i // chunks) * pitch * 2 + (i % chunks) * 16 for i in range(8)]
    assert len(set(_bank_groups(offs))) < 8


def _plan(func: str, arch: str, loads: str | None = None) -> Plan:
    return plan_function(
        DATA / "direct_outputs.mlir", func, target_for(arch), loads=loads, matmuls="mma-sync"
    )


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_planner_swizzles_short_rows_that_ldmatrix_reads(arch: str) -> None:
    p = _plan("lora_ragged", arch, loads="cp-async")
    by_shape = {t.shape: t for t in p.tiles.values()}
    # A's 128 rows of 32 bytes: swizzled at 32, no padding
    a = by_shape[(128, 16)]
    assert (a.swizzle, a.pitch, a.offset % 1024) == (32, 16, 0)
    assert a.copy_bytes == 128 * 32
    # W's rows of 80 bytes: no swizzle that width, padded to an odd number of chunks
    w = by_shape[(128, 40)]
    assert w.swizzle == 0 and (w.pitch * 2 // 16) % 2 == 1
    # x's rows of 256 bytes stay padded: their copies cover one row per 8 threads
    x = by_shape[(20, 128)]
    assert x.swizzle == 0 and x.pitch == 136
    # B's 16 rows of 80 bytes: padded
    assert by_shape[(16, 40)].swizzle == 0
    # the shared window asks for the atom alignment's slack
    assert p.smem_bytes >= max(t.offset + t.total_bytes for t in p.tiles.values()) + 1024


def test_short_rows_of_less_than_an_atom_stay_padded() -> None:
    # (x A)'s 20 x 16 product: 20 rows of 32 bytes are less than one 1024-byte atom
    p = _plan("lora_ragged", "sm_80", loads="cp-async")
    mid = [t for t in p.tiles.values() if t.shape == (20, 16)]
    assert mid and all(t.swizzle == 0 for t in mid)
