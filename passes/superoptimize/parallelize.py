"""Parallelizations of a block-graph structure: how the grid and the loop cut its tensors.

A structure (`blockgen.py`) computes on whole tensors. A parallelization gives each input
iterator an imap and a forloop dim and each output saver an omap, under which every op
still computes a piece of what it computes on whole tensors (`partitions.py` tracks the
pieces); then extents: grid extents and a loop range that divide the dims they cut. Grid
dims are used in order (x, then y); output savers follow from the layouts, except where a
grid dim leaves partial results (split-K), which the omap lays side by side.

A parallelization without partial outputs computes what the structure computes; one with
partial outputs computes a new tensor (the partials), different for each extent of the
partial grid dims.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mirage.dialects import shapes
from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import (
    ACCUMULATORS,
    CONTRACTIONS,
    INPUTS,
    ITERATORS,
    OUTPUTS,
    SUMMING_ACCUMULATORS,
)
from mirage.dialects.shapes import ShapeError
from mirage.dialects.strides import permuted_view, storage_permutation
from mirage.dialects.ugraph.graph import AttrValue, Graph, Op, TensorType
from mirage.passes.superoptimize.cost import graph_op_cost
from mirage.passes.superoptimize.infer import result_shape
from mirage.passes.superoptimize.lowered import lowered_facts
from mirage.passes.superoptimize.partitions import (
    LOOP,
    Layout,
    Meaningless,
    accumulate,
    compute_layout,
    input_layout,
    omap_choices,
)
from mirage.passes.superoptimize.precision import narrow_body
from mirage.passes.superoptimize.probes import SMALL_DIM, divisors, loop_probes, split_probes
from mirage.passes.superoptimize.resources import check_fit

MAX_GRID_DIMS = 3
"""Grid dims a block graph may use: (x) or (x, y), as the reference system's grids."""
BLOCK_SIZES = ((128, 1, 1), (256, 1, 1))
MAX_BLOCKS = 16384
MIN_TILE = 16
MAX_TILE = 512
"""Long dims are cut into tiles of MIN_TILE to MAX_TILE elements."""
MAX_PARTIAL_VARIANTS = 3


@dataclass(frozen=True, slots=True)
class Pattern:
    """Maps without extents: per input op (in body order) its imap and forloop dim, per
    output op its omap."""

    imaps: tuple[tuple[int, int, int], ...]
    fdims: tuple[int, ...]
    omaps: tuple[tuple[int, int, int], ...]
    grid_used: tuple[bool, bool, bool]
    loop_used: bool
    partial_grid: frozenset[int]
    partial_dims: tuple[frozenset[int], ...] = ()
    """Per output: the dims that hold side-by-side partial results."""


MAX_PATTERN_STEPS = 200_000
"""Steps of the pattern enumeration of one structure. Independent parts of a structure
(two norms side by side) multiply their patterns: with several rank-4 inputs (heads split
by views) the product runs for minutes. The enumeration stops there, with the patterns
found so far (the same ones on every run)."""


def patterns(body: Graph, limit: int = MAX_PATTERN_STEPS) -> list[Pattern]:
    """Every parallelization pattern of a finished structure (those found within `limit`
    steps)."""
    n_args = len(body.args)
    steps = 0
    input_ops = [j for j, op in enumerate(body.ops) if op.kind in INPUTS]
    output_ops = [j for j, op in enumerate(body.ops) if op.kind in OUTPUTS]
    compute = [j for j, op in enumerate(body.ops) if op.kind not in ITERATORS]
    value_of = {j: n_args + j for j in range(len(body.ops))}
    found: list[Pattern] = []

    def rec(
        step: int,
        layouts: dict[int, Layout],
        chosen: dict[int, tuple[tuple[int, int, int], int]],
        grid_used: tuple[bool, bool, bool],
        loop_used: bool,
        no_loop: bool,
    ) -> None:
        nonlocal steps
        steps += 1
        if steps > limit:
            return
        if step == len(compute):
            _finish(layouts, chosen, grid_used, loop_used)
            return
        j = compute[step]
        op = body.ops[j]
        pending = [v - n_args for v in op.operands if v not in layouts]
        if pending:
            i = pending[0]
            rank = len(body.ops[i].results[0].shape)
            # the tensor's extents, not the tile's: a tile of one of a dim the grid cuts
            for imap, used in _imaps(logical_shape(body, body.ops[i]), grid_used):
                # an input after the loop (an epilogue operand) is read once: no loop dim
                post = i >= body.loop_end
                fdims: list[int] = [-1] if no_loop or post else [-1, *range(rank)]
                for fdim in fdims:
                    if fdim >= 0 and body.ops[i].results[0].shape[fdim] < 2:
                        continue
                    lay = input_layout(rank, imap, fdim)
                    rec(
                        step,
                        {**layouts, value_of[i]: lay},
                        {**chosen, i: (imap, fdim)},
                        used,
                        loop_used or fdim >= 0,
                        no_loop,
                    )
            return
        operands = [(layouts[v], body.type_of(v).shape) for v in op.operands]
        try:
            if op.kind in ACCUMULATORS:
                scale = operands[1][0] if len(operands) > 1 else None
                acc = accumulate(op.kind, operands[0][0], scale)
                lay = acc.layout
                if acc.loop_invariant_input and op.kind in SUMMING_ACCUMULATORS:
                    if loop_used:
                        return
                    no_loop = True
            else:
                lay = compute_layout(op.kind, dict(op.attrs), operands)
        except Meaningless:
            return
        rec(step + 1, {**layouts, value_of[j]: lay}, chosen, grid_used, loop_used, no_loop)

    def _finish(
        layouts: dict[int, Layout],
        chosen: dict[int, tuple[tuple[int, int, int], int]],
        grid_used: tuple[bool, bool, bool],
        loop_used: bool,
    ) -> None:
        if any(i not in chosen for i in input_ops):
            return  # an input nothing uses
        grid = tuple(2 if u else 1 for u in grid_used)
        try:
            choices = [omap_choices(layouts[body.ops[j].operands[0]], grid) for j in output_ops]
        except Meaningless:
            return
        for omaps in itertools.product(*choices):
            partial: set[int] = set()
            partial_dims: list[frozenset[int]] = []
            for j, omap in zip(output_ops, omaps, strict=True):
                grid_partial = {p for p, _ in layouts[body.ops[j].operands[0]].partial}
                partial |= grid_partial
                partial_dims.append(frozenset(omap[g] for g in grid_partial))
            found.append(
                Pattern(
                    tuple(chosen[i][0] for i in input_ops),
                    tuple(chosen[i][1] for i in input_ops),
                    tuple(omaps),
                    grid_used,
                    loop_used,
                    frozenset(partial),
                    tuple(partial_dims),
                )
            )

    rec(0, {}, {}, (False, False, False), False, False)
    return found


def _imaps(
    shape: tuple[int, ...], used: tuple[bool, bool, bool]
) -> Iterator[tuple[tuple[int, int, int], tuple[bool, bool, bool]]]:
    """Imaps of an input of this shape: grid dims in use may cut a dim of extent 2 or
    more (a unit dim is broadcast, never cut); a grid dim not in use may start cutting
    one if the one before it is in use. Cuts come before whole dims: where the
    enumeration of a structure with many inputs stops at its step limit, what it found
    by then is parallel."""

    def rec(
        g: int, imap: tuple[int, ...], used: tuple[bool, bool, bool], dims: frozenset[int]
    ) -> Iterator[tuple[tuple[int, int, int], tuple[bool, bool, bool]]]:
        if g == 3:
            yield (imap[0], imap[1], imap[2]), used
            return
        if used[g] or (g < MAX_GRID_DIMS and (g == 0 or used[g - 1])):
            now = list(used)
            now[g] = True
            for d, extent in enumerate(shape):
                if d not in dims and extent >= 2:
                    yield from rec(g + 1, (*imap, d), (now[0], now[1], now[2]), dims | {d})
        yield from rec(g + 1, (*imap, -1), used, dims)

    yield from rec(0, (), used, frozenset())


# --- extents ---------------------------------------------------------------------------------


def instantiate(
    op: Op,
    pattern: Pattern,
    operand_types: Sequence[TensorType],
    grid: tuple[int, int, int],
    loops: int,
    block: tuple[int, int, int],
) -> Op | None:
    """The graph op of a structure under a pattern and extents, or None where the extents
    do not divide the dims they cut."""
    body = op.body
    assert body is not None
    types: list[TensorType] = list(operand_types)
    ops: list[Op] = []
    k_in = k_out = 0
    try:
        for bop in body.ops:
            in_types = [types[v] for v in bop.operands]
            attrs = bop.attrs
            if bop.kind in INPUTS:
                imap, fdim = pattern.imaps[k_in], pattern.fdims[k_in]
                k_in += 1
                view = _carried_view(bop, body.type_of(bop.operands[0]).shape, in_types[0].shape)
                if view is None:
                    return None
                logical = dict(view).get("view", in_types[0].shape)
                assert isinstance(logical, tuple)
                shape = shapes.tile_shape(logical, imap, fdim, grid, loops)  # pyright: ignore[reportUnknownArgumentType]
                attrs = tuple(sorted((("forloop_dim", fdim), ("imap", imap), *view)))
            elif bop.kind in OUTPUTS:
                omap = pattern.omaps[k_out]
                k_out += 1
                shape = shapes.saved_shape(in_types[0].shape, omap, grid)
                attrs = (("omap", omap),)
                if bop.viewed:
                    # the storage of a viewed output follows from its new logical shape
                    # only for a plain permutation of dims
                    old_view, old_strides = bop.layout(bop.results[0].shape)
                    perm = storage_permutation(bop.results[0].shape, old_view, old_strides)
                    if perm is None:
                        return None
                    storage = [0] * len(shape)
                    for d, j in enumerate(perm):
                        storage[j] = shape[d]
                    view, strides = permuted_view(perm, tuple(storage))
                    assert view == shape
                    attrs = (("omap", omap), ("strides", strides), ("view", view))
                    shape = tuple(storage)
            else:
                shape = result_shape(bop.kind, dict(bop.attrs), [t.shape for t in in_types])
            new = Op(
                bop.kind, bop.operands, (TensorType(shape, bop.results[0].dtype),), attrs, bop.body
            )
            ops.append(new)
            types.append(new.results[0])
    except ShapeError:
        return None
    new_body = narrow_body(Graph(tuple(operand_types), tuple(ops), body.outputs, body.loop_end))
    attrs = dict(op.attrs)
    attrs.update(grid=grid, block=block, forloop_range=loops)
    return Op("graph", op.operands, new_body.output_types, tuple(sorted(attrs.items())), new_body)


def _carried_view(
    bop: Op, old_storage: tuple[int, ...], new_storage: tuple[int, ...]
) -> tuple[tuple[str, AttrValue], ...] | None:
    """An input iterator's view attributes for a device tensor of shape `new_storage`: the
    same view where the tensor keeps its shape, the same permutation of its dims where the
    view is a transpose; None where the view cannot be carried over (a head split or a
    window of another shape)."""
    kept = tuple((k, v) for k, v in bop.attrs if k in ("offset", "strides", "view"))
    if not kept or old_storage == new_storage:
        return kept
    if bop.offset:
        return None
    view, strides = bop.layout(old_storage)
    perm = storage_permutation(old_storage, view, strides)
    if perm is None:
        return None
    new_view, new_strides = permuted_view(perm, new_storage)
    return (("strides", new_strides), ("view", new_view))


def logical_shape(body: Graph, bop: Op) -> tuple[int, ...]:
    """The shape of the tensor an input iterator cuts: its view of the device tensor where
    it reads one (a transposed weight), else the device tensor's own; imaps and forloop
    dims name this tensor's dims."""
    return bop.layout(body.type_of(bop.operands[0]).shape)[0]


def _cut_extents(body: Graph, pattern: Pattern, partitioner: int) -> list[int]:
    out: list[int] = []
    k = 0
    for bop in body.ops:
        if bop.kind not in INPUTS:
            continue
        full = logical_shape(body, bop)
        d = pattern.fdims[k] if partitioner == LOOP else pattern.imaps[k][partitioner]
        k += 1
        if d >= 0:
            out.append(full[d])
    return out


def _options(dims: list[int], probes_only: bool, loop: bool, fine: bool = False) -> list[int]:
    """Extents for a partitioner cutting `dims`; `fine`: a grid dim's tiles may also be
    shorter than MIN_TILE (rows of a norm over a long row: only a few rows fit a block)."""
    common = math.gcd(*dims)
    if probes_only:
        return [e for e in (loop_probes if loop else split_probes)(common) if e >= 2]
    low = 1 if fine and not loop else MIN_TILE
    return [
        d
        for d in divisors(common)
        if d >= 2
        and d <= MAX_BLOCKS
        and all(n <= SMALL_DIM or low <= n // d <= MAX_TILE for n in dims)
    ]


@dataclass(frozen=True, slots=True)
class Parallelized:
    op: Op
    seconds: float
    pattern: Pattern

    @property
    def partial(self) -> bool:
        return bool(self.pattern.partial_grid)


def _better(a: Parallelized, b: Parallelized) -> bool:
    return a.seconds < b.seconds or (a.seconds == b.seconds and repr(a.op) < repr(b.op))


def _priced(
    op: Op,
    pattern: Pattern,
    operand_types: Sequence[TensorType],
    grid: tuple[int, int, int],
    loops: int,
    block: tuple[int, int, int],
    target: Target,
) -> Parallelized | None:
    new = instantiate(op, pattern, operand_types, grid, loops, block)
    if new is None:
        return None
    fit = check_fit(new, target)
    if not fit.ok:
        return None
    lowered = lowered_facts(new, target)
    if lowered is None:
        return None
    cost = graph_op_cost(new, list(operand_types), target, regs=fit.registers, lowered=lowered)
    return Parallelized(new, cost.seconds, pattern)


def _finenesses(body: Graph) -> tuple[bool, ...]:
    """Whether grid tiles shorter than MIN_TILE are tried where no other fits: not for a
    block graph with a contraction, whose tensor-core tiles are 16 rows or more."""
    if any(op.kind in CONTRACTIONS for op in body.ops):
        return (False,)
    return (False, True)


def _pattern_options(body: Graph, pattern: Pattern, fine: bool) -> list[list[int]]:
    """Per partitioner (grid x, y, z, the loop), the extents a search tries."""
    options: list[list[int]] = []
    for p in range(4):
        used = pattern.loop_used if p == LOOP else pattern.grid_used[p]
        if not used:
            options.append([1])
            continue
        dims = _cut_extents(body, pattern, p)
        options.append(_options(dims, p in pattern.partial_grid, p == LOOP, fine))
    return options


def parallelizations(
    op: Op, operand_types: Sequence[TensorType], target: Target, partial: bool
) -> list[Parallelized]:
    """With `partial` false: the cheapest parallelization that computes what the structure
    computes (none if nothing fits the target). With `partial` true: for patterns with
    partial outputs, the cheapest few distinct outputs, with extents taken from the probes
    (each is a different tensor, searched on its own). Cheapest first."""
    key = (op, tuple(operand_types), target.name, partial)
    hit = _memo.get(key)
    if hit is not None:
        return hit
    body = op.body
    assert body is not None
    best: dict[tuple[object, ...], Parallelized] = {}
    # tiles of at least MIN_TILE along long dims first; where none fits the target, finer
    # grid cuts (a norm over rows of thousands of elements fits a block a few rows at a time)
    for fine in _finenesses(body):
        if best:
            break
        for pattern in patterns(body):
            if bool(pattern.partial_grid) != partial:
                continue
            options = _pattern_options(body, pattern, fine)
            for gx, gy, gz, loops in itertools.product(*options):
                if gx * gy * gz > MAX_BLOCKS:
                    continue
                found = _priced(
                    op, pattern, operand_types, (gx, gy, gz), loops, BLOCK_SIZES[0], target
                )
                if found is None:
                    continue
                group = (found.op.results, pattern.omaps) if partial else ()
                old = best.get(group)
                if old is None or _better(found, old):
                    best[group] = found
    # Other block sizes, for the extents chosen.
    for group, par in list(best.items()):
        grid = par.op.ints_attr("grid")
        loops = par.op.int_attr("forloop_range")
        for block in BLOCK_SIZES[1:]:
            found = _priced(
                op, par.pattern, operand_types, (grid[0], grid[1], grid[2]), loops, block, target
            )
            if found is not None and _better(found, best[group]):
                best[group] = found
    out = sorted(best.values(), key=lambda p: (p.seconds, repr(p.op)))[:MAX_PARTIAL_VARIANTS]
    if len(_memo) > 4096:
        _memo.clear()
    _memo[key] = out
    return out


_memo: dict[tuple[object, ...], list[Parallelized]] = {}


def reparallelize(
    op: Op, operand_types: Sequence[TensorType], target: Target, recut: bool = True
) -> Parallelized | None:
    """A found graph op parallelized the same way (its imaps, forloop dims and omaps; a
    loop over dims it kept whole, where it had none) for operands of other shapes: the
    cheapest grid and loop extents that fit, the extents of grid dims that leave partial
    results kept (what combines the partials is built for that many). None where the
    pattern does not apply to the new shapes or nothing fits. With `recut`, an op without
    partial results may take another pattern's cut where that one is cheaper."""
    body = op.body
    assert body is not None
    inputs = [bop for bop in body.ops if bop.kind in INPUTS]
    outputs = [bop for bop in body.ops if bop.kind in OUTPUTS]
    imaps = tuple(_map3(bop.ints_attr("imap")) for bop in inputs)
    fdims = tuple(bop.int_attr("forloop_dim") for bop in inputs)
    omaps = tuple(_map3(bop.ints_attr("omap")) for bop in outputs)
    whole = Pattern(
        tuple((-1, -1, -1) for _ in inputs),
        tuple(-1 for _ in inputs),
        tuple((-1, -1, -1) for _ in outputs),
        (False, False, False),
        False,
        frozenset(),
    )
    structure = instantiate(op, whole, operand_types, (1, 1, 1), 1, BLOCK_SIZES[0])
    if structure is None or structure.body is None:
        return None
    found = patterns(structure.body)
    same = [p for p in found if (p.imaps, p.fdims, p.omaps) == (imaps, fdims, omaps)]
    if op.int_attr("forloop_range") == 1:
        # Without a loop at the old shapes, the same maps with a loop over dims the old
        # ones left whole: at small shapes a whole contraction fits one block, at large
        # ones the block walks it (the body's accumulators were there all along).
        same += [
            p
            for p in found
            if (p.imaps, p.omaps) == (imaps, omaps)
            and p.fdims != fdims
            and all(old in (-1, new) for old, new in zip(fdims, p.fdims, strict=True))
        ]
    best: Parallelized | None = None
    for pattern in same:
        found_here = _cheapest(op, structure.body, pattern, operand_types, target)
        if found_here is not None and (best is None or _better(found_here, best)):
            best = found_here
    if recut and best is not None and not best.partial:
        # Without partial results what the op computes does not depend on how it is cut:
        # at other shapes another cut may be cheaper (a small member's blocks of a few rows
        # each, at large shapes, read every weight once per block row).
        for pattern in found:
            if pattern.partial_grid or pattern in same:
                continue
            free = _cheapest(op, structure.body, pattern, operand_types, target)
            if free is not None and _better(free, best):
                best = free
    return best


def _cheapest(
    op: Op, body: Graph, pattern: Pattern, operand_types: Sequence[TensorType], target: Target
) -> Parallelized | None:
    """`op` parallelized by `pattern` at the cheapest grid, loop and block extents that
    fit `operand_types` (`body`: its structure at them), the extents of grid dims that
    leave partial results kept."""
    grid = op.ints_attr("grid")
    best: Parallelized | None = None
    for fine in _finenesses(body):  # as `parallelizations`: finer cuts where none fits
        if best is not None:
            break
        options: list[list[int]] = []
        for p in range(4):
            used = pattern.loop_used if p == LOOP else pattern.grid_used[p]
            if not used:
                options.append([1])
            elif p in pattern.partial_grid:
                options.append([grid[p]])
            else:
                options.append(_options(_cut_extents(body, pattern, p), False, p == LOOP, fine))
        for gx, gy, gz, loops in itertools.product(*options):
            if gx * gy * gz > MAX_BLOCKS:
                continue
            found = _priced(op, pattern, operand_types, (gx, gy, gz), loops, BLOCK_SIZES[0], target)
            if found is not None and (best is None or _better(found, best)):
                best = found
    if best is None:
        return None
    extents = best.op.ints_attr("grid")
    loops = best.op.int_attr("forloop_range")
    for block in BLOCK_SIZES[1:]:
        found = _priced(
            op, pattern, operand_types, (extents[0], extents[1], extents[2]), loops, block, target
        )
        if found is not None and _better(found, best):
            best = found
    return best


def _map3(values: tuple[int, ...]) -> tuple[int, int, int]:
    padded = (*values, -1, -1, -1)
    return (padded[0], padded[1], padded[2])
