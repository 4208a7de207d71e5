"""Two graphs in one launch: the second runs in the blocks of the first, which form
thread-block clusters and hand their results over in distributed shared memory.

This is the split-KV pair's shape (`online_split`): each block of the first graph walks one
slice of the keys and keeps its partial results in shared-memory tiles; the second graph
walks the slices with a loop. Where the first graph's grid axis over the slices has as
many blocks as the second graph's loop has iterations, those blocks form one cluster, and
each block of the cluster then plays one block of the second graph: iteration i of its
loop reads its tile straight from the shared memory of cluster rank i. The pair costs one
launch, and its partial results never go to device memory.

A join needs (`find_join` says which condition fails):
- a target with clusters of that many blocks (`Target.max_cluster_blocks`);
- every streamed input of the second graph read from a result of the first that nothing
  else reads, stored by the first from an f32 tile of one plane;
- the second graph's loop walking the first's split dim one block tile a step, its grid
  cutting the other dims into `size` sub-tiles of the first's tiles, one per rank;
- loads by cp.async in the first graph (no producer warp), as many blocks in both grids.

The decision is the second graph's `mirage.join` attribute (`decisions.JoinAttr`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import INPUTS, OUTPUTS
from mirage.dialects.shapes import REPLICATE, dim_factors
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize import load_plan
from mirage.lowering.optimize.layout import align_up
from mirage.lowering.optimize.plan import Plan, PlanError, plan_graph_op

Index = Any
"""A Python int, or an integer of generated code (`llvm_builder.Int`)."""


class Arith(Protocol):
    """Index arithmetic on Python ints or on generated code (`llvm_builder.Builder`)."""

    def add(self, a: Index, b: Index) -> Index: ...
    def mul(self, a: Index, b: Index) -> Index: ...
    def udiv(self, a: Index, b: int) -> Index: ...
    def urem(self, a: Index, b: int) -> Index: ...


class _Ints:
    def add(self, a: Index, b: Index) -> Index:
        return a + b

    def mul(self, a: Index, b: Index) -> Index:
        return a * b

    def udiv(self, a: Index, b: int) -> Index:
        return a // b

    def urem(self, a: Index, b: int) -> Index:
        return a % b


INTS: Arith = _Ints()
"""`Arith` on Python ints (plan-time checks, tests)."""


@dataclass(frozen=True)
class Pull:
    """One input of the second graph read from the peers' shared memory."""

    arg: int
    """The second graph's operand (its body argument)."""
    result: int
    """The first graph's result it reads."""
    source: int
    """The first body's value that result stores (its tile holds the block's part)."""
    tile: tuple[int, ...]
    """The second graph's tile of that input (one loop iteration's)."""


@dataclass(frozen=True)
class ClusterJoin:
    """How the second graph of a pair runs in the first's launch."""

    axis: int
    """The first graph's grid axis the clusters span (over the split dim)."""
    size: int
    """Blocks per cluster: that axis's extent and the second graph's loop count."""
    split_dim: int
    """The tensor dim the first graph splits and the second graph's loop walks."""
    quotas: tuple[int, ...]
    """Per tensor dim: how many of the second graph's tiles one first-graph tile holds (1
    along the split dim); their product is `size`."""
    first_grid: tuple[int, int, int]
    first_omap: tuple[int, ...]
    """The first graph's output map of the pulled results (the same for each)."""
    second_grid: tuple[int, int, int]
    second_imap: tuple[int, ...]
    pulls: tuple[Pull, ...]

    @property
    def cluster(self) -> tuple[int, int, int]:
        dims = [1, 1, 1]
        dims[self.axis] = self.size
        return (dims[0], dims[1], dims[2])

    def sub_tile(self, ar: Arith, rank: Index) -> list[Index]:
        """Per tensor dim: which of the `quotas` sub-tiles the block of cluster rank `rank`
        plays (the dims in order, the last fastest)."""
        out: list[Index] = [0] * len(self.quotas)
        rest = rank
        for d in range(len(self.quotas) - 1, -1, -1):
            q = self.quotas[d]
            if q > 1:
                out[d] = ar.urem(rest, q)
                rest = ar.udiv(rest, q)
        return out

    def second_block(self, ar: Arith, first_block: Sequence[Index], rank: Index) -> list[Index]:
        """The second graph's block coordinates (x, y, z) that a block of the first plays."""
        sub = self.sub_tile(ar, rank)
        out: list[Index] = [0, 0, 0]
        for d, q in enumerate(self.quotas):
            if d == self.split_dim:
                continue
            coord: Index = 0
            for axis, parts in dim_factors(self.first_omap, self.first_grid, REPLICATE, 1, d):
                coord = ar.add(ar.mul(coord, parts), first_block[axis])
            coord = ar.add(ar.mul(coord, q), sub[d])
            for axis, parts in reversed(
                dim_factors(self.second_imap, self.second_grid, REPLICATE, 1, d)
            ):
                out[axis] = ar.urem(coord, parts)
                coord = ar.udiv(coord, parts)
        return out


def _single(ops: Sequence[Op], kinds: frozenset[str] | set[str]) -> list[tuple[int, Op]]:
    return [(i, o) for i, o in enumerate(ops) if o.kind in kinds]


CLUSTERS_BY_DEFAULT = False
"""Whether the lowering joins pairs unless told (`clusters` of `plan-ugraph` and the
targets; the cost model prices what the default builds). Off: measured on one NVIDIA H100
(benchmarks/RESULTS.md, 2026-12-07), every joined pair ran slower than the same pair as two
launches, 1.005x to 2.1x over 32 pairs (gqa b1's found pair 10.74 against 9.43 µs, gqa b8's
36.56 against 20.42 µs), while the model, pricing the saved launch and round trip, ranked
them faster."""

JOINABLE_LOADS = (load_plan.CP_ASYNC, load_plan.TMA)
"""The first graph's load strategies the joined kernel is built for: cp.async, and tensor
maps, whose producer warp sits out the second graph."""


def find_join(
    first: Op,
    first_results: Sequence[int],
    second: Op,
    exclusive: Sequence[bool],
    target: Target,
    first_loads: str,
    first_threads: int,
    verify: bool = True,
) -> ClusterJoin | str:
    """The join of `second` into `first`'s launch, or why there is none. `first_results`:
    the value ids of the first graph's results, which `second`'s operands name;
    `exclusive[r]`: whether result r is read by `second` alone (no other kernel, not a
    program output). `verify`: check every block's tiles by enumeration too (the lowering
    does; a cost estimate need not)."""
    b1, b2 = first.body, second.body
    assert b1 is not None and b2 is not None
    if target.max_cluster_blocks < 2:
        return f"{target.name} has no thread-block clusters"
    if first_loads not in JOINABLE_LOADS:
        return f"the first graph loads by {first_loads}"
    g1 = first.ints_attr("grid")
    g2 = second.ints_attr("grid")
    loops2 = second.int_attr("forloop_range")
    if math.prod(g1) != math.prod(g2):
        return f"grids of {math.prod(g1)} and {math.prod(g2)} blocks"
    if math.prod(second.ints_attr("block")) > first_threads:
        return "the second graph's blocks have more threads than the first's"
    outs1 = _single(b1.ops, OUTPUTS)
    result_of_output = {i: n for n, (i, _) in enumerate(outs1)}
    pulls: list[Pull] = []
    omap: tuple[int, ...] | None = None
    imap: tuple[int, ...] | None = None
    fdim = REPLICATE
    quotas: tuple[int, ...] | None = None
    for _, inp in _single(b2.ops, INPUTS):
        arg = inp.operands[0]
        this_fdim = inp.int_attr("forloop_dim")
        if this_fdim == REPLICATE:
            continue  # read once: from device memory, as usual
        source_result = second.operands[arg]
        if source_result not in first_results:
            return f"streamed input {arg} of the second graph is not a result of the first"
        r = list(first_results).index(source_result)
        if not exclusive[r]:
            return f"result {r} of the first graph is read elsewhere too"
        out_index = next(i for i, n in result_of_output.items() if n == r)
        out = b1.ops[out_index]
        this_omap = out.ints_attr("omap")
        this_imap = inp.ints_attr("imap")
        if omap is None:
            omap, imap, fdim = this_omap, this_imap, this_fdim
        elif (this_omap, this_imap, this_fdim) != (omap, imap, fdim):
            return "the pulled inputs are cut differently"
        source = out.operands[0]
        t1 = b1.type_of(source).shape
        t2 = inp.results[0].shape
        if b1.type_of(source).dtype != "f32" or out.results[0].dtype != "f32":
            return f"result {r} of the first graph is not stored in f32"
        q: list[int] = []
        for d, (a, b) in enumerate(zip(t1, t2, strict=True)):
            if d == this_fdim:
                q.append(1)
                if a != b:
                    return f"a loop step reads {b} of the {a} elements a block stores along dim {d}"
            elif a % b:
                return f"tiles of {b} do not cut the first graph's tiles of {a} along dim {d}"
            else:
                q.append(a // b)
        if quotas is None:
            quotas = tuple(q)
        elif quotas != tuple(q):
            return "the pulled inputs are tiled differently"
        pulls.append(Pull(arg, r, source, t2))
    if not pulls or omap is None or imap is None or quotas is None:
        return "the second graph streams no result of the first"
    axes = [a for a in range(3) if omap[a] == fdim]
    if len(axes) != 1 or any(imap[a] == fdim for a in range(3)):
        return "the split dim is not cut by exactly one grid axis of the first graph"
    axis = axes[0]
    size = g1[axis]
    if size != loops2 or size < 2:
        return f"{size} blocks along the split against {loops2} loop iterations"
    if size > target.max_cluster_blocks:
        return f"clusters of {size} blocks exceed the {target.max_cluster_blocks} of {target.name}"
    if math.prod(quotas) != size:
        return f"{math.prod(quotas)} second-graph tiles in a first-graph tile, not {size}"
    if any(g2[a] > 1 and imap[a] < 0 for a in range(3)):
        return "the second graph's grid replicates its inputs"
    grids = (g1[0], g1[1], g1[2]), (g2[0], g2[1], g2[2])
    join = ClusterJoin(axis, size, fdim, quotas, grids[0], omap, grids[1], imap, tuple(pulls))
    reason = _check(join, first, second) if verify else ""
    return reason if reason else join


def _check(join: ClusterJoin, first: Op, second: Op) -> str:
    """Every block of the second graph played once, and every loop step's tile inside the
    tile its peer holds (by enumeration: grids are small)."""
    ar = INTS
    g1, g2 = join.first_grid, join.second_grid
    loops = join.size
    played: set[tuple[int, ...]] = set()
    b1, b2 = first.body, second.body
    assert b1 is not None and b2 is not None
    for block in itertools.product(*(range(n) for n in g1)):
        rank = block[join.axis]
        b2id = tuple(int(c) for c in join.second_block(ar, block, rank))
        if any(not 0 <= c < n for c, n in zip(b2id, g2, strict=True)):
            return f"block {block} would play block {b2id} outside the second grid"
        played.add(b2id)
        sub = join.sub_tile(ar, rank)
        for pull in join.pulls:
            for step in range(loops):
                peer = list(block)
                peer[join.axis] = step
                for d, n in enumerate(pull.tile):
                    read = _origin(join.second_imap, g2, join.split_dim, loops, b2id, step, d) * n
                    t1 = n if d == join.split_dim else n * join.quotas[d]
                    wrote = _origin(join.first_omap, g1, REPLICATE, 1, tuple(peer), 0, d) * t1
                    want = 0 if d == join.split_dim else int(sub[d]) * n
                    if read - wrote != want:
                        return f"block {b2id}, step {step}: tile not where its peer holds it"
    if len(played) != math.prod(g2):
        return f"{len(played)} of the second graph's {math.prod(g2)} blocks played"
    return ""


def _origin(
    dmap: Sequence[int],
    grid: Sequence[int],
    fdim: int,
    loops: int,
    block: Sequence[int],
    step: int,
    d: int,
) -> int:
    """The tile index along dim `d` of block `block` at loop step `step`."""
    off = 0
    for axis, parts in dim_factors(dmap, grid, fdim, loops, d):
        off = off * parts + (block[axis] if axis < 3 else step)
    return off


SECOND_ALIGN = 1024
"""The joined graph's shared memory starts this aligned (a swizzle atom)."""


def second_offset(first: Plan, join: ClusterJoin, second_bytes: int) -> int:
    """Where the joined graph's `second_bytes` of shared memory start: the lowest aligned
    offset clear of the tiles the first graph keeps for its peers. The rest of the first's
    memory is free once the cluster barrier has passed (its copies were waited for and
    its stores issued), so the pair needs little more than the first graph alone: two
    blocks an SM stay two."""
    tiles = [first.tiles[p.source] for p in join.pulls]
    taken = [(t.offset, t.offset + t.total_bytes) for t in tiles]
    barriers = load_plan.mbarrier_bytes(first.loads, first.stages)
    if barriers:  # an mbarrier's memory is not reused without invalidating it
        taken.append((first.mbarriers, first.mbarriers + barriers))
    return clear_offset(taken, second_bytes)


def clear_offset(taken: Sequence[tuple[int, int]], size: int) -> int:
    """The lowest `SECOND_ALIGN`-aligned offset of `size` bytes overlapping none of the
    byte ranges `taken` ([start, end))."""
    starts = sorted({0, *(align_up(end, SECOND_ALIGN) for _, end in taken)})
    return next(s for s in starts if all(s + size <= lo or s >= hi for lo, hi in taken))


def joined_smem(first: Plan, join: ClusterJoin, second: Plan) -> int:
    """The shared memory of the launch that runs both graphs. Offsets count from the first
    graph's base, which its kernel may have moved up by as much as its alignment slack."""
    offset = second_offset(first, join, second.smem_bytes)
    slack = load_plan.alignment_slack(first.tiles)
    return max(first.smem_bytes, slack + offset + second.smem_bytes)


def plan_second(
    second: Op, join: ClusterJoin, first: Plan, target: Target, matmuls: str
) -> Plan | str:
    """The second graph's plan inside the first's launch, or why it does not fit: the first
    graph's threads, every loop step's pulled tiles resident (as many stages as steps), its
    shared memory after the first's (the first's tiles stay alive for the peers)."""
    body = second.body
    assert body is not None
    for pull in join.pulls:
        t = first.tiles.get(pull.source)
        if t is None or pull.source in first.virtual:
            return f"the first graph keeps value {pull.source} in no shared-memory tile"
        if t.planes != 1 or t.stages != 1 or t.finalize[0] or t.dtype != "f32":
            return f"the first graph's tile of value {pull.source} is not one plain f32 tile"
    try:
        plan = plan_graph_op(
            body,
            second.ints_attr("grid"),
            (first.threads, 1, 1),
            second.int_attr("forloop_range"),
            target,
            join.size,
            load_plan.CP_ASYNC,
            matmuls,
        )
    except PlanError as e:
        return f"the joined graph does not plan: {e}"
    if plan.stages != join.size:
        return f"the joined graph plans {plan.stages} stages, not {join.size}"
    total = joined_smem(first, join, plan)
    if total > target.shared_memory_per_block:
        return (
            f"the pair needs {total} bytes of shared memory, more than the "
            f"{target.shared_memory_per_block} of {target.name}"
        )
    return plan


def function_joins(
    g: Graph, plans: dict[int, Plan], target: Target
) -> dict[int, tuple[ClusterJoin, int]]:
    """The joins among `g`'s consecutive graphs: the second's op index -> (its join, the
    first's op index). `plans`: the graphs' own plans, by op index."""
    readers: dict[int, list[int]] = {}
    for index, (op, _) in enumerate(g.result_ids()):
        for v in op.operands:
            readers.setdefault(v, []).append(index)
    entries = list(g.result_ids())
    out: dict[int, tuple[ClusterJoin, int]] = {}
    for index in range(1, len(entries)):
        (first, results), (second, _) = entries[index - 1], entries[index]
        if first.kind != "graph" or second.kind != "graph" or index - 1 not in plans:
            continue
        if index - 1 in out:  # a joined graph does not host another
            continue
        exclusive = [r not in g.outputs and readers.get(r, []) == [index] for r in results]
        first_plan = plans[index - 1]
        join = find_join(
            first, results, second, exclusive, target, first_plan.loads, first_plan.threads
        )
        if isinstance(join, ClusterJoin):
            out[index] = (join, index - 1)
    return out


__all__ = [
    "INTS",
    "Arith",
    "ClusterJoin",
    "Pull",
    "clear_offset",
    "find_join",
    "function_joins",
    "joined_smem",
    "plan_second",
    "second_offset",
]
