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
from dataclasses import dataclass, replace

from mirage.dialects.opkinds import (
    BINARY_KINDS,
    CONCATS,
    CONTRACTIONS,
    FUSES,
    LAST_DIM_ACCUMULATORS,
    LOOP_RESCALE,
    LOOP_SUM,
    LOOP_SUM_LAST,
    NORMS,
    OP_KINDS,
    PLAIN_ACCUMULATORS,
    POINTWISE,
    REDUCTIONS,
    SUM_ACCUMULATOR,
    SUM_REDUCTIONS,
    Partials,
    Scaling,
)

GRID_X, GRID_Y, GRID_Z, LOOP = 0, 1, 2, 3
PARTITIONER_NAMES = ("x", "y", "z", "loop")

Partial = tuple[int, str]
"""(partitioner, "sum" | "max"): the tile is one addend (or one max candidate) of the
combination over that partitioner's blocks or iterations."""

Stabilizer = tuple[int, str]
"""(partitioner, "shifted" | "scaled"): online softmax. The tile is x - m ("shifted") or
carries the factor exp(-m) ("scaled"), m the maximum over that partitioner's slices seen so
far: in the loop a tile's own maximum, after accum_rescale the whole range's. The factor is
the same along the reduced dim, so a quotient of two values scaled alike is free of it."""

_LINEAR_UNARY = frozenset(k for k in POINTWISE if OP_KINDS[k].linear)
_BINARY = frozenset(k.name for k in BINARY_KINDS)


class Meaningless(ValueError):
    """The op computes nothing that the full tensors define."""


@dataclass(frozen=True, slots=True)
class Layout:
    dims: tuple[frozenset[int], ...]
    partial: frozenset[Partial] = frozenset()
    stabilizer: frozenset[Stabilizer] = frozenset()

    def depends_on(self) -> frozenset[int]:
        out: set[int] = {p for p, _ in self.partial} | {p for p, _ in self.stabilizer}
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


def _shift(a: Layout, b: Layout) -> int | None:
    """The partitioner p when a - b subtracts from a complete tile of a dim p cuts the
    maximum of its slice (b one max candidate over p): the online-softmax shift."""
    if a.partial or a.stabilizer or b.stabilizer or len(b.partial) != 1:
        return None
    ((p, combine),) = b.partial
    return p if combine == "max" and p in a.depends_on() else None


def _stabilized(
    kind: str, attrs: dict[str, object], operands: Sequence[tuple[Layout, tuple[int, ...]]]
) -> Layout | None:
    """The layout of an op on online-softmax values (`Stabilizer`); None for an op that
    involves none. The record's `shifts`, `unshifts` and `scaling` say what it does."""
    layouts = [lay for lay, _ in operands]
    record = OP_KINDS.get(kind)
    if record is not None and record.shifts and len(layouts) == 2:
        p = _shift(layouts[0], layouts[1])
        if p is not None:
            dims = _broadcast_dims(operands)
            return _check_single_use(Layout(tuple(dims), frozenset(), frozenset({(p, "shifted")})))
    tags = [lay.stabilizer for lay in layouts]
    if not any(tags):
        return None
    if any(k == "shifted" for t in tags for _, k in t):
        # only the exponential turns the shift into a factor that later divides out
        if record is None or not record.unshifts:
            raise Meaningless("a function of a shifted value other than exp")
        (a,) = layouts
        return Layout(a.dims, a.partial, frozenset((p, "scaled") for p, _ in a.stabilizer))
    scaling = None if record is None else record.scaling
    alike = len(tags) == 2 and tags[0] == tags[1]
    stabilizer: frozenset[Stabilizer]
    if scaling is Scaling.PASSES or (scaling is Scaling.ALIKE and alike):
        stabilizer = tags[0]
    elif scaling is Scaling.QUOTIENT and alike:
        stabilizer = frozenset()  # both carry the same exp(-m): the quotient is free of it
    elif (scaling is Scaling.PRODUCT and not (tags[0] and tags[1])) or (
        scaling in (Scaling.QUOTIENT, Scaling.CONTRACTION) and not tags[1]
    ):
        # An iteration's values times its own factor exp(-m) (constant along the dim the
        # maximum reduced, which a matmul then contracts): still scaled alike.
        stabilizer = tags[0] or tags[1]
    else:
        raise Meaningless(f"'{kind}' of a value scaled by exp(-max)")
    plain = [(replace(lay, stabilizer=frozenset()), shape) for lay, shape in operands]
    return replace(compute_layout(kind, attrs, plain), stabilizer=stabilizer)


def compute_layout(
    kind: str,
    attrs: dict[str, object],
    operands: Sequence[tuple[Layout, tuple[int, ...]]],
) -> Layout:
    """The layout of a block compute op's result (not accumulators: see `accumulate`)."""
    layouts = [lay for lay, _ in operands]
    stabilized = _stabilized(kind, attrs, operands)
    if stabilized is not None:
        return stabilized
    if kind in _LINEAR_UNARY:
        return layouts[0]
    if (kind in POINTWISE and kind not in _BINARY) or (kind in FUSES and len(layouts) == 1):
        _no_partial(*layouts)
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
            partial = frozenset[Partial]()
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
        a = layouts[0]
        _no_partial(*layouts)  # x, and its gain and bias
        if a.dims[-1]:
            raise Meaningless("rms_norm of a tile that holds part of each row")
        if len(operands) == 1:
            return a
        return _check_single_use(Layout(tuple(_broadcast_dims(operands)), frozenset()))
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


def accumulate(kind: str, operand: Layout, scale: Layout | None = None) -> Accumulated:
    """The layout after the loop of an accumulator's result (`scale`: accum_rescale's)."""
    if kind in LOOP_RESCALE:
        assert scale is not None
        return _rescale(operand, scale)
    if operand.stabilizer:
        raise Meaningless("an accumulation of a value scaled by exp(-max) other than accum_rescale")
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


def _rescale(value: Layout, scale: Layout) -> Accumulated:
    """accum_rescale(v, s) = sum_i v_i exp(s_i - M): with s the loop's tile maxima and v
    scaled by them (exp(-s_i)), the sum of v's complete values scaled by exp(-M); with an
    s that does not vary over the loop, a plain sum."""
    if scale.stabilizer or value.sliced_by(LOOP) is not None:
        raise Meaningless("a rescaled accumulation of loop slices of a dim")
    if (LOOP, "max") not in scale.partial:
        if value.stabilizer or LOOP in scale.depends_on():
            raise Meaningless("a rescaling by a scale that is no loop maximum")
        return accumulate(SUM_ACCUMULATOR, value)
    if scale.partial != frozenset({(LOOP, "max")}) or value.stabilizer != frozenset(
        {(LOOP, "scaled")}
    ):
        raise Meaningless("accum_rescale of a value not scaled by the loop's maxima")
    if any(p == LOOP and k != "sum" for p, k in value.partial):
        raise Meaningless("a rescaled accumulation of partial maxima")
    rest = frozenset(x for x in value.partial if x[0] != LOOP)
    return Accumulated(Layout(value.dims, rest, value.stabilizer), False)


def omap_choices(layout: Layout, grid: Sequence[int]) -> list[tuple[int, int, int]]:
    """The omaps that store a post-loop tile where the full tensor has it: every grid dim
    that cuts a dim maps to it; a grid dim over which the tile is partial places the
    partials side by side in the last dim no other grid dim uses (one canonical place:
    any other holds the same numbers in another order); a grid dim the tile does not
    depend on would make blocks overwrite each other."""
    if layout.stabilizer:
        raise Meaningless("a value still scaled by exp(-max) is stored")
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
