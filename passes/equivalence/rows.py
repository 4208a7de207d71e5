"""Programs whose rows are independent given shared weights: a test of the first rows is a
whole test.

`batch.py` takes programs whose every argument is batched along dim 0. A linear layer is not
one: x (M, K) is cut into rows, the weight (N, K) and the bias are shared by every row. Such a
program is out = [g(x[i], W) for each row i] for one function g, and a candidate that is cut
the same way, down to its blocks (every block op computes row r of its tiles from row r of
its row tiles and whole shared tiles), is [G(x[i], W) for each row i] for the block graph
G run on tiles of one row. The two are equal exactly when G and g are; a random test of
both programs cut down to their first rows (fresh random rows and weights) tests exactly
that, at a fraction of the work. The shared arguments are not cut: they are the same for
every row, so a test of the first rows is one whole test of the cut programs, not several.

The rows lie along dim 0, or along the first dim of extent above 1 where the dims before it
have extent 1 everywhere: the batch-1 program of a batch-separable attention (`batch.py`,
one head of (1, queries, d)) separates into its query rows, K and V shared by every row.

A value is batched (extent B on the row dim, row i computed from row i of the batched
operands and the shared values) or shared (computed from shared arguments alone). The rules
are conservative: an op kind not listed, a shared operand that is not broadcast along the
row dim of a batched one, a launch whose grid cuts a batched tensor's row dim with more than
one grid dim, walks it with its for-loop, reads or writes it through a view, or cuts a shared
tensor by the grid dim that walks the rows, makes a program not row-separable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from mirage.dialects.opkinds import (
    ACCUMULATORS,
    CONCATS,
    CONSTANTS,
    CONTRACTIONS,
    FUSES,
    INPUTS,
    LAST_DIM_ACCUMULATORS,
    LAUNCHES,
    NORMS,
    OUTPUTS,
    PERMUTES,
    POINTWISE,
    REDUCTIONS,
    RESHAPES,
    SLICES,
)
from mirage.dialects.shapes import REPLICATE
from mirage.dialects.strides import row_major
from mirage.dialects.ugraph.graph import Graph, Op, TensorType

BATCHED, SHARED = "batched", "shared"


@dataclass(frozen=True)
class Rows:
    """How a program separates into rows."""

    batch: int
    """B: the extent of the row dim of the batched arguments and outputs."""
    batched: frozenset[int]
    """The arguments cut into rows; the others are shared by every row."""
    states: tuple[tuple[str, ...], ...]
    """Per launch (in program order), the state of every value of its block graph."""
    dim: int = 0
    """The row dim; every dim before it has extent 1 in the batched values."""


def row_separable(graph: Graph, batched: frozenset[int] | None = None) -> Rows | None:
    """How the kernel-level `graph` separates into rows with the arguments `batched` cut
    (default: the first one that does, of all arguments whose row dim has the outputs'
    extent, or the first argument alone), or None. The row dim is the first output's first
    dim of extent above 1."""
    if not graph.args or not graph.outputs:
        return None
    out0 = [graph.type_of(v).shape for v in graph.outputs]
    dim = next((d for d, e in enumerate(out0[0]) if e > 1), None)
    if dim is None:
        return None
    batch = out0[0][dim]
    if any(not _rowed(s, dim, batch) for s in out0):
        return None
    if batched is not None:
        return _rows(graph, batch, batched, dim)
    same = frozenset(i for i, t in enumerate(graph.args) if _rowed(t.shape, dim, batch))
    for choice in (same, *(frozenset({i}) for i in sorted(same))):
        if choice:
            found = _rows(graph, batch, choice, dim)
            if found is not None:
                return found
    return None


def _rowed(shape: tuple[int, ...], dim: int, batch: int) -> bool:
    """A shape whose row dim `dim` has extent `batch`, every dim before it extent 1."""
    return len(shape) > dim and shape[dim] == batch and all(e == 1 for e in shape[:dim])


def row_local_view(bop: Op, storage: tuple[int, ...], dim: int, batch: int) -> bool:
    """Whether the view of iterator `bop` on a tensor of shape `storage` (rows along `dim`,
    extent `batch`, every dim before it of extent 1) reads row i of its own dim `dim` from
    row i of the tensor alone: the same extent and the tensor's own stride on that dim,
    and every later element, offset included, within one row."""
    view, strides = bop.layout(storage)
    if not _rowed(view, dim, batch) or not _rowed(storage, dim, batch):
        return False
    row = row_major(storage)[dim]
    later = zip(view[dim + 1 :], strides[dim + 1 :], strict=True)
    reach = bop.offset + sum((n - 1) * s for n, s in later)
    return strides[dim] == row and bop.offset >= 0 and reach < row


def _rows(graph: Graph, batch: int, batched: frozenset[int], dim: int) -> Rows | None:
    if any(not _rowed(graph.args[i].shape, dim, batch) for i in batched):
        return None
    state: list[str] = [BATCHED if i in batched else SHARED for i in range(len(graph.args))]
    launches: list[tuple[str, ...]] = []
    for op, _ in graph.result_ids():
        ins = [state[v] for v in op.operands]
        if op.kind in CONSTANTS:
            # a splat: every row the same, so a constant of B rows is sliced with the rest
            rows = all(_rowed(t.shape, dim, batch) for t in op.results)
            state.extend([BATCHED if rows else SHARED] * len(op.results))
            continue
        if all(s == SHARED for s in ins):
            if op.kind in LAUNCHES:
                assert op.body is not None
                launches.append(tuple(SHARED for _ in range(op.body.num_values)))
            state.extend([SHARED] * len(op.results))
            continue
        shapes = [graph.type_of(v).shape for v in op.operands]
        if any(not _rowed(t.shape, dim, batch) for t in op.results):
            return None
        if op.kind in LAUNCHES:
            inner = _launch_states(op, ins, dim)
            if inner is None:
                return None
            launches.append(inner)
        elif not _rowwise(op, ins, shapes, batch, dim):
            return None
        state.extend([BATCHED] * len(op.results))
    if any(state[v] != BATCHED for v in graph.outputs):
        return None
    return Rows(batch, batched, tuple(launches), dim)


def _broadcast(shape: tuple[int, ...], rank: int, dim: int) -> bool:
    """A shared operand that every row of a rank-`rank` batched result reads whole."""
    return not shape or (len(shape) == rank and shape[dim] == 1)


def _rowwise(op: Op, ins: list[str], shapes: list[tuple[int, ...]], batch: int, dim: int) -> bool:
    """Whether the plain kernel op `op` computes row i (along `dim`) of its results from row
    i of its batched operands and the whole of its shared ones."""
    kind = op.kind
    rank = len(op.results[0].shape)
    pairs = list(zip(ins, shapes, strict=True))
    if not all(s == SHARED or _rowed(shape, dim, batch) for s, shape in pairs):
        return False
    shared_ok = all(s == BATCHED or _broadcast(shape, rank, dim) for s, shape in pairs)
    if kind in POINTWISE:
        return shared_ok
    if kind in FUSES:
        assert op.body is not None
        return shared_ok and all(b.kind in POINTWISE for b in op.body.ops)
    if kind in CONTRACTIONS:
        (a, b), (sa, sb) = ins, shapes
        if a == BATCHED and b == BATCHED:
            return dim < len(sa) - 2 and dim < len(sb) - 2  # a batch dim of both
        if a != BATCHED:
            return False
        if dim == len(sa) - 2:
            return True  # x (rows, k) @ W (k, n): the rows of the lhs
        # a batch dim of the lhs, the weight broadcast along it (batch dims align right)
        at = dim - (len(sa) - len(sb))
        return dim < len(sa) - 2 and (at < 0 or sb[at] == 1)
    if kind in REDUCTIONS or kind in CONCATS:
        reduced = op.int_attr("dim")
        return all(s == BATCHED for s in ins) and reduced != dim and 0 <= reduced < len(shapes[0])
    if kind in NORMS:  # the last dim; a gain or bias is shared, broadcast over the rows
        return ins[0] == BATCHED and len(shapes[0]) >= dim + 2 and shared_ok
    if kind in ACCUMULATORS:  # along the loop, elementwise or over the last dim
        return shared_ok and (kind not in LAST_DIM_ACCUMULATORS or dim < rank - 1)
    if kind in PERMUTES:
        return op.ints_attr("permutation")[: dim + 1] == tuple(range(dim + 1))
    if kind in SLICES:
        return op.ints_attr("offsets")[dim] == 0
    return kind in RESHAPES


def _launch_states(op: Op, ins: list[str], dim: int) -> tuple[str, ...] | None:
    """The state of every value of the block graph of launch `op` (operand states `ins`),
    where every block op is row-wise on the block's row tiles, at most one grid dim cuts the
    rows, the for-loop never walks them, no view reads or writes a row tensor, and the grid
    dim that cuts the rows cuts no shared input; else None. Every block then computes each
    row of its tiles from that row and the shared tiles, by the same block graph."""
    body = op.body
    assert body is not None
    args = len(body.args)
    state = list(ins)
    cuts: set[int] = set()
    shared_maps: list[tuple[int, ...]] = []
    rows: set[int] = set()
    for bop, _ in body.result_ids():
        if bop.kind in INPUTS:
            if bop.operands[0] >= args:
                return None
            imap = bop.ints_attr("imap")
            if state[bop.operands[0]] == SHARED:
                shared_maps.append(imap)
                state.append(SHARED)
                continue
            if bop.int_attr("forloop_dim") == dim:
                return None
            storage = body.args[bop.operands[0]].shape
            if bop.viewed and not row_local_view(bop, storage, dim, _extent(storage, dim)):
                return None
            dmap = imap
        elif bop.kind in OUTPUTS:
            if state[bop.operands[0]] != BATCHED:
                return None
            storage = bop.results[0].shape
            if bop.viewed and not row_local_view(bop, storage, dim, _extent(storage, dim)):
                return None
            dmap = bop.ints_attr("omap")
        elif any(v < args for v in bop.operands):
            return None  # only input iterators may read the launch's device tensors
        else:
            ins_b = [state[v] for v in bop.operands]
            if all(s == SHARED for s in ins_b):
                state.extend([SHARED] * len(bop.results))
                continue
            shapes = [body.type_of(v).shape for v in bop.operands]
            tile = next(sh[dim] for s, sh in zip(ins_b, shapes, strict=True) if s == BATCHED)
            if any(not _rowed(t.shape, dim, tile) for t in bop.results):
                return None
            if not _rowwise(bop, ins_b, shapes, tile, dim):
                return None
            rows.add(tile)
            state.extend([BATCHED] * len(bop.results))
            continue
        cut = [g for g in range(len(dmap)) if dmap[g] == dim]
        if len(cut) > 1:
            return None
        cuts.update(cut)
        row_tile = bop.results[0] if bop.kind in INPUTS else body.type_of(bop.operands[0])
        if len(row_tile.shape) <= dim:
            return None
        rows.add(row_tile.shape[dim])
        state.append(BATCHED)
    if len(cuts) > 1 or len(rows) > 1:
        return None
    if cuts and any(m[g] != REPLICATE for m in shared_maps for g in cuts):
        return None
    savers = {r for bop, rs in body.result_ids() if bop.kind in OUTPUTS for r in rs}
    if not all(o in savers for o in body.outputs):
        return None
    return tuple(state)


def _extent(shape: tuple[int, ...], dim: int) -> int:
    return shape[dim] if len(shape) > dim else 0


def first_rows(graph: Graph, rows: Rows, count: int) -> Graph:
    """`graph` cut down to the first `count` rows of its row values (`count` < B): each
    launch runs its row-cutting grid dim once, on row tiles of `count` rows; shared values
    stay whole."""
    assert 0 < count < rows.batch
    batch, dim = rows.batch, rows.dim
    state = [i in rows.batched for i in range(len(graph.args))]
    launches = iter(rows.states)
    ops: list[Op] = []
    for op, _ in graph.result_ids():
        inner = next(launches) if op.kind in LAUNCHES else None
        if op.kind in CONSTANTS:
            cut = all(_rowed(t.shape, dim, batch) for t in op.results)
        else:
            cut = any(state[v] for v in op.operands)
        state.extend([cut] * len(op.results))
        if not cut:
            ops.append(op)
            continue
        results = tuple(_cut(t, dim, count) for t in op.results)
        if inner is not None:
            ops.append(_cut_launch(op, results, inner, dim, count))
        else:
            ops.append(replace(op, results=results))
    args = tuple(_cut(t, dim, count) if i in rows.batched else t for i, t in enumerate(graph.args))
    return Graph(args, tuple(ops), graph.outputs, graph.loop_end)


def _cut(ty: TensorType, dim: int, count: int) -> TensorType:
    return TensorType((*ty.shape[:dim], count, *ty.shape[dim + 1 :]), ty.dtype)


def _cut_launch(
    op: Op, results: tuple[TensorType, ...], states: Sequence[str], dim: int, count: int
) -> Op:
    body = op.body
    assert body is not None
    grid = op.ints_attr("grid")
    cut_dims = {
        g
        for bop, _ in body.result_ids()
        if bop.kind in INPUTS | OUTPUTS
        and (bop.kind in OUTPUTS or states[bop.operands[0]] == BATCHED)
        for g, d in enumerate(bop.ints_attr("imap" if bop.kind in INPUTS else "omap"))
        if d == dim
    }
    new_grid = tuple(1 if d in cut_dims else e for d, e in enumerate(grid))
    attrs = tuple((k, new_grid if k == "grid" else v) for k, v in op.attrs)
    args = tuple(
        _cut(t, dim, count) if s == BATCHED else t
        for t, s in zip(body.args, states[: len(body.args)], strict=True)
    )
    body_ops: list[Op] = []
    for bop, ids in body.result_ids():
        if bop.kind in INPUTS and states[bop.operands[0]] == BATCHED:
            bop = cut_view(bop, dim, count)
        if ids and states[ids[0]] == BATCHED:
            bop = replace(bop, results=tuple(_cut(t, dim, count) for t in bop.results))
            if bop.kind in OUTPUTS:
                bop = cut_view(bop, dim, count)
        body_ops.append(bop)
    new_body = Graph(args, tuple(body_ops), body.outputs, body.loop_end)
    return replace(op, results=results, attrs=attrs, body=new_body)


def cut_view(bop: Op, dim: int, count: int) -> Op:
    """Iterator `bop` with its view (a row-local one, `row_local_view`) cut to `count`
    rows: the strides stay, as every row keeps its place in the tensor's storage."""
    if not bop.viewed:
        return bop
    view = bop.ints_attr("view")
    cut = (*view[:dim], count, *view[dim + 1 :])
    return replace(bop, attrs=tuple((k, cut if k == "view" else v) for k, v in bop.attrs))
