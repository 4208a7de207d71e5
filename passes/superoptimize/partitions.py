"""Which grid dims and which loop cut each dim of a block-level value.

Every block-level tile is a piece of a device-level tensor. For each tile dim we track the
*partitioners* that cut it (grid x, y, z and the for-loop, the order of
`shapes.dim_factors`), and for the whole tile the partitioners over which it is only a
*partial* result (a matmul or reduction over a cut dim leaves one addend per block or
iteration). An op whose operands are cut differently (a matmul whose lhs walks K with the
loop but whose rhs splits K over the grid, an exp of a partial sum, the elementwise sum of
tiles of different rows) computes nothing that the full tensors define; the generator drops
it before asking the pruner or the verifier. This is a filter on meaning, not a proof: every
candidate is still verified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mirage.dialects.opkinds import (
    BINARY_KINDS,
    CONCATS,
    CONTRACTIONS,
    ELEMENTWISE_KINDS,
    FUSES,
    LAST_DIM_ACCUMULATORS,
    LOOP_SUM,
    LOOP_SUM_LAST,
    NORMS,
    OP_KINDS,
    PLAIN_ACCUMULATORS,
    POINTWISE,
    REDUCTIONS,
    SUM_REDUCTIONS,
    Partials,
)

GRID_X, GRID_Y, GRID_Z, LOOP = 0, 1, 2, 3
PARTITIONER_NAMES = ("x", "y", "z", "loop")

Partial = tuple[int, str]
"""(partitioner, "sum" | "max"): the tile is one addend (or one max candidate) of the
combination over that partitioner's blocks or iterations."""

_LINEAR_UNARY = frozenset(k for k in POINTWISE if OP_KINDS[k].linear)
_BINARY = frozenset(k.name for k in BINARY_KINDS)


class Meaningless(ValueError):
    """The op computes nothing that the full tensors define."""


@dataclass(frozen=True, slots=True)
class Layout:
    dims: tuple[frozenset[int], ...]
    partial: frozenset[Partial] = frozenset()

    def depends_on(self) -> frozenset[int]:
        out: set[int] = {p for p, _ in self.partial}
        for d in self.dims:
            out |= d
        return frozenset(out)

    def sliced_by(self, p: int) -> int | None:
        for i, d in enumerate(self.dims):
            if p in d:
                return i
        return None


def input_layout(rank: int, imap: Sequence[int], forloop_dim: int) -> Layout:
    dims: list[set[int]] = [set() for _ in range(rank)]
    for g, d in enumerate(imap):
        if d >= 0:
            dims[d].add(g)
    if forloop_dim >= 0:
        dims[forloop_dim].add(LOOP)
    return Layout(tuple(frozenset(d) for d in dims))


def _check_single_use(layout: Layout) -> Layout:
    """A partitioner cuts at most one dim of a tile and is not also a partial over it."""
    seen: set[int] = set()
    for d in layout.dims:
        if d & seen:
            raise Meaningless("one partitioner cuts two dims")
        seen |= d
    if any(p in seen for p, _ in layout.partial):
        raise Meaningless("a partitioner both cuts a dim and leaves a partial")
    return layout


def _broadcast_dims(
    operands: Sequence[tuple[Layout, tuple[int, ...]]], dims: Sequence[int] | None = None
) -> list[frozenset[int]]:
    """Per broadcast dim: the partitioners of the operands that are not broadcast there
    (extent > 1, or cut by some partitioner); they must agree."""
    rank = len(operands[0][1])
    out: list[frozenset[int]] = []
    for d in dims if dims is not None else range(rank):
        tags = {lay.dims[d] for lay, shape in operands if shape[d] > 1 or lay.dims[d]}
        if len(tags) > 1:
            raise Meaningless(f"operands are cut differently in dim {d}")
        out.append(next(iter(tags)) if tags else frozenset())
    return out


def _no_partial(*layouts: Layout) -> None:
    if any(lay.partial for lay in layouts):
        raise Meaningless("a non-linear function of a partial result")


def _linear_in_one(a: Layout, b: Layout) -> frozenset[Partial]:
    """A product of a partial and something independent of the partial's partitioners."""
    if a.partial and b.partial:
        raise Meaningless("the product of two partial results")
    part, other = (a, b) if a.partial else (b, a)
    if any(kind != "sum" for _, kind in part.partial):
        raise Meaningless("a product with a partial maximum")
    if {p for p, _ in part.partial} & other.depends_on():
        raise Meaningless("a partial result times a value cut by the same partitioner")
    return part.partial


def compute_layout(
    kind: str,
    attrs: dict[str, object],
    operands: Sequence[tuple[Layout, tuple[int, ...]]],
) -> Layout:
    """The layout of a block compute op's result (not accumulators: see `accumulate`)."""
    layouts = [lay for lay, _ in operands]
    if (kind in ELEMENTWISE_KINDS and kind not in _BINARY) or (kind in FUSES and len(layouts) == 1):
        _no_partial(*layouts)
        return layouts[0]
    if kind in _LINEAR_UNARY:
        return layouts[0]
    if kind in _BINARY or kind in FUSES:
        dims = _broadcast_dims(operands)
        a, b = layouts[0], layouts[1]
        rule = OP_KINDS[kind].partials
        if rule is Partials.SUM:
            if a.partial != b.partial:
                raise Meaningless("the sum of a partial and a complete value")
            partial = a.partial
        elif rule in (Partials.PRODUCT, Partials.QUOTIENT):
            if rule is Partials.QUOTIENT and b.partial:
                raise Meaningless("division by a partial result")
            partial = _linear_in_one(a, b)
        else:
            _no_partial(*layouts)
            partial = frozenset()
        return _check_single_use(Layout(tuple(dims), partial))
    if kind in CONTRACTIONS:
        (a, sa), (b, _) = operands
        rank = len(sa)
        if a.dims[rank - 1] != b.dims[rank - 2]:
            raise Meaningless("the contraction dim is cut differently on the two sides")
        batch = _broadcast_dims(operands, range(rank - 2))
        partial = _linear_in_one(a, b) | {(p, "sum") for p in a.dims[rank - 1]}
        dims = (*batch, a.dims[rank - 2], b.dims[rank - 1])
        return _check_single_use(Layout(dims, frozenset(partial)))
    if kind in REDUCTIONS:
        ((a, _sa),) = operands
        dim, size = attrs["dim"], attrs.get("size", 1)
        assert isinstance(dim, int)
        combine = "sum" if kind in SUM_REDUCTIONS else "max"
        if a.partial and (combine == "max" or any(k != "sum" for _, k in a.partial)):
            raise Meaningless("a maximum of a partial result")
        # A tile of a cut dim reduced (to 1, or to `size` elements, which the shape rules
        # then require to divide the tile) is one addend of the whole dim's reduction.
        del size
        dims = list(a.dims)
        dims[dim] = frozenset()
        partial = a.partial | {(p, combine) for p in a.dims[dim]}
        return _check_single_use(Layout(tuple(dims), frozenset(partial)))
    if kind in NORMS:
        ((a, _),) = operands
        _no_partial(a)
        if a.dims[-1]:
            raise Meaningless("rms_norm of a tile that holds part of each row")
        return a
    if kind in CONCATS:
        dim = attrs["dim"]
        assert isinstance(dim, int)
        if any(lay.dims[dim] for lay in layouts):
            raise Meaningless("concatenation along a cut dim")
        if len({lay.partial for lay in layouts}) > 1:
            raise Meaningless("concatenation of partial and complete values")
        others = [d for d in range(len(operands[0][1])) if d != dim]
        dims = list(layouts[0].dims)
        for d, tag in zip(others, _broadcast_dims(operands, others), strict=True):
            dims[d] = tag
        return _check_single_use(Layout(tuple(dims), layouts[0].partial))
    raise Meaningless(f"no layout rule for '{kind}'")


@dataclass(frozen=True, slots=True)
class Accumulated:
    layout: Layout
    loop_invariant_input: bool
    """The accumulated value is the same in every iteration: a sum over iterations then
    adds copies, which means the sum only if the loop has one iteration."""


def accumulate(kind: str, operand: Layout) -> Accumulated:
    """The layout after the loop of an accumulator's result."""
    invariant = LOOP not in operand.depends_on()
    loop_partial = {k for p, k in operand.partial if p == LOOP}
    rest_partial = frozenset(x for x in operand.partial if x[0] != LOOP)
    cut = operand.sliced_by(LOOP)
    if kind in PLAIN_ACCUMULATORS:
        combine = "sum" if kind in LOOP_SUM else "max"
        if cut is not None:
            raise Meaningless("an accumulation of loop slices of a dim")
        if loop_partial and loop_partial != {combine}:
            raise Meaningless("a sum of partial maxima, or a maximum of partial sums")
        return Accumulated(Layout(operand.dims, rest_partial), invariant)
    if kind in LAST_DIM_ACCUMULATORS:
        last = len(operand.dims) - 1
        if cut is not None and cut != last:
            raise Meaningless("a reduction over the last dim while the loop walks another")
        if kind not in LOOP_SUM_LAST:
            # mean and rms are not linear: every iteration must hold a slice of the full rows
            if operand.partial or operand.dims[last] - {LOOP}:
                raise Meaningless("a mean over part of each row")
        elif any(k != "sum" for _, k in operand.partial):
            raise Meaningless("a sum of partial maxima")
        dims = list(operand.dims)
        grid_cut = dims[last] - {LOOP}
        dims[last] = frozenset()
        partial = rest_partial | {(p, "sum") for p in grid_cut}
        return Accumulated(_check_single_use(Layout(tuple(dims), partial)), invariant)
    raise Meaningless(f"no layout rule for accumulator '{kind}'")


def omap_choices(layout: Layout, grid: Sequence[int]) -> list[tuple[int, int, int]]:
    """The omaps that store a post-loop tile where the full tensor has it: every grid dim
    that cuts a dim maps to it; a grid dim over which the tile is partial places the
    partials side by side in the last dim no other grid dim uses (one canonical place:
    any other holds the same numbers in another order); a grid dim the tile does not
    depend on would make blocks overwrite each other."""
    omap = [-1, -1, -1]
    free_grid: list[int] = []
    for g in range(3):
        if grid[g] <= 1:
            continue
        d = layout.sliced_by(g)
        if d is not None:
            omap[g] = d
        elif any(p == g for p, _ in layout.partial):
            free_grid.append(g)
        else:
            raise Meaningless(f"every block along grid {PARTITIONER_NAMES[g]} writes the same tile")
    free = [d for d in range(len(layout.dims)) if d not in omap]
    for g in reversed(free_grid):
        if not free:
            raise Meaningless("no dim left to lay partial results side by side")
        omap[g] = free.pop()
    return [(omap[0], omap[1], omap[2])]
