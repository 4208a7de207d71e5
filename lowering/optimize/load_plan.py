"""How pipelined tiles reach shared memory: the load strategies and the plan facts each owns.

- `cp-async` (sm_80 on): every thread copies 16-byte chunks with cp.async, `stages`
  iterations ahead, waiting on commit groups and one barrier per iteration.
- `bulk-rows` (sm_90): the TMA unit copies each tile row with one cp.async.bulk, completion
  counted on an mbarrier per stage. Correct but 2-5x slower than cp.async for rows of
  64-128 bytes (benchmarks/RESULTS.md, run 8).
- `tma` (sm_90): one cp.async.bulk.tensor.2d per tensor-map box, a 128-byte-wide column
  panel of a tile (of at most 256 rows: a deeper tile takes several boxes a panel), into
  swizzled shared memory (`Tile.swizzle`). A tile narrower than one panel (48 f16 columns,
  the width that spreads a weight over 128 blocks) is copied whole-panel: the box reads
  the next tile's first columns too, which the kernel never reads (from L2: the block
  beside streams them; zeros past the tensor's edge), where that copies at most
  `MAX_OVERFETCH` times the bytes read. One producer warp beside
  the block's warps issues every copy, and per stage a `full` mbarrier (the copies landed)
  and an `empty` one (every consumer thread is done with the stage) order the ring. The
  kernel takes one tensor map per streamed tile as a `__grid_constant__` parameter; the
  runtime encodes them (`TensorMapPlan`, in the launch descriptor).

A strategy that the tiles or the target cannot run falls back to cp-async, kernel by kernel.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from mirage.dialects.hardware import Target
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.optimize.layout import SWIZZLE_ATOM, SWIZZLE_BYTES, Tile, align_up

CP_ASYNC, BULK_ROWS, TMA = "cp-async", "bulk-rows", "tma"
LOADS = (CP_ASYNC, BULK_ROWS, TMA)

TMA_MAX_STAGES = 16
"""Deepest ring a producer warp keeps in flight (shared memory permitting)."""
MAX_BOX = 256
"""Largest extent of a tensor-map box along any dim."""
PRODUCER_THREADS = 32
SWIZZLE_ATOM_ROWS = SWIZZLE_ATOM // SWIZZLE_BYTES
MAX_OVERFETCH = 1.5
"""Most bytes a tile's whole-panel boxes may copy per byte the kernel reads (a narrow tile
reads its neighbour's first columns). Measured on one NVIDIA H100 (benchmarks/RESULTS.md,
2026-12-06): 48 of 64 columns copied by boxes beat cp.async by 9-13 %, 32 of 64 lost 2 %."""
TMA_DTYPES = {"f16": "f16", "bf16": "bf16", "f32": "f32"}


def check_loads(loads: str) -> str:
    if loads not in LOADS:
        raise ValueError(f"loads must be one of {', '.join(LOADS)}, got '{loads}'")
    return loads


@dataclass(frozen=True)
class TensorMapPlan:
    """One 2-D tensor map: what `cuTensorMapEncodeTiled` is given for a streamed tile."""

    value: int
    """The input iterator's tile."""
    param: int
    """The kernel parameter (a graph argument) holding the tensor's address."""
    dims: tuple[int, int]
    """Elements, innermost first."""
    row_stride: int
    """Bytes from one row of the tensor to the next."""
    box: tuple[int, int]
    """Elements of one copy, innermost first: a 128-byte panel row, by `box_rows` of the
    tile's rows."""
    dtype: str
    swizzle: int = SWIZZLE_BYTES


def box_rows(rows: int) -> int | None:
    """Rows of each box of a tile of `rows` rows: all of them up to `MAX_BOX`, else equal
    parts of whole swizzle atoms (8 rows); None where no such cut exists."""
    if rows <= MAX_BOX:
        return rows
    parts = math.ceil(rows / MAX_BOX)
    while parts <= rows // SWIZZLE_ATOM_ROWS:
        if rows % parts == 0 and (rows // parts) % SWIZZLE_ATOM_ROWS == 0:
            return rows // parts
        parts += 1
    return None


def _tma_fits(tile: Tile, full: tuple[int, ...], threads: int) -> bool:
    if tile.dtype not in TMA_DTYPES or len(full) < 2 or len(tile.shape) != len(full):
        return False
    if tile.transposed or any(n != 1 for n in tile.shape[:-2]):
        return False  # a batched tile: one matrix of a tensor its map sees as rows
    if threads % 32 or threads + PRODUCER_THREADS > 1024:
        return False
    rows, cols = tile.shape[-2:]
    full = full[-2:]
    esize = tile.esize
    row_bytes = cols * esize
    # whole panels, or one panel that a narrow tile fills most of
    narrow = row_bytes < SWIZZLE_BYTES and MAX_OVERFETCH * row_bytes >= SWIZZLE_BYTES
    return (
        (row_bytes % SWIZZLE_BYTES == 0 or (narrow and row_bytes % 16 == 0))
        and box_rows(rows) is not None
        and (full[-1] * esize) % 16 == 0
        and full[0] % rows == 0
        and full[1] % cols == 0
    )


def _rows_fit(tile: Tile, full: tuple[int, ...]) -> bool:
    """Rows that are whole 16-byte runs in both memories (bulk-rows)."""
    if (tile.shape[-1] * tile.esize) % 16 or (full[-1] * tile.esize) % 16:
        return False
    return not (len(tile.shape) >= 2 and (tile.pitch * tile.esize) % 16)


def choose_loads(
    asked: str,
    explicit: bool,
    target: Target,
    streamed: list[int],
    loops: int,
    threads: int,
    tiles: dict[int, Tile],
    source_shape: Callable[[int], tuple[int, ...]],
    viewed: Callable[[int], bool],
) -> str:
    """The strategy the kernel runs: `asked` where the target and every streamed tile
    allow it, else cp.async. Tensor maps of batched tiles (attention's keys and values)
    only where `explicit`ly asked, not as the target's default: the default is what was
    measured faster, the weight-streaming kernels' 2-D tiles."""
    check_loads(asked)
    if asked == CP_ASYNC or not streamed or loops < 2:
        return CP_ASYNC
    if any(viewed(v) for v in streamed):
        # the rows of a strided or permuted view are not the rows of the tensor, which
        # both bulk copies and tensor maps take
        return CP_ASYNC
    if asked == BULK_ROWS:
        ok = target.bulk_copies and all(_rows_fit(tiles[v], source_shape(v)) for v in streamed)
    else:
        ok = target.tensor_maps and all(
            _tma_fits(tiles[v], source_shape(v), threads) and (explicit or len(tiles[v].shape) == 2)
            for v in streamed
        )
    return asked if ok else CP_ASYNC


def swizzle_streamed(loads: str, streamed: list[int], tiles: dict[int, Tile]) -> None:
    """Tensor-map copies write swizzled panels: the streamed tiles take that layout."""
    if loads != TMA:
        return
    for v in streamed:
        tiles[v].set_swizzle(SWIZZLE_BYTES)


def mbarrier_bytes(loads: str, stages: int) -> int:
    """bulk-rows: one mbarrier per stage; tma: a full and an empty one per stage."""
    per_stage = {CP_ASYNC: 0, BULK_ROWS: 8, TMA: 16}[loads]
    return align_up(per_stage * stages) if per_stage else 0


def alignment_slack(tiles: dict[int, Tile]) -> int:
    """Bytes asked beyond the plan's so that the kernel can align its shared-memory base
    to a swizzle atom (the dynamic shared window is only guaranteed 16-byte aligned): the
    swizzle is computed from address bits, by the TMA unit and by wgmma alike, so a
    swizzled tile must sit at an atom-aligned address, whoever fills it."""
    return SWIZZLE_ATOM if any(t.swizzle for t in tiles.values()) else 0


def launch_threads(loads: str, threads: int) -> int:
    """The block's threads: the graph's, plus the producer warp of `tma`."""
    return threads + PRODUCER_THREADS if loads == TMA else threads


def tensor_maps(
    graph: Graph, streamed: list[int], tiles: dict[int, Tile], source: Callable[[int], int]
) -> list[TensorMapPlan]:
    """One tensor map per streamed tile, in `streamed` order (the kernel's parameters)."""
    out: list[TensorMapPlan] = []
    for v in streamed:
        t = tiles[v]
        rows = box_rows(t.shape[-2])
        assert rows is not None, "tma is chosen only for tiles that cut into boxes"
        src = source(v)
        full = graph.type_of(src).shape
        out.append(
            TensorMapPlan(
                value=v,
                param=src,
                dims=(full[-1], math.prod(full[:-1])),
                row_stride=full[-1] * t.esize,
                box=(t.panel_elems, rows),
                dtype=t.dtype,
            )
        )
    return out


def stage_bytes(streamed: list[int], tiles: dict[int, Tile]) -> int:
    """Bytes the TMA unit writes per stage: every box of every streamed tile (what the full
    mbarrier expects; boxes count whole even where they leave the tensor)."""
    return sum(tiles[v].panels * tiles[v].rows * tiles[v].swizzle for v in streamed)


def depth_candidates(loads: str, loops: int, per_iteration: int, in_flight: int, cap: int) -> int:
    """The deepest ring worth trying: cp.async and bulk-rows keep `in_flight` bytes in
    flight (Run 9: deeper does not help them), or, where the whole loop's tiles are
    fewer bytes than that, every iteration at once (a short loop over small tiles, as a
    split-KV combine's, then waits for memory once instead of once per `cap` steps); the
    producer warp of tma as many as fit."""
    if loads == TMA or loops * per_iteration <= in_flight:
        return max(2, min(loops, TMA_MAX_STAGES))
    want = 1 + math.ceil(in_flight / max(per_iteration, 1))
    return max(2, min(loops, cap, want))


__all__ = [
    "BULK_ROWS",
    "CP_ASYNC",
    "LOADS",
    "TMA",
    "TensorMapPlan",
    "alignment_slack",
    "box_rows",
    "check_loads",
    "choose_loads",
    "depth_candidates",
    "launch_threads",
    "mbarrier_bytes",
    "stage_bytes",
    "swizzle_streamed",
    "tensor_maps",
]
