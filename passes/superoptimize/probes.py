"""Extents derived from the shapes: which grid extents and loop ranges the search tries
when a grid dim or the loop first cuts a tensor dim, and which ones the variants of a
finished block graph range over."""

from __future__ import annotations

PROBE_TILES = (64, 256)
"""Tile extents tried when a grid dim first cuts a long tensor dim (more than
`SMALL_DIM`): a block-graph structure is searched once per probe, and the grid extents that
do not change what the kernel computes are then varied over all divisors (variants)."""
LOOP_PROBE_TILE = 64
SMALL_DIM = 64
"""A dim up to this long is cut in four (grid or loop)."""
TINY_DIM = 16
"""A dim up to this short is cut into single elements by a grid dim (batch, heads, rows),
and never walked by the loop."""


def divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _tile_below(n: int, want: int) -> int:
    return max(d for d in divisors(n) if d <= max(want, 1))


def _tile_near(n: int, want: int) -> int | None:
    """The largest divisor of n not above `want`, if it is at least a quarter of it."""
    best = max(d for d in divisors(n) if d <= want)
    return best if best * 4 >= want and best < n else None


def grid_probes(n: int) -> list[int]:
    """Grid extents tried for a dim of extent n (what remains of it after other cuts)."""
    if n <= 1:
        return []
    if n <= TINY_DIM:
        return [n]
    if n <= SMALL_DIM:
        return [n // _tile_below(n, n // 4)]
    out: list[int] = []
    for want in PROBE_TILES:
        tile = _tile_near(n, want)
        if tile is not None and n // tile not in out:
            out.append(n // tile)
    return out


SPLIT_TILES = (*PROBE_TILES, 512)
"""Tile extents tried for a grid dim whose blocks leave partial results (split-K, split-KV):
the number of splits trades the first kernel's parallelism against the bytes the kernel
that combines them reads, so one coarser split is tried too (gqa b8's best pair on one
NVIDIA H200 splits 4096 keys 8 ways)."""


def split_probes(n: int) -> list[int]:
    """Grid extents tried for a dim of extent n that a partial-result grid dim cuts."""
    out = grid_probes(n)
    if n > SMALL_DIM:
        for want in SPLIT_TILES[len(PROBE_TILES) :]:
            tile = _tile_near(n, want)
            if tile is not None and n // tile not in out:
                out.append(n // tile)
    return out


def loop_probes(n: int) -> list[int]:
    """Loop ranges tried for a dim of extent n."""
    if n <= TINY_DIM:
        return []
    if n <= SMALL_DIM:
        return [n // _tile_below(n, n // 4)]
    tile = _tile_near(n, LOOP_PROBE_TILE)
    return [] if tile is None else [n // tile]


def variant_extents(n: int, min_tile: int = 1, max_parts: int = 4096) -> list[int]:
    """Every extent a neutral partitioner may take on a dim of extent n."""
    return [d for d in divisors(n) if n // d >= min_tile and d <= max_parts]
