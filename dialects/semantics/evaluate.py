"""The one evaluator of μGraphs, over any value domain.

A graph-defined op runs literally: every block of the grid and every loop iteration gets
its own tile, cut by the input iterators' imaps and forloop dims, every per-iteration op
runs on it, accumulators combine the iterations, and output savers put each block's tile
where its omap says. To be fast in numpy, the blocks and iterations are not a Python loop
but leading axes of every block-level value: inside the loop a value has the axes
(grid x, grid y, grid z, iteration, *tile), after the loop (grid x, grid y, grid z, *tile).
An axis of extent 1 there means "the same for every block (or iteration)".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from mirage.dialects.opkinds import BLOCK, OP_KINDS, Family, Loop, OpKind
from mirage.dialects.semantics.domain import Array, Domain
from mirage.dialects.shapes import REPLICATE, dim_factors
from mirage.dialects.strides import store_view, view_of
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, Op

if TYPE_CHECKING:
    from xdsl.dialects.func import FuncOp

V = TypeVar("V")

LOOP_LEAD = 4
"""Leading axes of a block-level value inside the loop: grid x, y, z and the iteration."""
POST_LEAD = 3
"""Leading axes after the loop: grid x, y, z."""


class EvaluationError(ValueError):
    """The inputs do not fit the program (count or shape)."""


_POLL: ContextVar[Callable[[], None] | None] = ContextVar("evaluate_poll", default=None)


@contextmanager
def polling(check: Callable[[], None]) -> Generator[None]:
    """While inside, `check` runs before every op evaluated (the ops of a graph-defined
    op's blocks too): it may raise to abandon an evaluation that has run too long."""
    token = _POLL.set(check)
    try:
        yield
    finally:
        _POLL.reset(token)


def _poll() -> None:
    check = _POLL.get()
    if check is not None:
        check()


def last_uses(graph: Graph) -> list[list[int]]:
    """For each op of `graph`, the values (numbered args first, then op results) whose
    last use it is, outputs excepted: what an evaluation may let go once the op ran."""
    last: dict[int, int] = {}
    for index, op in enumerate(graph.ops):
        for v in op.operands:
            last[v] = index
    for v in graph.outputs:
        last.pop(v, None)
    freed: list[list[int]] = [[] for _ in graph.ops]
    for v, index in last.items():
        freed[index].append(v)
    return freed


def evaluate(graph: Graph, inputs: Sequence[V], domain: Domain[V]) -> list[V]:
    """Run a kernel-level graph on `inputs` and return its outputs."""
    if len(inputs) != len(graph.args):
        raise EvaluationError(f"expected {len(graph.args)} inputs, got {len(inputs)}")
    for i, (value, ty) in enumerate(zip(inputs, graph.args, strict=True)):
        if domain.shape(value) != ty.shape:
            raise EvaluationError(
                f"input {i} has shape {domain.shape(value)}, the program expects {ty.shape}"
            )
    return _run(graph, list(inputs), domain, lead=0)


def evaluate_function(func: FuncOp, inputs: Sequence[V], domain: Domain[V]) -> list[V]:
    """Run a `func.func` of kernel-dialect ops."""
    return evaluate(graph_from_func(func), inputs, domain)


def _run(graph: Graph, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    values: list[V | None] = list(args)
    for op, freed in zip(graph.ops, last_uses(graph), strict=True):
        _poll()
        operands = [live(values, i) for i in op.operands]
        results = _apply(op, operands, domain, lead)
        del operands
        values.extend(domain.cast(r, t.dtype) for r, t in zip(results, op.results, strict=True))
        for i in freed:
            values[i] = None
    return [live(values, i) for i in graph.outputs]


def live(values: list[V | None], i: int) -> V:
    """Value `i` of an evaluation that frees values after their last use (`last_uses`)."""
    value = values[i]
    assert value is not None, "a value used after its last use"
    return value


def _apply(op: Op, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    """The meaning of one op whose values carry `lead` leading (block, iteration) axes."""
    kind = OP_KINDS.get(op.kind)
    if kind is None:
        raise NotImplementedError(f"no semantics for op kind '{op.kind}'")
    if kind.evaluate is not None:
        return [kind.evaluate(domain, args, kind.param_values(op.attr))]
    rule = _BY_FAMILY.get(kind.family)
    if rule is None:
        raise NotImplementedError(f"no semantics for op kind '{op.kind}'")
    return rule(op, kind, args, domain, lead)


def _matmul(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    return [domain.matmul(args[0], args[1])]


def _reduction(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    red = kind.reduce
    assert red is not None
    return [_reduce_to(domain, red, args[0], lead + op.int_attr("dim"), op.int_attr("size"))]


def _norm(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    return [_rms_norm(domain, args, op.eps)]


def _concat(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    return [domain.concat(_broadcast_leading(domain, args, lead), lead + op.int_attr("dim"))]


def _constant(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    # one element, broadcast: a splat of 10^6 elements converted element by element to
    # a domain's values (a field's residues) cost a second per evaluation
    shape = op.results[0].shape
    one = domain.from_array(np.full((1,) * len(shape), op.float_attr("value")))
    return [domain.restructure(one, lambda a: np.broadcast_to(a, shape))]


def _permute(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    perm = [*range(lead), *(lead + p for p in op.ints_attr("permutation"))]
    return [domain.restructure(args[0], lambda a: a.transpose(perm))]


def _slice(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    window = tuple(
        slice(o, o + n) for o, n in zip(op.ints_attr("offsets"), op.results[0].shape, strict=True)
    )
    return [domain.restructure(args[0], lambda a: a[(*(slice(None),) * lead, *window)])]


def _reshape(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    shape = op.results[0].shape
    return [domain.restructure(args[0], lambda a: a.reshape((*a.shape[:lead], *shape)))]


def _structure(op: Op, kind: OpKind, args: list[V], domain: Domain[V], lead: int) -> list[V]:
    assert op.body is not None
    if kind.body == BLOCK:
        return _run_launch(op, args, domain)
    shape = np.broadcast_shapes(*(domain.shape(a) for a in args))
    bcast = [domain.restructure(a, lambda x, s=shape: np.broadcast_to(x, s)) for a in args]
    return _run(op.body, bcast, domain, lead)


_Rule = Callable[[Op, OpKind, list[V], Domain[V], int], list[V]]
_BY_FAMILY: dict[Family, _Rule[Any]] = {
    Family.CONTRACTION: _matmul,
    Family.REDUCTION: _reduction,
    Family.NORM: _norm,
    Family.CONCAT: _concat,
    Family.CONSTANT: _constant,
    Family.PERMUTE: _permute,
    Family.RESHAPE: _reshape,
    Family.SLICE: _slice,
    Family.STRUCTURE: _structure,
}


def _reduce_to(domain: Domain[V], kind: str, value: V, axis: int, size: int) -> V:
    """Reduce `axis` to `size` elements: element j combines elements j, j+size, j+2*size..."""
    shape = domain.shape(value)
    n = shape[axis]
    split = (*shape[:axis], n // size, size, *shape[axis + 1 :])
    grouped = domain.restructure(value, lambda a: a.reshape(split))
    reduced = domain.reduce(kind, grouped, axis)  # type: ignore[arg-type]
    out = (*shape[:axis], size, *shape[axis + 1 :])
    return domain.restructure(reduced, lambda a: a.reshape(out))


def _plus_eps(domain: Domain[V], mean: V, eps: float) -> V:
    if eps == 0.0:
        return mean
    rank = len(domain.shape(mean))
    return domain.elementwise("add", [mean, domain.from_array(np.full((1,) * rank, eps))])


def _rms_norm(domain: Domain[V], args: Sequence[V], eps: float) -> V:
    x = args[0]
    n = domain.shape(x)[-1]
    mean_sq = domain.scale(domain.reduce("sum", domain.elementwise("square", [x]), -1), 1.0 / n)
    root = domain.elementwise("sqrt", [_plus_eps(domain, mean_sq, eps)])
    out = domain.elementwise("div", [x, root])
    if len(args) > 1:
        out = domain.elementwise("mul", [out, args[1]])
    if len(args) > 2:
        out = domain.elementwise("add", [out, args[2]])
    return out


def _broadcast_leading(domain: Domain[V], args: Sequence[V], lead: int) -> list[V]:
    if lead == 0:
        return list(args)
    heads = np.broadcast_shapes(*(domain.shape(a)[:lead] for a in args))
    return [
        domain.restructure(a, lambda x: np.broadcast_to(x, (*heads, *x.shape[lead:]))) for a in args
    ]


# --- graph-defined ops ----------------------------------------------------------------


def _run_launch(op: Op, args: list[V], domain: Domain[V]) -> list[V]:
    body = op.body
    assert body is not None
    grid = op.ints_attr("grid")
    loops = op.int_attr("forloop_range")
    values: list[V | None] = list(args)
    for index, (bop, freed) in enumerate(zip(body.ops, last_uses(body), strict=True)):
        _poll()
        operands = [live(values, i) for i in bop.operands]
        family = OP_KINDS[bop.kind].family
        if family is Family.INPUT:
            imap, fdim = bop.ints_attr("imap"), bop.int_attr("forloop_dim")
            view, strides = bop.layout(body.type_of(bop.operands[0]).shape)
            offset = bop.offset
            # after the loop (an epilogue operand, forloop_dim -1) a tile has no iteration
            # axis: the values there carry POST_LEAD leading axes
            cut = _Cut(imap, fdim, grid, loops, index >= body.loop_end)
            results = [
                domain.restructure(
                    operands[0],
                    lambda a, view=view, strides=strides, offset=offset, cut=cut: cut.tiles(
                        view_of(a, view, strides, offset)
                    ),
                )
            ]
        elif family is Family.ACCUMULATOR:
            results = [_accumulate(bop, operands, domain, loops)]
        elif family is Family.OUTPUT:
            omap = bop.ints_attr("omap")
            storage = bop.results[0].shape
            _, strides = bop.layout(storage)
            results = [
                domain.restructure(
                    operands[0],
                    lambda a, omap=omap, storage=storage, strides=strides: store_view(
                        assemble(a, omap, grid), storage, strides
                    ),
                )
            ]
        else:  # a thread.fuse may have several results
            lead = LOOP_LEAD if index < body.loop_end else POST_LEAD
            results = _apply(bop, operands, domain, lead)
        del operands
        values.extend(domain.cast(r, t.dtype) for r, t in zip(results, bop.results, strict=True))
        for i in freed:
            values[i] = None
    return [live(values, i) for i in body.outputs]


def tile_view(
    a: Array, imap: Sequence[int], forloop_dim: int, grid: Sequence[int], loops: int
) -> Array:
    """Every block's tile in every iteration, as (grid x, y, z, iteration, *tile)."""
    shape: list[int] = []
    lead_axis: dict[int, int] = {}
    tile_axes: list[int] = []
    for d, n in enumerate(a.shape):
        factors = dim_factors(imap, grid, forloop_dim, loops, d)
        for g, parts in factors:
            lead_axis[g] = len(shape)
            shape.append(parts)
        tile_axes.append(len(shape))
        shape.append(n // math.prod(p for _, p in factors))
    for g in range(LOOP_LEAD):
        if g not in lead_axis:  # replicated: one copy, broadcast over that axis
            lead_axis[g] = len(shape)
            shape.append(1)
    return a.reshape(shape).transpose([lead_axis[g] for g in range(LOOP_LEAD)] + tile_axes)


@dataclass(frozen=True, slots=True)
class _Cut:
    """How an input iterator cuts its tensor into every block's (and iteration's) tile."""

    imap: tuple[int, ...]
    forloop_dim: int
    grid: tuple[int, ...]
    loops: int
    post: bool
    """After the loop: read once, so the tiles have no iteration axis."""

    def tiles(self, a: Array) -> Array:
        if self.post:
            return np.squeeze(tile_view(a, self.imap, self.forloop_dim, self.grid, 1), POST_LEAD)
        return tile_view(a, self.imap, self.forloop_dim, self.grid, self.loops)


def assemble(a: Array, omap: Sequence[int], grid: Sequence[int]) -> Array:
    """The device tensor made of every block's tile (grid x, y, z, *tile)."""
    a = np.broadcast_to(a, (*grid, *a.shape[POST_LEAD:]))
    rank = a.ndim - POST_LEAD
    order = [g for g in range(POST_LEAD) if omap[g] == REPLICATE]  # extent 1, verified
    full: list[int] = []
    for d in range(rank):
        axes = [g for g in range(POST_LEAD) if omap[g] == d]
        order += [*axes, POST_LEAD + d]
        full.append(math.prod(grid[g] for g in axes) * a.shape[POST_LEAD + d])
    return a.transpose(order).reshape(full)


def _accumulate(op: Op, args: list[V], domain: Domain[V], loops: int) -> V:
    """Combine the iteration axis (axis 3) of a per-iteration value."""
    it = POST_LEAD

    def every_iteration(v: V) -> V:
        # A loop-invariant value has extent 1 on the iteration axis; it still counts once
        # per iteration. A value that already varies per iteration is passed as it is, so
        # a domain can see the reduction of its own result (e.g. a pending product).
        if domain.shape(v)[it] == loops:
            return v
        return domain.restructure(
            v, lambda a: np.broadcast_to(a, (*a.shape[:it], loops, *a.shape[it + 1 :]))
        )

    def drop_iteration_axis(v: V) -> V:
        return domain.restructure(v, lambda a: np.squeeze(a, axis=it))

    def over_loop(kind: str, v: V) -> V:
        return drop_iteration_axis(domain.reduce(kind, every_iteration(v), it))  # type: ignore[arg-type]

    loop = OP_KINDS[op.kind].loop
    x = args[0]
    if loop is Loop.SUM:
        return over_loop("sum", x)
    if loop is Loop.MAX:
        return over_loop("max", x)
    if loop in (Loop.SUM_LAST, Loop.MEAN_LAST, Loop.RMS_LAST):
        n = domain.shape(x)[-1]
        if loop is Loop.RMS_LAST:
            x = domain.elementwise("square", [x])
        total = over_loop("sum", domain.reduce("sum", x, -1))
        if loop is Loop.SUM_LAST:
            return total
        mean = _plus_eps(domain, domain.scale(total, 1.0 / (n * loops)), op.eps)
        return mean if loop is Loop.MEAN_LAST else domain.elementwise("sqrt", [mean])
    if loop is Loop.RESCALE:
        scores = every_iteration(args[1])
        top = domain.reduce("max", scores, it)
        weight = domain.elementwise("exp", [domain.elementwise("sub", [scores, top])])
        return over_loop("sum", domain.elementwise("mul", [x, weight]))
    raise NotImplementedError(f"no semantics for accumulator '{op.kind}'")
