"""Shape rules of the μGraph ops, in one place: the IR verifiers and the search model both
call these, so a shape is legal in one exactly when it is legal in the other."""

from __future__ import annotations

import math
from collections.abc import Sequence

Shape = tuple[int, ...]
GRID_DIM_NAMES = ("x", "y", "z")
REPLICATE = -1
"""The map entry of a grid dimension that partitions no tensor dimension."""


class ShapeError(ValueError):
    """A shape rule is broken; the message says which, in the IR's own terms."""


def _fmt(shape: Sequence[int]) -> str:
    return "x".join(str(d) for d in shape) if shape else "scalar"


def broadcast(a: Shape, b: Shape) -> Shape:
    """Same-rank broadcasting: each dim equal, or 1 on one side."""
    if len(a) != len(b):
        raise ShapeError(f"operand ranks differ ({_fmt(a)} vs {_fmt(b)})")
    out: list[int] = []
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y and 1 not in (x, y):
            raise ShapeError(f"shapes {_fmt(a)} and {_fmt(b)} do not broadcast in dim {i}")
        out.append(max(x, y))
    return tuple(out)


def broadcast_all(shapes: Sequence[Shape]) -> Shape:
    out = shapes[0]
    for s in shapes[1:]:
        out = broadcast(out, s)
    return out


def matmul(a: Shape, b: Shape) -> Shape:
    """(..., m, k) x (..., k, n) -> (..., m, n); batch dims broadcast like elementwise ops."""
    if len(a) < 2 or len(b) < 2:
        raise ShapeError(f"matmul operands need rank >= 2, got {_fmt(a)} and {_fmt(b)}")
    if len(a) != len(b):
        raise ShapeError(f"matmul operand ranks differ ({_fmt(a)} vs {_fmt(b)})")
    if a[-1] != b[-2]:
        raise ShapeError(
            f"matmul contraction dims differ: lhs {_fmt(a)} has {a[-1]}, rhs {_fmt(b)} has {b[-2]}"
        )
    batch = broadcast(a[:-2], b[:-2]) if len(a) > 2 else ()
    return (*batch, a[-2], b[-1])


def check_dim(shape: Shape, dim: int, what: str) -> None:
    if not 0 <= dim < len(shape):
        raise ShapeError(f"{what} {dim} is out of range for rank {len(shape)}")


def reduce(shape: Shape, dim: int, size: int) -> Shape:
    """Reduction of `dim` to `size` elements: element j sums elements j, j+size, j+2*size..."""
    check_dim(shape, dim, "reduction dim")
    if size < 1 or shape[dim] % size != 0:
        raise ShapeError(f"reduction size {size} does not divide dim {dim} of extent {shape[dim]}")
    return (*shape[:dim], size, *shape[dim + 1 :])


def concat(shapes: Sequence[Shape], dim: int) -> Shape:
    first = shapes[0]
    check_dim(first, dim, "concat dim")
    for s in shapes[1:]:
        if len(s) != len(first) or any(
            x != y for i, (x, y) in enumerate(zip(s, first, strict=True)) if i != dim
        ):
            raise ShapeError(
                f"concat operands {_fmt(first)} and {_fmt(s)} differ outside dim {dim}"
            )
    return (*first[:dim], sum(s[dim] for s in shapes), *first[dim + 1 :])


def transpose(shape: Shape, permutation: Sequence[int]) -> Shape:
    """Result dim i is operand dim permutation[i]."""
    if sorted(permutation) != list(range(len(shape))):
        raise ShapeError(
            f"permutation {list(permutation)} is not a permutation of the {len(shape)} dims"
        )
    return tuple(shape[p] for p in permutation)


def reshape(shape: Shape, new: Shape) -> Shape:
    """A row-major reshape keeps the number of elements."""
    if any(d < 1 for d in new):
        raise ShapeError(f"reshape target {_fmt(new)} must have positive extents")
    if math.prod(shape) != math.prod(new):
        raise ShapeError(
            f"reshape from {_fmt(shape)} ({math.prod(shape)} elements) to {_fmt(new)} "
            f"({math.prod(new)} elements) changes the number of elements"
        )
    return tuple(new)


def check_affine(shape: Shape, operand: Shape, what: str) -> None:
    """A norm's gain or bias: of the normed operand's rank, broadcasting to it."""
    if broadcast(shape, operand) != shape:
        raise ShapeError(f"{what} {_fmt(operand)} must broadcast to the operand {_fmt(shape)}")


def last_dim_to_one(shape: Shape) -> Shape:
    if not shape:
        raise ShapeError("a reduction over the last dim needs rank >= 1")
    return (*shape[:-1], 1)


def _check_map(full: Shape, dmap: Sequence[int], grid: Sequence[int], what: str) -> None:
    if len(dmap) != 3:
        raise ShapeError(f"{what} must have 3 entries (grid x, y, z), got {len(dmap)}")
    seen: set[int] = set()
    for g, d in enumerate(dmap):
        if d == REPLICATE:
            continue
        if not 0 <= d < len(full):
            raise ShapeError(
                f"{what} maps grid dim {GRID_DIM_NAMES[g]} to tensor dim {d}, "
                f"but the tensor has rank {len(full)}"
            )
        if d in seen:
            raise ShapeError(f"{what} maps two grid dims to tensor dim {d}")
        seen.add(d)


def dim_factors(
    dmap: Sequence[int], grid: Sequence[int], forloop_dim: int, forloop_range: int, dim: int
) -> list[tuple[int, int]]:
    """How tensor dim `dim` is cut: (lead axis, parts) pairs, most significant first. Lead axes
    0-2 are the grid dims x, y, z and 3 is the loop. This order is the layout convention of
    input iterators and output savers alike."""
    parts = [(g, grid[g]) for g in range(3) if dmap[g] == dim]
    if forloop_dim == dim:
        parts.append((3, forloop_range))
    return parts


def tile_shape(
    full: Shape,
    imap: Sequence[int],
    forloop_dim: int,
    grid: Sequence[int],
    forloop_range: int,
) -> Shape:
    """The tile an input iterator gives each block in each loop iteration."""
    _check_map(full, imap, grid, "imap")
    if forloop_dim != REPLICATE:
        check_dim(full, forloop_dim, "forloop_dim")
    tile: list[int] = []
    for d, n in enumerate(full):
        parts = math.prod(p for _, p in dim_factors(imap, grid, forloop_dim, forloop_range, d))
        if n % parts != 0:
            raise ShapeError(
                f"tensor dim {d} of extent {n} does not split evenly into {parts} parts"
            )
        tile.append(n // parts)
    return tuple(tile)


def saved_shape(tile: Shape, omap: Sequence[int], grid: Sequence[int]) -> Shape:
    """The device tensor that an output saver assembles from every block's tile."""
    _check_map(tile, omap, grid, "omap")
    for g in range(3):
        if grid[g] > 1 and omap[g] == REPLICATE:
            raise ShapeError(
                f"omap leaves grid dim {GRID_DIM_NAMES[g]} (extent {grid[g]}) unmapped, "
                "so its blocks would overwrite each other's output"
            )
    return tuple(
        n * math.prod(p for _, p in dim_factors(omap, grid, REPLICATE, 1, d))
        for d, n in enumerate(tile)
    )
