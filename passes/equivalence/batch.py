"""Programs that are separable along dim 0: one random test at batch B is B tests of the
batch-1 program.

A kernel-level program is separable with batch B > 1 when every argument, every op
result and every output has extent B on dim 0, and every op computes slice i of dim 0
only from slice i of its operands, by the same code for every i. Then the program is
out[i] = f(in[i]) for one function f; two such programs are equal exactly when their f
are, and a random test with independent uniform inputs tests f on B independent inputs.

The rules are conservative: an op kind not listed below, a constant, an operand of
extent 1 on dim 0 (shared by all slices, so the slices' inputs are not independent) or a
graph-defined op whose blocks see more than one batch element makes a program not
separable.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from mirage.dialects.opkinds import (
    CONCATS,
    CONTRACTIONS,
    FUSES,
    INPUTS,
    ITERATORS,
    LAUNCHES,
    NORMS,
    OUTPUTS,
    PERMUTES,
    POINTWISE,
    REDUCTIONS,
    RESHAPES,
    SLICES,
)
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.equivalence.rows import cut_view, row_local_view

_THREAD_KINDS = POINTWISE
"""Op kinds of a thread.fuse body: all act on one element at a time."""


@lru_cache(maxsize=4096)
def separable_batch(graph: Graph) -> int | None:
    """B when the kernel-level `graph` is separable along dim 0 with extent B > 1, else
    None."""
    if not graph.args or any(not t.shape for t in graph.args):
        return None
    batch = graph.args[0].shape[0]
    if batch < 2 or any(t.shape[0] != batch for t in graph.args):
        return None
    for op in graph.ops:
        operands = [graph.type_of(v).shape for v in op.operands]
        results = [t.shape for t in op.results]
        if any(not s or s[0] != batch for s in [*operands, *results]):
            return None
        if not _slicewise(op, operands, batch):
            return None
    return batch


def _slicewise(op: Op, operands: list[tuple[int, ...]], batch: int) -> bool:
    """Whether `op`, whose operands and results all have extent `batch` on dim 0, computes
    each slice of dim 0 from the same slice of its operands, by the same code."""
    kind = op.kind
    if kind in POINTWISE:
        return True
    if kind in CONTRACTIONS:
        # Dim 0 must be a batch dim of both operands, not the rows of a 2-D lhs.
        return all(len(s) >= 3 for s in operands)
    if kind in REDUCTIONS or kind in CONCATS:
        return 1 <= op.int_attr("dim") < len(operands[0])
    if kind in NORMS:  # normalizes the last dim
        return len(operands[0]) >= 2
    if kind in PERMUTES:
        return op.ints_attr("permutation")[0] == 0
    if kind in SLICES:  # dim 0 kept whole: slice i is the slice of operand slice i
        return op.ints_attr("offsets")[0] == 0 and op.results[0].shape[0] == batch
    if kind in RESHAPES:
        # Row-major: with dim 0 kept at the same extent, element (i, rest) stays in slice i.
        return True
    if kind in FUSES:
        assert op.body is not None
        return all(b.kind in _THREAD_KINDS for b in op.body.ops)
    if kind in LAUNCHES:
        return _launch_is_slicewise(op, batch)
    return False


def _launch_is_slicewise(op: Op, batch: int) -> bool:
    """A graph-defined op is separable when one grid dim g with grid[g] == batch cuts dim 0
    of every input and every output, and nothing else cuts dim 0: each block then reads and
    writes exactly one batch element (tile extent 1 on dim 0), and every block runs the
    same block graph. Block-level ops only ever see their own block's tiles, so the maps
    of the input iterators and output savers are all there is to check."""
    body = op.body
    assert body is not None
    grid = op.ints_attr("grid")
    if len(grid) != 3:
        return False
    cut_by: set[int] = set()
    args = len(body.args)
    for bop, ids in body.result_ids():
        if bop.kind in ITERATORS and bop.viewed:
            storage = body.args[bop.operands[0]] if bop.kind in INPUTS else body.type_of(ids[0])
            if row_local_view(bop, storage.shape, 0, batch) != 0:
                return False
        if bop.kind in INPUTS:
            # The loop walking dim 0 would feed one block several batch elements.
            if bop.operands[0] >= args or bop.int_attr("forloop_dim") == 0:
                return False
            dmap = bop.ints_attr("imap")
        elif any(v < args for v in bop.operands):
            return False  # only input iterators may read the launch's device tensors
        elif bop.kind in OUTPUTS:
            dmap = bop.ints_attr("omap")
        else:
            continue
        if len(dmap) != 3:
            return False
        # Dim 0 must be cut by exactly one grid dim: replicated (no grid dim), every block
        # would see the whole batch. A map entry names one tensor dim, so the grid dim
        # that cuts dim 0 cuts nothing else.
        dims = [g for g in range(3) if dmap[g] == 0]
        if len(dims) != 1:
            return False
        cut_by.add(dims[0])
    if len(cut_by) != 1:
        return False
    (g,) = cut_by
    if grid[g] != batch:
        return False
    # Every output of the launch must be written by an output saver (its omap checked).
    savers = {r for bop, rs in body.result_ids() if bop.kind in OUTPUTS for r in rs}
    return all(o in savers for o in body.outputs)


def first_slice(graph: Graph) -> Graph:
    """The batch-1 program f of a separable `graph` (`separable_batch`): extent 1 where
    the batch was on dim 0, and in each graph-defined op the grid dim that walks the batch
    run once. Its blocks are the blocks of batch element 0, with the same tiles."""
    batch = separable_batch(graph)
    assert batch is not None, "first_slice of a program that is not separable"
    return _sliced(graph, batch)


def _one(ty: TensorType, batch: int) -> TensorType:
    if ty.shape and ty.shape[0] == batch:
        return TensorType((1, *ty.shape[1:]), ty.dtype)
    return ty


def _sliced(graph: Graph, batch: int) -> Graph:
    ops: list[Op] = []
    for op in graph.ops:
        results = tuple(_one(t, batch) for t in op.results)
        if op.kind in LAUNCHES and op.body is not None:
            grid = op.ints_attr("grid")
            walks = _batch_grid_dim(op.body)
            attrs = tuple(
                (k, tuple(1 if g == walks else e for g, e in enumerate(grid)) if k == "grid" else v)
                for k, v in op.attrs
            )
            body = op.body
            # Block-level tiles already hold one batch element: only the device tensors
            # (the body's arguments and what its savers write) change.
            body_ops = tuple(
                replace(cut_view(b, 0, 1), results=tuple(_one(t, batch) for t in b.results))
                if b.kind in OUTPUTS
                else cut_view(b, 0, 1)
                if b.kind in INPUTS
                else b
                for b in body.ops
            )
            args = tuple(_one(t, batch) for t in body.args)
            new_body = Graph(args, body_ops, body.outputs, body.loop_end)
            ops.append(replace(op, results=results, attrs=attrs, body=new_body))
        elif op.body is not None:
            ops.append(replace(op, results=results, body=_sliced(op.body, batch)))
        else:
            ops.append(replace(op, results=results))
    args = tuple(_one(t, batch) for t in graph.args)
    return Graph(args, tuple(ops), graph.outputs, graph.loop_end)


def _batch_grid_dim(body: Graph) -> int:
    """The grid dim that cuts dim 0 of a separable launch's tensors."""
    for bop in body.ops:
        if bop.kind in INPUTS:
            imap = bop.ints_attr("imap")
            return imap.index(0)
    raise AssertionError("a separable launch without input iterators")
