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
Where no such dim separates, a later one may, the dims before it the same in every cut
argument and output (each row a slab across them): the queries of (1, heads, queries, d)
in grouped-query attention, whose K and V heads each serve several query heads.

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
    ITERATORS,
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

SHARED = -1
"""The row dim of a value that every row shares (`Rows.values`, `Rows.states`)."""


@dataclass(frozen=True)
class Rows:
    """How a program separates into rows."""

    batch: int
    """B: the extent of the row dim of the batched arguments and outputs."""
    batched: frozenset[int]
    """The arguments cut into rows; the others are shared by every row."""
    states: tuple[tuple[int, ...], ...]
    """Per launch (in program order), the row dim of every value of its block graph
    (`SHARED` for a shared value)."""
    dim: int = 0
    """The row dim of the batched arguments and outputs."""
    lead: tuple[int, ...] = ()
    """The extents of the dims before `dim` in the batched arguments and outputs (ones,
    unless a later dim separates where the first one does not)."""
    values: tuple[int, ...] = ()
    """The row dim of every kernel-level value (`SHARED` for a shared one). Inside the
    program a transpose moves it and a reshape may merge it with the dims after it: row i
    of a value is then the i-th of B equal runs of its row dim."""


def row_separable(
    graph: Graph, batched: frozenset[int] | None = None, dim: int | None = None
) -> Rows | None:
    """How the kernel-level `graph` separates into rows along `dim` with the arguments
    `batched` cut (defaults: the first dim of extent above 1 of the first output where
    that separates, else a later one; the first choice of arguments that does, of all
    arguments whose row dim has the outputs' extent, or the first argument alone), or
    None."""
    if not graph.args or not graph.outputs:
        return None
    out0 = [graph.type_of(v).shape for v in graph.outputs]
    dims = [d for d, e in enumerate(out0[0]) if e > 1]
    if dim is not None:
        dims = [dim] if dim in dims else []
    for d in dims:
        batch, lead = out0[0][d], out0[0][:d]
        if any(not _rowed(s, d, batch, lead) for s in out0):
            continue
        if batched is not None:
            found = _rows(graph, batch, batched, d, lead)
            if found is not None:
                return found
            continue
        same = frozenset(i for i, t in enumerate(graph.args) if _rowed(t.shape, d, batch, lead))
        for choice in (same, *(frozenset({i}) for i in sorted(same))):
            if choice:
                found = _rows(graph, batch, choice, d, lead)
                if found is not None:
                    return found
    return None


def _rowed(
    shape: tuple[int, ...], dim: int, batch: int, lead: tuple[int, ...] | None = None
) -> bool:
    """A shape whose row dim `dim` has extent `batch`, the dims before it `lead` (every
    one extent 1 where not given)."""
    if len(shape) <= dim or shape[dim] != batch:
        return False
    return tuple(shape[:dim]) == (lead if lead is not None else (1,) * dim)


def row_local_view(bop: Op, storage: tuple[int, ...], dim: int, batch: int) -> int | None:
    """The dim of the view of iterator `bop` on a tensor of shape `storage` (rows along
    `dim`, extent `batch`) that walks the tensor's rows, where row i of the view is row i
    of the tensor: the extent `batch` and the tensor's own stride on `dim`, every other view
    dim (and the offset) within one row or a whole number of row slabs across the dims
    before `dim` (the heads of a (heads, queries, d) tensor); else None."""
    view, strides = bop.layout(storage)
    if len(storage) <= dim or storage[dim] != batch:
        return None
    row = row_major(storage)[dim]
    slab = row * batch
    walks = [
        j for j, (n, st) in enumerate(zip(view, strides, strict=True)) if n == batch and st == row
    ]
    if len(walks) != 1:
        return None
    (j,) = walks
    reach = bop.offset % slab
    for i, (n, st) in enumerate(zip(view, strides, strict=True)):
        if i == j or n == 1:
            continue
        if st % slab:
            reach += (n - 1) * st
    return j if bop.offset >= 0 and reach < row else None


def _rows(
    graph: Graph, batch: int, batched: frozenset[int], dim: int, lead: tuple[int, ...]
) -> Rows | None:
    if any(not _rowed(graph.args[i].shape, dim, batch, lead) for i in batched):
        return None
    state = [dim if i in batched else SHARED for i in range(len(graph.args))]
    launches: list[tuple[int, ...]] = []
    for op, _ in graph.result_ids():
        ins = [state[v] for v in op.operands]
        if op.kind in CONSTANTS:
            # a splat: every row the same, so a constant of B rows is sliced with the rest
            rows = all(_rowed(t.shape, dim, batch, lead) for t in op.results)
            state.extend([dim if rows else SHARED] * len(op.results))
            continue
        if all(s == SHARED for s in ins):
            if op.kind in LAUNCHES:
                assert op.body is not None
                launches.append(tuple(SHARED for _ in range(op.body.num_values)))
            state.extend([SHARED] * len(op.results))
            continue
        shapes = [graph.type_of(v).shape for v in op.operands]
        if op.kind in LAUNCHES:
            # a launch reads and writes whole rows of unmerged row tensors
            if any(not _rowed(t.shape, dim, batch, lead) for t in op.results):
                return None
            inner = _launch_states(op, ins, dim)
            if inner is None:
                return None
            launches.append(inner)
            state.extend([dim] * len(op.results))
            continue
        if len(op.results) != 1:
            return None
        found = _row_dim(op, ins, shapes, batch)
        if found is None:
            return None
        state.append(found)
    if any(state[v] != dim for v in graph.outputs):
        return None
    return Rows(batch, batched, tuple(launches), dim, lead=lead, values=tuple(state))


def _broadcast(shape: tuple[int, ...], rank: int, dim: int) -> bool:
    """A shared operand that every row of a rank-`rank` batched result reads whole."""
    return not shape or (len(shape) == rank and shape[dim] == 1)


def _reshaped_dim(
    shape: tuple[int, ...], dim: int, result: tuple[int, ...], batch: int
) -> int | None:
    """The row dim of a row-major reshape of `shape` (rows along `dim`) into `result`: the
    dim after the same leading elements whose extent B divides, so that each row keeps its
    run of elements; None where no dim has that."""
    leading = 1
    for e in shape[:dim]:
        leading *= e
    before = 1
    for d, e in enumerate(result):
        if before == leading and e > 1 and e % batch == 0:
            return d
        before *= e
        if before > leading:
            return None
    return None


def _row_dim(op: Op, ins: list[int], shapes: list[tuple[int, ...]], batch: int) -> int | None:
    """The row dim of the result of the plain op `op` (kernel or block level) whose
    operands have the row dims `ins` (`SHARED` for shared operands), where it computes row i
    of its result from row i of its batched operands and the whole of its shared ones;
    else None."""
    kind = op.kind
    result = op.results[0].shape
    rank = len(result)
    batched = [(d, s) for d, s in zip(ins, shapes, strict=True) if d != SHARED]
    if any(len(s) <= d or s[d] % batch for d, s in batched):
        return None
    if kind in RESHAPES:
        ((d, s),) = batched
        return _reshaped_dim(s, d, result, batch)
    if kind in PERMUTES:
        return op.ints_attr("permutation").index(batched[0][0])
    dim, first = batched[0]
    if any(d != dim or len(s) != rank or s[dim] != first[dim] for d, s in batched):
        return None
    if result[dim] != first[dim]:
        return None
    pairs = list(zip(ins, shapes, strict=True))
    shared_ok = all(s != SHARED or _broadcast(shape, rank, dim) for s, shape in pairs)
    if kind in POINTWISE:
        return dim if shared_ok else None
    if kind in FUSES:
        assert op.body is not None
        return dim if shared_ok and all(b.kind in POINTWISE for b in op.body.ops) else None
    if kind in CONTRACTIONS:
        (a, b), (_, sb) = ins, shapes
        if a != SHARED and b != SHARED:
            return dim if dim < rank - 2 and len(sb) == rank else None  # a batch dim of both
        if a == SHARED:
            return None
        if dim == rank - 2:
            return dim  # x (rows, k) @ W (k, n): the rows of the lhs
        # a batch dim of the lhs, the weight broadcast along it (batch dims align right)
        at = dim - (rank - len(sb))
        return dim if dim < rank - 2 and (at < 0 or sb[at] == 1) else None
    if kind in REDUCTIONS or kind in CONCATS:
        reduced = op.int_attr("dim")
        ok = all(s != SHARED for s in ins) and reduced != dim and 0 <= reduced < rank
        return dim if ok else None
    if kind in NORMS:  # the last dim; a gain or bias is shared, broadcast over the rows
        return dim if ins[0] != SHARED and dim < rank - 1 and shared_ok else None
    if kind in ACCUMULATORS:  # along the loop, elementwise or over the last dim
        last = kind in LAST_DIM_ACCUMULATORS
        return dim if shared_ok and (not last or dim < rank - 1) else None
    if kind in SLICES:
        return dim if op.ints_attr("offsets")[dim] == 0 else None
    return None


def _launch_states(op: Op, ins: list[int], dim_out: int) -> tuple[int, ...] | None:
    """The row dim of every value of the block graph of launch `op` (operand row dims
    `ins`, its results rowed along `dim_out`), where every block op is row-wise on the
    block's row tiles, at most one grid dim cuts the rows, the for-loop never walks them, a
    view on a row tensor keeps each row in its place, and the grid dim that cuts the rows
    cuts no shared input; else None. Every block then computes each row of its tiles from
    that row and the shared tiles, by the same block graph."""
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
            dim = state[bop.operands[0]]
            if dim == SHARED:
                shared_maps.append(imap)
                state.append(SHARED)
                continue
            storage = body.args[bop.operands[0]].shape
            if bop.viewed:
                viewed = row_local_view(bop, storage, dim, _extent(storage, dim))
                if viewed is None:
                    return None
                dim = viewed
            if bop.int_attr("forloop_dim") == dim:
                return None
            dmap = imap
        elif bop.kind in OUTPUTS:
            dim = state[bop.operands[0]]
            if dim == SHARED:
                return None
            storage = bop.results[0].shape
            held = dim_out
            if bop.viewed:
                held = row_local_view(bop, storage, dim_out, _extent(storage, dim_out))
            if held != dim:
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
            if len(bop.results) != 1:
                return None
            tile = next(sh[d] for d, sh in zip(ins_b, shapes, strict=True) if d != SHARED)
            found = _row_dim(bop, ins_b, shapes, tile)
            if found is None:
                return None
            rows.add(bop.results[0].shape[found])
            state.append(found)
            continue
        cut = [g for g in range(len(dmap)) if dmap[g] == dim]
        if len(cut) > 1:
            return None
        cuts.update(cut)
        row_tile = bop.results[0] if bop.kind in INPUTS else body.type_of(bop.operands[0])
        if len(row_tile.shape) <= dim:
            return None
        rows.add(row_tile.shape[dim])
        state.append(dim if bop.kind in INPUTS else dim_out)
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
    batch, dims = rows.batch, rows.values
    launches = iter(rows.states)
    ops: list[Op] = []
    for op, ids in graph.result_ids():
        inner = next(launches) if op.kind in LAUNCHES else None
        if dims[ids[0]] == SHARED:
            ops.append(op)
            continue
        results = tuple(
            _cut(t, dims[i], count * t.shape[dims[i]] // batch)
            for t, i in zip(op.results, ids, strict=True)
        )
        if inner is not None:
            ops.append(_cut_launch(op, results, inner, count))
        else:
            ops.append(replace(op, results=results))
    args = tuple(
        _cut(t, rows.dim, count) if i in rows.batched else t for i, t in enumerate(graph.args)
    )
    return Graph(args, tuple(ops), graph.outputs, graph.loop_end)


def _cut(ty: TensorType, dim: int, extent: int) -> TensorType:
    return TensorType((*ty.shape[:dim], extent, *ty.shape[dim + 1 :]), ty.dtype)


def _cut_launch(op: Op, results: tuple[TensorType, ...], dims: Sequence[int], count: int) -> Op:
    body = op.body
    assert body is not None
    grid = op.ints_attr("grid")
    cut_dims = {
        g
        for bop, ids in body.result_ids()
        if bop.kind in INPUTS | OUTPUTS and dims[ids[0]] != SHARED
        for g, d in enumerate(bop.ints_attr("imap" if bop.kind in INPUTS else "omap"))
        if d == dims[ids[0] if bop.kind in INPUTS else bop.operands[0]]
    }
    new_grid = tuple(1 if d in cut_dims else e for d, e in enumerate(grid))
    attrs = tuple((k, new_grid if k == "grid" else v) for k, v in op.attrs)
    args = tuple(
        t if d == SHARED else _cut(t, d, count)
        for t, d in zip(body.args, dims[: len(body.args)], strict=True)
    )
    body_ops: list[Op] = []
    for bop, ids in body.result_ids():
        if ids and dims[ids[0]] != SHARED:
            d = dims[ids[0]]
            # an output saver's view is cut where its tile holds the rows
            held = dims[bop.operands[0]] if bop.kind in OUTPUTS else d
            if bop.kind in ITERATORS:
                if bop.kind in INPUTS:
                    storage, at = body.args[bop.operands[0]].shape, dims[bop.operands[0]]
                else:
                    storage, at = bop.results[0].shape, d
                bop = cut_view(bop, held, count, storage, at)
            bop = replace(bop, results=tuple(_cut(t, d, count) for t in bop.results))
        body_ops.append(bop)
    new_body = Graph(args, tuple(body_ops), body.outputs, body.loop_end)
    return replace(op, results=results, attrs=attrs, body=new_body)


def cut_view(
    bop: Op, dim: int, count: int, storage: tuple[int, ...] = (), storage_dim: int = 0
) -> Op:
    """Iterator `bop` with its view (a row-local one, `row_local_view`) cut to `count`
    rows: a stride within a row stays, as every row keeps its place in its slab; one of
    whole row slabs (the dims before the rows of `storage`, rows along `storage_dim`)
    counts slabs of `count` rows."""
    if not bop.viewed:
        return bop
    view, strides = bop.layout(storage) if storage else (bop.ints_attr("view"), ())
    cut = (*view[:dim], count, *view[dim + 1 :])
    attrs = dict(bop.attrs)
    attrs["view"] = cut
    if storage and storage_dim > 0:
        row = row_major(storage)[storage_dim]
        slab, kept = row * storage[storage_dim], row * count
        attrs["strides"] = tuple(
            st if st % slab or i == dim else st // slab * kept for i, st in enumerate(strides)
        )
        offset = bop.offset
        if offset:
            attrs["offset"] = offset // slab * kept + offset % slab
    return replace(bop, attrs=tuple((k, attrs[k]) for k, _ in bop.attrs))
