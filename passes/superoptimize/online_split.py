"""The online softmax of `online.py` with its keys split over the grid (split-KV): two
launches, built directly like the other seeds.

Where one FlashAttention-style kernel leaves most of the GPU idle (few query rows, many
keys), each block of the first kernel walks one slice of the keys with accum_rescale and
stores what it holds: the numerator sum_i exp(s_i - m) v_i, the denominator sum_i exp(s_i - m)
and its maximum m, side by side per slice. The second kernel walks the slices and combines
them with accum_rescale by their maxima, sum_j n_j exp(m_j - M) / sum_j l_j exp(m_j - M), so
no partial result grows with the scores' magnitude and the pair stays finite in f16 where
the online form does. The block graphs are parallelized by the patterns of the one-kernel
online form (its grid dims and the loop over the keys), with one more grid dim over the keys.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import INPUTS, LOOP_RESCALE, MAX_REDUCTIONS, OUTPUTS, QUOTIENTS
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.superoptimize.blockgen import COMPUTE_DTYPE, NO_MAP
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.fusion import fuse_program
from mirage.passes.superoptimize.kernelgen import with_output_types
from mirage.passes.superoptimize.lowered import lowered_facts
from mirage.passes.superoptimize.online import online_structure
from mirage.passes.superoptimize.parallelize import (
    BLOCK_SIZES,
    MAX_BLOCKS,
    MAX_TILE,
    MIN_TILE,
    Pattern,
    instantiate,
    logical_shape,
    patterns,
)
from mirage.passes.superoptimize.probes import SMALL_DIM, divisors
from mirage.passes.superoptimize.resources import check_fit

SPLITS = (2, 4, 8, 16, 32)
"""Key slices tried (grid extents of the split)."""
MAX_CANDIDATES = 1
"""Cheapest pairs returned, by modelled cost."""
FIRSTS_COMBINED = 6
"""Cheapest first kernels (by their own modelled cost) completed with a combine."""


def online_split_candidates(program: Graph, target: Target) -> list[Graph]:
    """Split-KV pairs of the program's online softmax, cheapest first (at most
    MAX_CANDIDATES), or none where the program has no online form or ops after its
    softmax-weighted sum."""
    return [g for _, g in online_split_pairs(program, target)[:MAX_CANDIDATES]]


def online_split_pairs(
    program: Graph, target: Target, firsts_combined: int = FIRSTS_COMBINED
) -> list[tuple[float, Graph]]:
    """Every split-KV pair of the program's online softmax whose first kernel is among the
    `firsts_combined` cheapest, with its modelled seconds, cheapest first (the calibration
    of the cost model times them all)."""
    op = online_structure(program)
    if op is None or op.body is None:
        return []
    body = op.body
    tail = body.ops[body.loop_end :]
    if len(tail) != 2 or tail[0].kind not in QUOTIENTS or tail[1].kind not in OUTPUTS:
        return []  # ops after the weighted sum: they would have to move to the combine
    first = _first_body(body)
    operand_types = [program.args[v] for v in op.operands]
    firsts: list[tuple[float, Op, Pattern]] = []
    for pattern in patterns(body):
        split = _split_pattern(body, pattern)
        if split is None:
            continue
        for grid, loops in _extents(body, pattern, split):
            for one in _instances(first, op, split, operand_types, grid, loops, target):
                firsts.append((_seconds(one, operand_types, target), one, pattern))
    firsts.sort(key=lambda f: (f[0], repr(f[1])))
    n = len(program.args)
    found: list[tuple[float, Graph]] = []
    for _, one, pattern in firsts[:firsts_combined]:

        def pair(two: Op, one: Op = one) -> Graph:
            graph = Graph(program.args, (one, replace(two, operands=(n, n + 1, n + 2))), (n + 3,))
            return fuse_program(with_output_types(graph, program.output_types))

        two = _combine(one, pattern, target, lambda two: program_cost(pair(two), target).seconds)
        if two is None:
            continue
        typed = pair(two)
        found.append((program_cost(typed, target).seconds, typed))
    found.sort(key=lambda f: (f[0], repr(f[1])))
    return found


def _seconds(op: Op, operand_types: Sequence[TensorType], target: Target) -> float:
    n = len(operand_types)
    ids = tuple(range(n, n + len(op.results)))
    return program_cost(Graph(tuple(operand_types), (op,), ids), target).seconds


def _first_body(body: Graph) -> Graph:
    """The online body with its two accumulators and the running maximum stored in place
    of their quotient."""
    loop = list(body.ops[: body.loop_end])
    (acc_num, acc_den) = [len(body.args) + i for i, o in enumerate(loop) if o.kind in LOOP_RESCALE]
    (m,) = [len(body.args) + i for i, o in enumerate(loop) if o.kind in MAX_REDUCTIONS][-1:]
    m_type = body.type_of(m)
    loop.append(make_op("accum_max", [m], [TensorType(m_type.shape, COMPUTE_DTYPE)]))
    top = len(body.args) + len(loop) - 1
    outs: list[Op] = []
    for v in (acc_num, acc_den, top):
        ty = TensorType(body.type_of(v).shape, COMPUTE_DTYPE)
        outs.append(make_op("output", [v], [ty], omap=NO_MAP))
    ops = (*loop, *outs)
    first = len(body.args) + len(loop)
    return Graph(body.args, ops, tuple(range(first, first + 3)), len(loop))


def _split_pattern(body: Graph, pattern: Pattern) -> Pattern | None:
    """The pattern with grid z over the keys the loop walks, or None where the pattern
    does not walk them with the loop, uses z, or cuts the stored result's last dim."""
    if not pattern.loop_used or pattern.grid_used[2] or pattern.partial_grid:
        return None
    (omap,) = pattern.omaps
    rank = len(body.type_of(body.ops[-1].operands[0]).shape)
    if rank - 1 in omap:
        return None
    imaps: list[tuple[int, int, int]] = []
    for imap, fdim in zip(pattern.imaps, pattern.fdims, strict=True):
        imaps.append((imap[0], imap[1], fdim))
    if all(f < 0 for f in pattern.fdims):
        return None
    split_omap = (omap[0], omap[1], rank - 1)
    return Pattern(
        tuple(imaps),
        pattern.fdims,
        (split_omap, split_omap, split_omap),
        (pattern.grid_used[0], pattern.grid_used[1], True),
        True,
        frozenset({2}),
        (frozenset({rank - 1}),) * 3,
    )


def _extents(
    body: Graph, pattern: Pattern, split: Pattern
) -> list[tuple[tuple[int, int, int], int]]:
    """(grid, loops) choices: x and y as the one-kernel form may cut them (tiles of
    MIN_TILE to MAX_TILE), z among SPLITS, and the loop over what is left of each slice
    in tiles of MIN_TILE to MAX_TILE keys."""
    full = [logical_shape(body, o) for o in body.ops if o.kind in INPUTS]

    def extents(g: int) -> list[int]:
        dims = [s[imap[g]] for s, imap in zip(full, split.imaps, strict=True) if imap[g] >= 0]
        if g < 2 and not pattern.grid_used[g]:
            return [1]
        common = math.gcd(*dims)
        if g == 2:
            return [d for d in SPLITS if common % d == 0]
        return [
            d
            for d in divisors(common)
            if d >= 2 and all(n <= SMALL_DIM or MIN_TILE <= n // d <= MAX_TILE for n in dims)
        ]

    keys = math.gcd(*(s[f] for s, f in zip(full, split.fdims, strict=True) if f >= 0))
    out: list[tuple[tuple[int, int, int], int]] = []
    for gx, gy, gz in itertools.product(extents(0), extents(1), extents(2)):
        if gx * gy * gz > MAX_BLOCKS:
            continue
        per_block = keys // gz
        for loops in divisors(per_block):
            if MIN_TILE <= per_block // loops <= MAX_TILE:
                out.append(((gx, gy, gz), loops))
    return out


def _instances(
    first: Graph,
    op: Op,
    split: Pattern,
    operand_types: Sequence[TensorType],
    grid: tuple[int, int, int],
    loops: int,
    target: Target,
) -> list[Op]:
    """The first kernel at these extents, one per block size that fits and lowers (more
    warps a block: more query rows share each key tile it loads)."""
    structure = Op("graph", op.operands, first.output_types, op.attrs, first)
    out: list[Op] = []
    for block in BLOCK_SIZES:
        new = instantiate(structure, split, operand_types, grid, loops, block)
        if new is None or not check_fit(new, target).ok or lowered_facts(new, target) is None:
            continue
        out.append(new)
    return out


def _combine(
    first: Op, pattern: Pattern, target: Target, price: Callable[[Op], float]
) -> Op | None:
    """The kernel that walks the slices of `first`'s results with accum_rescale, the one
    whose pair with `first` `price` rates cheapest (where clusters are on, a combine that
    runs in the first's launch, `cluster_join`, costs no launch and no device-memory round
    trip)."""
    numer, den, top = first.results
    args = (numer, den, top)
    f32 = COMPUTE_DTYPE
    ops: list[Op] = [
        make_op("input", [i], [TensorType(t.shape, f32)], imap=NO_MAP, forloop_dim=-1)
        for i, t in enumerate(args)
    ]
    ops.append(make_op("accum_rescale", [3, 5], [TensorType(numer.shape, f32)]))
    ops.append(make_op("accum_rescale", [4, 5], [TensorType(den.shape, f32)]))
    loop_end = len(ops)
    ops.append(make_op("div", [6, 7], [TensorType(numer.shape, f32)]))
    ops.append(make_op("output", [8], [TensorType(numer.shape, f32)], omap=NO_MAP))
    body = Graph(args, tuple(ops), (9,), loop_end)
    (omap,) = pattern.omaps
    last = len(numer.shape) - 1
    imap = (omap[0], omap[1], -1)
    combine = Pattern(
        (imap, imap, imap),
        (last, last, last),
        (omap,),
        (pattern.grid_used[0], pattern.grid_used[1], False),
        True,
        frozenset(),
    )
    structure = make_op("graph", [0, 1, 2], [TensorType(numer.shape, f32)], body=body)
    grid = first.ints_attr("grid")
    dims = [numer.shape[omap[g]] if omap[g] >= 0 else 1 for g in range(2)]
    best: Op | None = None
    best_cost = 0.0
    # A grid dim over dim 0 (the batch) takes it whole, as the first kernel does: a pair
    # separable along the batch is verified one batch slice at a time.
    extents = [[d] if omap[g] == 0 else divisors(d) for g, d in enumerate(dims)]
    for gx, gy in itertools.product(*extents):
        if gx * gy > MAX_BLOCKS:
            continue
        for block in BLOCK_SIZES:
            new = instantiate(structure, combine, args, (gx, gy, 1), grid[2], block)
            if new is None or not check_fit(new, target).ok:
                continue
            if lowered_facts(new, target) is None:
                continue
            cost = price(new)
            if best is None or cost < best_cost:
                best, best_cost = new, cost
    return best
