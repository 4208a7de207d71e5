"""`wrap-kernel-ops`: every plain kernel op (kernel.matmul, kernel.exp, ...) becomes a
`kernel.graph` of one block-level op, so that one code generator serves both.

The block graph cuts the op's output over the grid (about `TILE_ELEMENTS` per block) and,
for matmuls and reductions, walks the contracted or reduced dim with the for-loop, so the
input iterators are pipelined like any μGraph's. A function that returns one of its own
arguments, or one value twice, gets a copy kernel for it (each output is its own buffer).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from mirage.dialects.opkinds import (
    BLOCK,
    CONCATS,
    CONTRACTIONS,
    KERNEL,
    NORMS,
    OP_KINDS,
    POINTWISE,
    REDUCTIONS,
    RESHAPES,
    SUM_REDUCTIONS,
)
from mirage.dialects.shapes import REPLICATE, saved_shape, tile_shape
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import AttrValue, Graph, Op, TensorType, make_op
from mirage.dialects.ugraph.to_ir import func_from_graph

TILE_ELEMENTS = 4096
THREADS = 128
MATMUL_TILE = 64
K_TILE = 64


def _divisor_at_most(n: int, limit: int) -> int:
    best = 1
    for d in range(1, math.isqrt(n) + 1):
        if n % d == 0:
            for c in (d, n // d):
                if c <= limit:
                    best = max(best, c)
    return best


def _greedy_parts(shape: tuple[int, ...], dims: list[int], elements: int) -> dict[int, int]:
    want = max(1, math.prod(shape) // elements)
    parts: dict[int, int] = {}
    for d in dims:
        if len(parts) == 3 or want <= 1:
            break
        p = _divisor_at_most(shape[d], want)
        if p > 1:
            parts[d] = p
            want = max(1, want // p)
    return parts


def _grid_for(shape: tuple[int, ...], dims: list[int], elements: int) -> dict[int, int]:
    """Parts for up to three of `dims` so tiles hold about `elements`: in the order given
    (which says which cuts read memory best), unless the grid's three dims run out on small
    dims first (a rank-5 head split), then the largest dims first."""
    preferred = _greedy_parts(shape, dims, elements)
    largest = _greedy_parts(shape, sorted(dims, key=lambda d: -shape[d]), elements)

    def tile(parts: dict[int, int]) -> int:
        return math.prod(shape) // math.prod(parts.values() or [1])

    return largest if tile(largest) < tile(preferred) and tile(preferred) > elements else preferred


def _maps(parts: dict[int, int]) -> tuple[tuple[int, int, int], list[int]]:
    """Grid extents (x, y, z) and, per grid dim, the tensor dim it cuts."""
    dims = list(parts)
    grid = [1, 1, 1]
    cut = [REPLICATE] * 3
    for g, d in enumerate(dims):
        grid[g] = parts[d]
        cut[g] = d
    return (grid[0], grid[1], grid[2]), cut


def _imap(cut: list[int], shape: tuple[int, ...]) -> tuple[int, ...]:
    """Grid cuts as seen by an operand that may broadcast (extent 1) in a cut dim."""
    return tuple(d if d != REPLICATE and shape[d] > 1 else REPLICATE for d in cut)


class _Body:
    """Builds a block graph in the model."""

    def __init__(self, args: tuple[TensorType, ...]):
        self.args = args
        self.ops: list[Op] = []
        self.types = list(args)

    def add(self, kind: str, operands: list[int], result: TensorType, **attrs: AttrValue) -> int:
        self.ops.append(make_op(kind, operands, [result], None, **attrs))
        self.types.append(result)
        return len(self.types) - 1

    def graph(self, outputs: list[int], loop_end: int) -> Graph:
        return Graph(self.args, tuple(self.ops), tuple(outputs), loop_end)


def _input(
    body: _Body, arg: int, cut: list[int], grid: tuple[int, int, int], fdim: int, loops: int
) -> int:
    ty = body.args[arg]
    imap = _imap(cut, ty.shape)
    tile = tile_shape(ty.shape, imap, fdim, grid, loops)
    return body.add("input", [arg], TensorType(tile, ty.dtype), imap=imap, forloop_dim=fdim)


def _graph_op(
    operands: tuple[int, ...],
    arg_types: tuple[TensorType, ...],
    result: TensorType,
    grid: tuple[int, int, int],
    loops: int,
    build: Callable[[_Body], Graph],
) -> Op:
    body = _Body(arg_types)
    graph = build(body)
    return make_op(
        "graph",
        operands,
        [result],
        graph,
        grid=grid,
        block=(THREADS, 1, 1),
        forloop_range=loops,
    )


def _acc(body: _Body, value: int, kind: str = "accum_sum") -> int:
    ty = body.types[value]
    return body.add(kind, [value], TensorType(ty.shape, "f32"))


def _output(body: _Body, value: int, cut: list[int], grid: tuple[int, int, int], dtype: str) -> int:
    tile = body.types[value].shape
    omap = tuple(cut)
    full = saved_shape(tile, omap, grid)
    return body.add("output", [value], TensorType(full, dtype), omap=omap)


def wrap_op(op: Op, types: list[TensorType]) -> Op:
    """The kernel.graph that computes plain kernel op `op` (operand types `types`)."""
    result = op.results[0]
    shape = result.shape
    rank = len(shape)
    arg_types = tuple(types)
    operands = op.operands
    if op.kind in POINTWISE:
        parts = _grid_for(shape, list(range(rank)), TILE_ELEMENTS)
        grid, cut = _maps(parts)

        def build(body: _Body) -> Graph:
            tiles = [_input(body, i, cut, grid, REPLICATE, 1) for i in range(len(arg_types))]
            out_tile = tile_shape(shape, tuple(cut), REPLICATE, grid, 1)
            attrs = dict(op.attrs)
            r = body.add(op.kind, tiles, TensorType(out_tile, result.dtype), **attrs)
            a = _acc(body, r)
            o = _output(body, a, cut, grid, result.dtype)
            return body.graph([o], len(body.ops) - 1)

        return _graph_op(operands, arg_types, result, grid, 1, build)
    if op.kind in CONTRACTIONS:
        a_ty, b_ty = arg_types
        m, n, k = a_ty.shape[-2], b_ty.shape[-1], a_ty.shape[-1]
        mt = _divisor_at_most(m, MATMUL_TILE)
        nt = _divisor_at_most(n, MATMUL_TILE)
        kt = _divisor_at_most(k, K_TILE)
        parts = {rank - 1: n // nt, rank - 2: m // mt}
        batch_dims = [d for d in range(rank - 2) if shape[d] > 1]
        if batch_dims:
            parts[batch_dims[-1]] = shape[batch_dims[-1]]
        parts = {d: p for d, p in parts.items() if p > 1}
        grid, cut = _maps(parts)
        loops = k // kt

        # grid dims cutting n do not cut A, those cutting m do not cut B
        a_cut = [d if d != rank - 1 else REPLICATE for d in cut]
        b_cut = [d if d != rank - 2 else REPLICATE for d in cut]

        def build(body: _Body) -> Graph:
            ta = _input(body, 0, a_cut, grid, rank - 1, loops)
            tb = _input(body, 1, b_cut, grid, rank - 2, loops)
            out_tile = tile_shape(shape, tuple(cut), REPLICATE, grid, 1)
            r = body.add("matmul", [ta, tb], TensorType(out_tile, "f32"))
            a = _acc(body, r)
            o = _output(body, a, cut, grid, result.dtype)
            return body.graph([o], len(body.ops) - 1)

        return _graph_op(operands, arg_types, result, grid, loops, build)
    if op.kind in REDUCTIONS:
        (src,) = arg_types
        dim, size = op.int_attr("dim"), op.int_attr("size")
        n = src.shape[dim]
        others = [d for d in range(rank - 1, -1, -1) if d != dim]
        parts = _grid_for(shape, others, max(1, TILE_ELEMENTS // max(1, n // size)))
        grid, cut = _maps(parts)
        # walk the reduced dim in chunks that keep whole groups of `size`
        row = math.prod(src.shape) // n // math.prod(parts.values() or [1])
        chunk = _divisor_at_most(n // size, max(1, TILE_ELEMENTS // max(1, row * size))) * size
        loops = n // chunk

        def build(body: _Body) -> Graph:
            t = _input(body, 0, cut, grid, dim if loops > 1 else REPLICATE, loops)
            tile = body.types[t].shape
            red = (*tile[:dim], size, *tile[dim + 1 :])
            r = body.add(op.kind, [t], TensorType(red, "f32"), dim=dim, size=size)
            a = _acc(body, r, "accum_sum" if op.kind in SUM_REDUCTIONS else "accum_max")
            o = _output(body, a, cut, grid, result.dtype)
            return body.graph([o], len(body.ops) - 1)

        return _graph_op(operands, arg_types, result, grid, loops, build)
    if op.kind in NORMS or op.kind in CONCATS:
        dim = rank - 1 if op.kind in NORMS else op.int_attr("dim")
        others = [d for d in range(rank - 1, -1, -1) if d != dim]
        parts = _grid_for(shape, others, TILE_ELEMENTS)
        grid, cut = _maps(parts)

        def build(body: _Body) -> Graph:
            tiles = [_input(body, i, cut, grid, REPLICATE, 1) for i in range(len(arg_types))]
            out_tile = tile_shape(shape, tuple(cut), REPLICATE, grid, 1)
            attrs = dict(op.attrs)
            r = body.add(op.kind, tiles, TensorType(out_tile, result.dtype), **attrs)
            a = _acc(body, r)
            o = _output(body, a, cut, grid, result.dtype)
            return body.graph([o], len(body.ops) - 1)

        return _graph_op(operands, arg_types, result, grid, 1, build)
    raise ValueError(f"no kernel for op kind '{op.kind}'")


def copy_op(ty: TensorType) -> Op:
    """A kernel.graph that copies a tensor (for outputs that are inputs or repeats)."""
    parts = _grid_for(ty.shape, list(range(len(ty.shape))), TILE_ELEMENTS)
    grid, cut = _maps(parts)

    def build(body: _Body) -> Graph:
        t = _input(body, 0, cut, grid, REPLICATE, 1)
        a = _acc(body, t)
        o = _output(body, a, cut, grid, ty.dtype)
        return body.graph([o], 2)

    return _graph_op((0,), (ty,), ty, grid, 1, build)


UNWRAPPED = frozenset(
    k.name for k in OP_KINDS.values() if KERNEL in k.levels and BLOCK not in k.levels
)
"""Kernel ops left as they are: graphs, and the ops with no block-level form (lowered to
kernels of their own, or, for reshape, to no kernel at all)."""


def _result_ids(ops: list[Op], first: int) -> list[tuple[Op, tuple[int, ...]]]:
    out: list[tuple[Op, tuple[int, ...]]] = []
    n = first
    for op in ops:
        out.append((op, tuple(range(n, n + len(op.results)))))
        n += len(op.results)
    return out


def wrap_graph(g: Graph) -> Graph:
    """`g` with every plain kernel op, and every output that needs its own buffer, as a
    kernel.graph."""
    ops: list[Op] = []
    renumber: dict[int, int] = {i: i for i in range(len(g.args))}
    types: list[TensorType] = list(g.args)
    for op, results in g.result_ids():
        operands = tuple(renumber[o] for o in op.operands)
        if op.kind in UNWRAPPED:
            new = replace(op, operands=operands)
        else:
            # the op's annotations (a hand-set mirage.stages) go to the graph that runs it
            new = wrap_op(op, [types[o] for o in operands])
            new = replace(new, operands=operands, annotations=op.annotations)
        ops.append(new)
        for r in results:
            renumber[r] = len(types)
            types.append(op.results[results.index(r)])
    aliases = {
        r for op, results in _result_ids(ops, len(g.args)) if op.kind in RESHAPES for r in results
    }
    outputs: list[int] = []
    seen: set[int] = set()
    for o in g.outputs:
        v = renumber[o]
        if v < len(g.args) or v in seen or v in aliases:
            ty = types[v]
            c = copy_op(ty)
            ops.append(Op(c.kind, (v,), c.results, c.attrs, c.body))
            types.append(ty)
            v = len(types) - 1
        seen.add(v)
        outputs.append(v)
    return Graph(g.args, tuple(ops), tuple(outputs))


def wrap_function(func: FuncOp) -> None:
    """Rewrites `func` in place."""
    g = graph_from_func(func)
    wrapped = wrap_graph(g)
    if wrapped == g:
        return
    new = func_from_graph(func.sym_name.data, wrapped)
    body = new.body
    new.detach_region(body)
    old = func.body
    func.add_region(body)
    func.detach_region(old)


@dataclass(frozen=True)
class WrapKernelOps(ModulePass):
    """Plain kernel ops -> one-op kernel.graph launches."""

    name = "wrap-kernel-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in list(op.walk()):
            if isinstance(func, FuncOp) and not func.is_declaration:
                wrap_function(func)
