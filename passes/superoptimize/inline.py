"""Tile-local producer kernels inlined into the kernels that read them.

A graph-defined kernel P that turns a tensor X into Y (a normalization, say) and a kernel C
that loads tiles of Y: when each element of Y depends only on elements of X that C's tile
of X holds too, C can load the tile of X and compute the tile of Y itself. Y then never
goes through device memory and, when nothing else reads P, P's launch disappears. This is
how the Mirage paper's qknorm μGraph normalizes the Q and K tiles inside the attention
kernel; the search's segments (`partition.py`) cut the program between the norms and the
attention, so the composed candidate writes the normalized tensors out and reads them back.

Tile-local means here: P runs one loop iteration (so its accum_sum and accum_max are the
identity); Y is computed from inputs of Y's shape, each read with the map Y is saved with,
by elementwise and scaled ops (mul_scalar, add_scalar, ...), rms_norm (over the last dim)
and reduce_sum (over a dim d); and both P's tile and C's tile hold every reduced dim whole.
Then Y = f(X) for an f that works on whole fibres of the reduced dims, and any tile that
holds those fibres computes its part of Y exactly. Anything else is left as it is; the
verifier still checks every candidate this makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mirage.dialects.opkinds import (
    FUSED,
    INPUTS,
    LAUNCHES,
    NORMS,
    OUTPUTS,
    PLAIN_ACCUMULATORS,
    SUM_REDUCTIONS,
)
from mirage.dialects.shapes import REPLICATE, ShapeError
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.superoptimize.infer import result_shape
from mirage.passes.superoptimize.precision import narrow_body

_POINTWISE = FUSED
_IDENTITY_OVER_ONE_ITERATION = PLAIN_ACCUMULATORS


@dataclass(frozen=True, slots=True)
class Recipe:
    """How a producer kernel computes one of its outputs from tiles of its inputs."""

    sources: tuple[int, ...]
    """Kernel-level values that the producer's iterators read, one per iterator."""
    ops: tuple[Op, ...]
    """The compute ops, at the producer's tile shape. Local value k < len(sources) is the
    tile of source k; then each op's result, in order."""
    result: int
    """The local value that the producer saves as the output."""
    reduced: frozenset[int]
    """Tensor dims that a tile must hold whole for the recipe to compute its part."""


def inline_producers(graph: Graph) -> Graph | None:
    """The kernel-level graph with tile-local producer kernels computed inside the kernels
    that read them, and those producers gone where nothing else reads them; None where no
    iterator can be inlined."""
    current = graph
    inlined: set[int] = set()
    while True:
        step = _inline_one(current)
        if step is None:
            break
        current, producer = step
        inlined.add(producer)
    if not inlined:
        return None
    return _without_unread(current, inlined)


def producer_recipe(graph: Graph, producer: int, output: int) -> Recipe | None:
    """How kernel op `producer` computes its result number `output` tile by tile, or None
    where that computation is not tile-local in the sense of this module."""
    op = graph.ops[producer]
    body = op.body
    if op.kind not in LAUNCHES or body is None or op.int_attr("forloop_range") != 1:
        return None
    grid = op.ints_attr("grid")
    made_by = body.producers()
    saver = body.ops[made_by[body.outputs[output]]]
    if saver.kind not in OUTPUTS:
        return None
    saved_at = _cut_by(saver.ints_attr("omap"), grid)
    full = op.results[output].shape
    n_args = len(body.args)

    def through_identity(v: int) -> int:
        while v >= n_args and body.ops[made_by[v]].kind in _IDENTITY_OVER_ONE_ITERATION:
            v = body.ops[made_by[v]].operands[0]
        return v

    cone: set[int] = set()
    pending = [through_identity(saver.operands[0])]
    while pending:
        v = pending.pop()
        if v < n_args:
            return None  # a block graph reads device tensors only through iterators
        j = made_by[v]
        if j in cone:
            continue
        bop = body.ops[j]
        if len(bop.results) != 1:
            return None
        if bop.kind in INPUTS:
            source = op.operands[bop.operands[0]]
            if graph.type_of(source).shape != full:
                return None
            if _cut_by(bop.ints_attr("imap"), grid) != saved_at:
                return None  # the block would compute a tile of Y from elsewhere in X
            cone.add(j)
            continue
        if bop.kind not in _POINTWISE | NORMS | SUM_REDUCTIONS:
            return None
        cone.add(j)
        pending.extend(through_identity(u) for u in bop.operands)

    iterators = [j for j in sorted(cone) if body.ops[j].kind in INPUTS]
    computes = [j for j in sorted(cone) if body.ops[j].kind not in INPUTS]
    local = {n_args + j: k for k, j in enumerate(iterators)}
    ops: list[Op] = []
    reduced: set[int] = set()
    for j in computes:
        bop = body.ops[j]
        if bop.kind in NORMS:
            reduced.add(len(full) - 1)
        elif bop.kind in SUM_REDUCTIONS:
            reduced.add(bop.int_attr("dim"))
        operands = tuple(local[through_identity(u)] for u in bop.operands)
        ops.append(Op(bop.kind, operands, bop.results, bop.attrs, bop.body))
        local[n_args + j] = len(iterators) + len(ops) - 1
    for j in iterators:
        tile = body.ops[j].results[0].shape
        if any(tile[d] != full[d] for d in reduced):
            return None  # P itself computes a different Y: per-tile partial reductions
    return Recipe(
        tuple(op.operands[body.ops[j].operands[0]] for j in iterators),
        tuple(ops),
        local[through_identity(saver.operands[0])],
        frozenset(reduced),
    )


def _cut_by(dmap: Sequence[int], grid: Sequence[int]) -> tuple[int, ...]:
    """Which tensor dim each grid dim cuts; a grid dim of extent 1 cuts nothing."""
    return tuple(d if grid[g] > 1 else REPLICATE for g, d in enumerate(dmap))


def _inline_one(graph: Graph) -> tuple[Graph, int] | None:
    """The graph with the first iterator that can be inlined inlined, and the index of the
    producer it read from."""
    made_by = graph.producers()
    for c, op in enumerate(graph.ops):
        if op.kind not in LAUNCHES or op.body is None:
            continue
        for j, bop in enumerate(op.body.ops):
            if bop.kind not in INPUTS:
                continue
            producer = made_by.get(op.operands[bop.operands[0]])
            if producer is None:
                continue
            new = _inline_at(graph, c, j, producer)
            if new is not None:
                ops = (*graph.ops[:c], new, *graph.ops[c + 1 :])
                return Graph(graph.args, ops, graph.outputs, graph.loop_end), producer
    return None


def _inline_at(graph: Graph, consumer: int, iterator: int, producer: int) -> Op | None:
    """Kernel op `consumer` with its body op `iterator` (which reads a result of kernel op
    `producer`) replaced by iterators over the producer's inputs and the producer's
    computation at the consumer's tile shape; None where that is not sound."""
    cop = graph.ops[consumer]
    body = cop.body
    assert body is not None
    if iterator >= body.loop_end:
        return None  # iterators run in the loop; the recipe is placed where the tile is
    it = body.ops[iterator]
    y = cop.operands[it.operands[0]]
    ids = [r for _, r in graph.result_ids()]
    recipe = producer_recipe(graph, producer, ids[producer].index(y))
    if recipe is None:
        return None
    full = graph.type_of(y).shape
    tile = it.results[0].shape
    if any(tile[d] != full[d] for d in recipe.reduced):
        return None

    operands = list(cop.operands)
    args = list(body.args)
    source_args: list[int] = []
    for x in recipe.sources:
        if x not in operands:
            operands.append(x)
            args.append(graph.type_of(x))
        source_args.append(operands.index(x))

    types: list[TensorType] = list(args)
    ops: list[Op] = []
    number = {a: a for a in range(len(body.args))}
    loop_end = len(body.ops)

    def emit(op: Op) -> tuple[int, ...]:
        ops.append(op)
        first = len(types)
        types.extend(op.results)
        return tuple(range(first, len(types)))

    for j, (bop, results) in enumerate(body.result_ids()):
        if j == body.loop_end:
            loop_end = len(ops)
        if j != iterator:
            number.update(zip(results, emit(_renumbered(bop, number)), strict=True))
            continue
        local: list[int] = []
        for x, a in zip(recipe.sources, source_args, strict=True):
            tile_type = TensorType(tile, graph.type_of(x).dtype)
            local.extend(emit(Op("input", (a,), (tile_type,), it.attrs)))
        for k, rop in enumerate(recipe.ops):
            in_shapes = [types[local[u]].shape for u in rop.operands]
            try:
                shape = result_shape(rop.kind, dict(rop.attrs), in_shapes)
            except ShapeError:
                return None
            # C read Y in Y's element type; keeping it keeps a matmul that reads the value
            # on the tensor cores (an f32 rms_norm result would send it to the CUDA cores).
            last = len(recipe.sources) + k == recipe.result
            dtype = it.results[0].dtype if last else rop.results[0].dtype
            operands_now = tuple(local[u] for u in rop.operands)
            local.extend(
                emit(Op(rop.kind, operands_now, (TensorType(shape, dtype),), rop.attrs, rop.body))
            )
        number[results[0]] = local[recipe.result]
    if body.loop_end == len(body.ops):
        loop_end = len(ops)
    new_body = Graph(tuple(args), tuple(ops), tuple(number[v] for v in body.outputs), loop_end)
    kept, new_body = _without_unread_args(narrow_body(new_body))
    return Op("graph", tuple(operands[a] for a in kept), cop.results, cop.attrs, new_body)


def _without_unread_args(body: Graph) -> tuple[list[int], Graph]:
    """The body without the arguments that no op reads, and the indices of those kept."""
    n_args = len(body.args)
    read = {v for op in body.ops for v in op.operands if v < n_args}
    kept = [a for a in range(n_args) if a in read]
    if len(kept) == n_args:
        return kept, body
    number = {a: k for k, a in enumerate(kept)}
    n = len(kept)
    ops: list[Op] = []
    for op, results in body.result_ids():
        ops.append(_renumbered(op, number))
        for r in results:
            number[r] = n
            n += 1
    args = tuple(body.args[a] for a in kept)
    outputs = tuple(number[v] for v in body.outputs)
    return kept, Graph(args, tuple(ops), outputs, body.loop_end)


def _without_unread(graph: Graph, candidates: set[int]) -> Graph:
    """The graph without those of the `candidates` ops whose results nothing reads any more
    (removing one may leave another unread)."""
    removed: set[int] = set()
    ids = [r for _, r in graph.result_ids()]
    while True:
        read = set(graph.outputs) | {
            v for j, op in enumerate(graph.ops) if j not in removed for v in op.operands
        }
        unread = {j for j in candidates - removed if not read & set(ids[j])}
        if not unread:
            break
        removed |= unread
    if not removed:
        return graph
    number = {a: a for a in range(len(graph.args))}
    n = len(graph.args)
    ops: list[Op] = []
    for j, (op, results) in enumerate(graph.result_ids()):
        if j in removed:
            continue
        ops.append(_renumbered(op, number))
        for r in results:
            number[r] = n
            n += 1
    return Graph(graph.args, tuple(ops), tuple(number[v] for v in graph.outputs), graph.loop_end)


def _renumbered(op: Op, number: dict[int, int]) -> Op:
    return Op(op.kind, tuple(number[v] for v in op.operands), op.results, op.attrs, op.body)
