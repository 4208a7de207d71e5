"""Abstract expressions of μGraph values (paper Table 1), computed on the search model.

Rules, for every op kind of the three levels:
- matmul: sum(k, mul(a, b)), k the contraction extent of the operands it sees (at block
  level, the tile's);
- reduce_sum of a dim of extent n to `size` s: sum(n/s, a); reduce_max: rmax(n/s, a);
- pointwise ops: their record's `abstract` in `mirage.dialects.opkinds` (over the
  algebra `TERMS` implements); square is mul(a, a), rsqrt is div(1, sqrt(a));
- rms_norm over a last dim of extent n: div(x, sqrt(sum(n, mul(x, x)))), times its gain
  and plus its bias;
- input iterators, output savers, the grid partition: the identity (abstract expressions
  say what is computed, not where);
- accumulators: sum(L, a) for a loop range L (accum_max: rmax(L, a)); the *_last forms also
  sum the tile's last dim, sum(L * n, a), and rms takes sqrt(sum(L * n, mul(a, a)));
  accum_rescale(v, s) is sum(L, mul(v, exp(s))). A value that is replicated across the
  loop (it depends on no input iterator that walks the loop) is the same in every
  iteration: its accumulation adds L copies, a constant factor, so the loop adds no sum.
  Likewise for copies along a dim (`copies.py`: blocks that do not depend on a grid
  coordinate save the same tile side by side): a reduction, matmul, rms_norm or
  accumulator counts only the distinct values it sums;
- thread.fuse: its body's elementwise ops composed on the operands' expressions;
- kernel.graph: its block graph's output savers, on the launch's operand expressions;
- kernel.transpose, kernel.reshape: the identity (elements move, each computes what it
  did), with the copies' layout moved along; kernel.slice: the identity, or the pieces of
  a concatenation it keeps; kernel.constant: the empty product ONE;
- concat: `Cat(dim, pieces)`, which every op above follows piece by piece where the
  pieces stay aligned (a contraction over a concatenated dim becomes an add of sums); a
  concatenation cut apart by the grid or the loop becomes `Unknown`.

Constants are not part of the abstraction: mul_scalar is the identity, the other immediate
forms their binary kind with the constant ONE (add_scalar is add(x, ONE), as an add of a
kernel.constant is), a mean is the sum it divides, a norm's eps (an op's property) is
dropped, `sub` is `add` (a - b = a + (-1) b), and the online-softmax stabilizer exp(-max)
of accum_rescale, which any correct use divides out again, is dropped. This keeps
Theorem 1: every μGraph that computes the target up to such constants has an expression
A_eq-equivalent to the target's, so it is never pruned.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from mirage.dialects.opkinds import (
    BLOCK,
    ELEMENTWISE_KINDS,
    OP_KINDS,
    THREAD,
    AbstractOps,
    Family,
    Loop,
    OpKind,
)
from mirage.dialects.shapes import REPLICATE, dim_factors
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.pruning.copies import (
    Factors,
    Layout,
    copies,
    distinct,
    meet,
    meet_broadcast,
    normal,
    plain,
    split,
)
from mirage.passes.pruning.terms import (
    ONE,
    Add,
    Cat,
    Div,
    Exp,
    Fn,
    Mul,
    Sqrt,
    Term,
    Unknown,
    Var,
    rmax_of,
    sum_of,
)

ExprFn = Callable[[Sequence[Term]], Term]


class _TermAlgebra(AbstractOps[Term]):
    """The registry's abstract-expression rules, built as terms."""

    def identity(self, x: Term) -> Term:
        return x

    def one(self) -> Term:
        return ONE

    def add(self, x: Term, y: Term) -> Term:
        return Add(x, y)

    def mul(self, x: Term, y: Term) -> Term:
        return Mul(x, y)

    def div(self, x: Term, y: Term) -> Term:
        return Div(x, y)

    def sqrt(self, x: Term) -> Term:
        return Sqrt(x)

    def exp(self, x: Term) -> Term:
        return Exp(x)

    def opaque(self, name: str, args: Sequence[Term]) -> Term:
        return Fn(name, tuple(args))


TERMS = _TermAlgebra()


def _expr_of(kind: OpKind) -> ExprFn:
    abstract = kind.abstract
    assert abstract is not None
    return lambda a: abstract(TERMS, a, ())


ELEMENTWISE_EXPRS: dict[str, ExprFn] = {k: _expr_of(r) for k, r in ELEMENTWISE_KINDS.items()}
"""The abstract expression of each elementwise kind (its record's `abstract`)."""


def default_names(count: int) -> list[str]:
    """The variable names of graph arguments when no names are given: arg0, arg1, ..."""
    return [f"arg{i}" for i in range(count)]


@dataclass(frozen=True)
class AbstractExprs:
    """The expression of every value of one graph (kernel, block or thread level), and of
    the values inside each op's body."""

    graph: Graph
    terms: tuple[Term, ...]
    """Indexed by value number: arguments first, then each op's results."""
    bodies: Mapping[int, AbstractExprs] = field(default_factory=dict[int, "AbstractExprs"])
    """Op index -> the expressions of that op's body (kernel.graph, thread.fuse)."""

    @classmethod
    def of(
        cls,
        graph: Graph,
        args: Sequence[Term] | None = None,
        names: Sequence[str] | None = None,
    ) -> AbstractExprs:
        """The expressions of a kernel-level graph whose arguments are `args` (by default
        variables named `names`, by default arg0, arg1, ...)."""
        if args is None:
            args = [Var(n) for n in (names or default_names(len(graph.args)))]
        if len(args) != len(graph.args):
            raise ValueError(f"{len(args)} argument expressions for {len(graph.args)} arguments")
        return _evaluate(graph, list(args), _Level.KERNEL)

    def __getitem__(self, value: int) -> Term:
        return self.terms[value]

    @property
    def outputs(self) -> tuple[Term, ...]:
        return tuple(self.terms[v] for v in self.graph.outputs)

    def results(self) -> Iterator[tuple[tuple[int, ...], Term]]:
        """(path, expression) of every op result at every level; a path is the op index
        at each level and then the result index."""
        n = len(self.graph.args)
        for index, op in enumerate(self.graph.ops):
            body = self.bodies.get(index)
            if body is not None:
                for path, term in body.results():
                    yield (index, *path), term
            for r in range(len(op.results)):
                yield (index, r), self.terms[n + r]
            n += len(op.results)


class _Level:
    KERNEL = "kernel"
    BLOCK = "block"
    THREAD = "thread"


@dataclass(frozen=True)
class _Loop:
    """The launch of a block graph: its loop range and grid."""

    loops: int
    grid: tuple[int, ...]


_AXES = ("x", "y", "z", "loop")
"""What a block value can depend on: its block's grid coordinates and the iteration."""
Deps = frozenset[str]
_NONE: Deps = frozenset()


class ExprBuilder:
    """The expressions of a graph built op by op, the way the search builds it: `push` an
    op and read its results' expressions, `pop` it to backtrack.

    For a block graph give the launch's `grid` and `forloop_range`; the ops may come in
    any valid order of the model (in-loop ops, then the ops after the loop). Besides the
    expressions it tracks which elements of each value are copies (`copies.py`) and, in a
    block graph, which grid coordinates and whether the iteration each value depends on,
    so that sums of copies (a constant factor) are not counted as sums."""

    def __init__(
        self,
        args: Sequence[Term],
        arg_types: Sequence[TensorType],
        *,
        grid: Sequence[int] | None = None,
        forloop_range: int | None = None,
        thread: bool = False,
        arg_layouts: Sequence[Layout] | None = None,
    ):
        if (grid is None) != (forloop_range is None):
            raise ValueError("a block graph needs both its grid and its forloop range")
        self.terms: list[Term] = list(args)
        self.shapes: list[tuple[int, ...]] = [t.shape for t in arg_types]
        self.layouts: list[Layout] = (
            list(arg_layouts) if arg_layouts is not None else [plain(s) for s in self.shapes]
        )
        self.deps: list[Deps] = [_NONE] * len(self.terms)
        self.bodies: dict[int, AbstractExprs] = {}
        self._sizes: list[int] = []
        self._loop = (
            _Loop(forloop_range, tuple(grid))
            if grid is not None and forloop_range is not None
            else None
        )
        self._level = _Level.BLOCK if self._loop else (_Level.THREAD if thread else _Level.KERNEL)

    def push(self, op: Op) -> tuple[Term, ...]:
        """Add `op` (its operands name earlier values); the expressions of its results."""
        operands = [self.terms[i] for i in op.operands]
        shapes = [self.shapes[i] for i in op.operands]
        layouts = [self.layouts[i] for i in op.operands]
        deps: Deps = _NONE.union(*(self.deps[i] for i in op.operands))
        index = len(self._sizes)
        out_layouts: list[Layout] | None = None
        kind = OP_KINDS.get(op.kind)
        family = kind.family if kind is not None else None
        body_level = kind.body if kind is not None else None
        if body_level == BLOCK:
            outs, out_layouts, body = _launch(op, operands, layouts)
            self.bodies[index] = body
        elif body_level == THREAD:
            assert op.body is not None
            body = _evaluate(op.body, operands, _Level.THREAD)
            self.bodies[index] = body
            outs = list(body.outputs)
        elif self._loop is not None and family in (Family.INPUT, Family.OUTPUT):
            term, layout, deps = _iterate(op, operands[0], layouts[0], deps, self._loop)
            outs, out_layouts = [term], [layout]
        elif self._loop is not None and kind is not None and kind.loop is not None:
            outs = [_accumulate(kind.loop, operands, shapes, layouts, self._loop.loops, deps)]
            deps = deps - {"loop"}
        else:
            outs = [_op(op, operands, shapes, layouts)]
        if len(outs) != len(op.results):
            reason = f"{op.kind} gives {len(op.results)} results, its body {len(outs)}"
            outs = [Unknown(reason)] * len(op.results)
            out_layouts = None
        if out_layouts is None or len(out_layouts) != len(outs):
            out_layouts = [_layout(op, layouts, shapes, r.shape) for r in op.results]
        self.terms.extend(outs)
        self.shapes.extend(r.shape for r in op.results)
        self.layouts.extend(out_layouts)
        self.deps.extend([deps] * len(outs))
        self._sizes.append(len(outs))
        return tuple(outs)

    def pop(self) -> None:
        """Remove the last op pushed."""
        count = self._sizes.pop()
        first = len(self.terms) - count
        for values in (self.terms, self.shapes, self.layouts, self.deps):
            del values[first:]
        self.bodies.pop(len(self._sizes), None)


def _evaluate(
    graph: Graph,
    args: list[Term],
    level: str,
    loop: _Loop | None = None,
    arg_layouts: Sequence[Layout] | None = None,
) -> AbstractExprs:
    builder = _evaluated(graph, args, level, loop, arg_layouts)
    return AbstractExprs(graph, tuple(builder.terms), dict(builder.bodies))


def _evaluated(
    graph: Graph,
    args: list[Term],
    level: str,
    loop: _Loop | None = None,
    arg_layouts: Sequence[Layout] | None = None,
) -> ExprBuilder:
    builder = ExprBuilder(
        args,
        graph.args,
        grid=loop.grid if loop else None,
        forloop_range=loop.loops if loop else None,
        thread=level == _Level.THREAD,
        arg_layouts=arg_layouts,
    )
    for op in graph.ops:
        builder.push(op)
    return builder


def _launch(
    op: Op, operands: list[Term], layouts: list[Layout]
) -> tuple[list[Term], list[Layout], AbstractExprs]:
    body = op.body
    assert body is not None
    loop = _Loop(op.int_attr("forloop_range"), op.ints_attr("grid"))
    builder = _evaluated(body, operands, _Level.BLOCK, loop, layouts)
    exprs = AbstractExprs(body, tuple(builder.terms), dict(builder.bodies))
    return list(exprs.outputs), [builder.layouts[v] for v in body.outputs], exprs


# --- one op ---------------------------------------------------------------------------------


def _unknown(operands: Sequence[Term]) -> Term | None:
    for t in operands:
        if isinstance(t, Unknown):
            return t
    return None


def _reduced_copies(factors: Factors, extent: int, size: int) -> int:
    """Copies among the values a reduction to `size` combines into each element."""
    parts = split(factors, [extent // size, size])
    return copies(parts[0]) if parts is not None else 1


def _op(op: Op, operands: list[Term], shapes: list[tuple[int, ...]], layouts: list[Layout]) -> Term:
    """The expression of an op that is not an input iterator, output saver or
    accumulator, at any level."""
    bad = _unknown(operands)
    if bad is not None:
        return bad
    kind = OP_KINDS.get(op.kind)
    if kind is None:
        return Unknown(f"no abstract expression for op kind '{op.kind}'")
    abstract = kind.abstract
    if abstract is not None:
        params = kind.param_values(op.attr)
        return _map(lambda a: abstract(TERMS, a, params), operands)
    family = kind.family
    if family is Family.CONTRACTION:
        # Products that repeat along the contraction are summed once per copy.
        same = copies(meet(layouts[0][-1], layouts[1][-2]))
        return _matmul(operands[0], operands[1], len(shapes[0]), shapes[0][-1] // same)
    if family is Family.REDUCTION:
        dim, size = op.int_attr("dim"), op.int_attr("size")
        n = shapes[0][dim]
        repeats = _reduced_copies(layouts[0][dim], n, size)
        return _reduce(kind.reduce == "sum", operands[0], dim, n, size, repeats)
    if family is Family.NORM:
        n = shapes[0][-1] // copies(layouts[0][-1])
        return _rms_norm(operands, n, len(shapes[0]) - 1)
    if family is Family.CONCAT:
        return _concat(operands, shapes, op.int_attr("dim"))
    if family is Family.CONSTANT:
        # Constants are not part of the abstraction (as mul_scalar's factor is not): a
        # constant operand is the empty product, so x * c is x and x + c is add(x, 1).
        return ONE
    if family in (Family.PERMUTE, Family.RESHAPE):
        # Moving elements leaves what each one computes as it was.
        return operands[0]
    if family is Family.SLICE:
        return _slice(operands[0], op.ints_attr("offsets"), op.results[0].shape)
    return Unknown(f"no abstract expression for op kind '{op.kind}'")


def _layout(
    op: Op, layouts: list[Layout], shapes: list[tuple[int, ...]], shape: tuple[int, ...]
) -> Layout:
    """Which elements of the result are copies (ops other than input iterators, output
    savers and graph-defined ops)."""
    kind = OP_KINDS.get(op.kind)
    family = kind.family if kind is not None else None
    loop = kind.loop if kind is not None else None
    if family is Family.CONSTANT:
        return tuple(normal([(n, True)]) for n in shape)
    if family is Family.PERMUTE:
        return tuple(layouts[0][p] for p in op.ints_attr("permutation"))
    if family is Family.SLICE:
        # A dim kept whole keeps its copies; a window of one claims none (the safe side).
        return tuple(
            layouts[0][d] if n == shapes[0][d] else distinct(n) for d, n in enumerate(shape)
        )
    if family is Family.RESHAPE:
        digits = tuple(f for factors in layouts[0] for f in factors)
        parts = split(digits, shape)
        return tuple(parts) if parts is not None else plain(shape)
    if not layouts or family is Family.CONCAT:
        return plain(shape)
    if family is Family.CONTRACTION:
        a, b = layouts
        batch = meet_broadcast([a[:-2], b[:-2]], shape[:-2])
        return (*batch, a[-2], b[-1])
    if family is Family.REDUCTION:
        dim, size = op.int_attr("dim"), op.int_attr("size")
        parts = split(layouts[0][dim], [shapes[0][dim] // size, size])
        inner = parts[1] if parts is not None else distinct(size)
        return (*layouts[0][:dim], inner, *layouts[0][dim + 1 :])
    if loop in (Loop.SUM_LAST, Loop.MEAN_LAST, Loop.RMS_LAST):
        return (*layouts[0][:-1], ())
    if loop is Loop.RESCALE:
        return meet_broadcast(layouts, shape)
    if all(len(layout) == len(shape) for layout in layouts):
        # elementwise ops, thread.fuse, mul_scalar, rms_norm, accum_sum, accum_max
        return meet_broadcast(layouts, shape)
    return plain(shape)


def _iterate(
    op: Op, source: Term, layout: Layout, deps: Deps, loop: _Loop
) -> tuple[Term, Layout, Deps]:
    """An input iterator (or output saver): the same expression; which digits of the
    tile (or tensor) are copies, and what the tile depends on."""
    if OP_KINDS[op.kind].family is Family.OUTPUT:
        return _output(op, source, layout, deps, loop)
    imap, fdim = op.ints_attr("imap"), op.int_attr("forloop_dim")
    shape = op.results[0].shape
    tile: list[Factors] = []
    depends: set[str] = set()
    for d, n in enumerate(shape):
        cuts = dim_factors(imap, loop.grid, fdim, loop.loops, d)
        parts = split(layout[d], [p for _, p in cuts] + [n])
        for k, (axis, p) in enumerate(cuts):
            if p > 1 and (parts is None or not all(c for _, c in parts[k])):
                depends.add(_AXES[axis])
        tile.append(parts[-1] if parts is not None else distinct(n))
    if isinstance(source, Cat):
        cut = any(d == source.dim and loop.grid[g] > 1 for g, d in enumerate(imap)) or (
            fdim == source.dim and loop.loops > 1
        )
        if cut:
            source = Unknown("a concatenation is cut across blocks or loop iterations")
    return source, tuple(tile), frozenset(depends)


def _output(
    op: Op, tile: Term, layout: Layout, deps: Deps, loop: _Loop
) -> tuple[Term, Layout, Deps]:
    omap = op.ints_attr("omap")
    dims: list[Factors] = []
    for d, factors in enumerate(layout):
        blocks = [
            (n, _AXES[g] not in deps) for g, n in dim_factors(omap, loop.grid, REPLICATE, 1, d)
        ]
        dims.append(normal([*blocks, *factors]))
    if isinstance(tile, Cat):
        parts = math.prod(loop.grid[g] for g, d in enumerate(omap) if d == tile.dim)
        tile = _cat(tile.dim, list(tile.pieces) * parts)
    return tile, tuple(dims), _NONE


def _accumulate(
    loop: Loop,
    operands: list[Term],
    shapes: list[tuple[int, ...]],
    layouts: list[Layout],
    loops: int,
    deps: Deps,
) -> Term:
    bad = _unknown(operands)
    if bad is not None:
        return bad
    # Over a value that is the same in every iteration the loop adds copies (a constant
    # factor), not a new sum.
    steps = loops if "loop" in deps else 1
    x = operands[0]
    if loop is Loop.SUM:
        return _map(lambda a: sum_of(steps, a[0]), [x])
    if loop is Loop.MAX:
        return _map(lambda a: rmax_of(steps, a[0]), [x])
    if loop is Loop.RESCALE:
        return _map(lambda a: sum_of(steps, Mul(a[0], Exp(a[1]))), [x, operands[1]])
    shape = shapes[0]
    last = len(shape) - 1
    n = shape[-1] // copies(layouts[0][-1])
    if loop in (Loop.SUM_LAST, Loop.MEAN_LAST):
        return _reduce_last(lambda e, a: sum_of(steps * e, a), x, n, last)
    if loop is Loop.RMS_LAST:
        return _reduce_last(lambda e, a: sum_of(steps * e, Mul(a, a)), x, n, last, Sqrt)
    return Unknown(f"no abstract expression for accumulator '{loop.value}'")


# --- pointwise and piecewise ----------------------------------------------------------------


def _cat(dim: int, pieces: list[tuple[int, Term]]) -> Term:
    """A concatenation, adjacent pieces of one expression merged (expressions do not depend
    on positions, so they are one piece)."""
    merged: list[tuple[int, Term]] = []
    for extent, term in pieces:
        if merged and merged[-1][1] is term:
            merged[-1] = (merged[-1][0] + extent, term)
        else:
            merged.append((extent, term))
    if len(merged) == 1:
        return merged[0][1]
    return Cat(dim, tuple(merged))


def _split(cat: Cat, cuts: list[int]) -> list[Term]:
    """The pieces of `cat` refined at the given boundaries (a sorted list of end offsets)."""
    out: list[Term] = []
    ends: list[tuple[int, Term]] = []
    offset = 0
    for extent, term in cat.pieces:
        offset += extent
        ends.append((offset, term))
    k = 0
    for end in cuts:
        while ends[k][0] < end:
            k += 1
        out.append(ends[k][1])
    return out


def _map(fn: ExprFn, operands: Sequence[Term]) -> Term:
    """fn applied piece by piece: operands that are concatenations along one dim are
    aligned; the others are the same for every piece."""
    cats = [t for t in operands if isinstance(t, Cat)]
    if not cats:
        return fn(operands)
    dim = cats[0].dim
    if any(c.dim != dim for c in cats):
        return Unknown("concatenations along different dims meet")
    ends: set[int] = set()
    for c in cats:
        offset = 0
        for extent, _ in c.pieces:
            offset += extent
            ends.add(offset)
    cuts = sorted(ends)
    columns = [_split(t, cuts) if isinstance(t, Cat) else [t] * len(cuts) for t in operands]
    pieces: list[tuple[int, Term]] = []
    start = 0
    for k, end in enumerate(cuts):
        piece = fn([col[k] for col in columns])
        if isinstance(piece, Cat | Unknown):
            return piece if isinstance(piece, Unknown) else Unknown("nested concatenation")
        pieces.append((end - start, piece))
        start = end
    return _cat(dim, pieces)


def _add_all(terms: Sequence[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = Add(out, t)
    return out


def _reduce_last(
    fn: Callable[[int, Term], Term],
    x: Term,
    extent: int,
    last: int,
    wrap: Callable[[Term], Term] | None = None,
) -> Term:
    """fn(extent, x) over the last dim, splitting a concatenation of that dim into an add
    of its pieces' reductions; `wrap` applies to the total."""
    if isinstance(x, Cat) and x.dim == last:
        total = _add_all([fn(e, p) for e, p in x.pieces])
    elif isinstance(x, Cat):
        return _map(lambda a: _reduce_last(fn, a[0], extent, last, wrap), [x])
    else:
        total = fn(extent, x)
    return wrap(total) if wrap is not None else total


def _reduce(is_sum: bool, x: Term, dim: int, extent: int, size: int, repeats: int = 1) -> Term:
    """Reduction of `dim` (of `extent`) to `size`; each result combines `repeats` copies
    of every distinct value."""
    make = sum_of if is_sum else rmax_of

    def combine(terms: list[Term]) -> Term:
        if is_sum:
            return _add_all(terms)
        out = terms[0]
        for t in terms[1:]:
            out = Fn("max", (out, t))
        return out

    if isinstance(x, Cat) and x.dim == dim:
        offsets: list[int] = []
        offset = 0
        for e, _ in x.pieces:
            offsets.append(offset)
            offset += e
        if any(o % size or e % size for o, (e, _) in zip(offsets, x.pieces, strict=True)):
            return Unknown("a reduction interleaves the pieces of a concatenation")
        return combine([make(e // size, p) for e, p in x.pieces])
    return _map(lambda a: make(extent // size // repeats, a[0]), [x])


def _rms_norm(operands: Sequence[Term], extent: int, last: int) -> Term:
    x = operands[0]
    denominator = _reduce_last(lambda e, a: sum_of(e, Mul(a, a)), x, extent, last, Sqrt)
    if isinstance(denominator, Unknown):
        return denominator
    if isinstance(denominator, Cat):
        out = _map(lambda a: Div(a[0], a[1]), [x, denominator])
    else:
        out = _map(lambda a: Div(a[0], denominator), [x])
    if len(operands) > 1:  # the gain
        out = _map(lambda a: Mul(a[0], a[1]), [out, operands[1]])
    if len(operands) > 2:  # the bias
        out = _map(lambda a: Add(a[0], a[1]), [out, operands[2]])
    return out


def _matmul(a: Term, b: Term, rank: int, k: int) -> Term:
    """a times b (of `rank`), summing k distinct products (when neither is concatenated
    along the contraction, whose pieces then give the extents)."""
    contraction_a = isinstance(a, Cat) and a.dim == rank - 1
    contraction_b = isinstance(b, Cat) and b.dim == rank - 2
    if not (contraction_a or contraction_b):
        if isinstance(a, Cat) and isinstance(b, Cat) and a.dim != b.dim:
            return Unknown("a matmul of concatenations along different dims")
        return _map(lambda t: sum_of(k, Mul(t[0], t[1])), [a, b])
    # A contraction over concatenated dims: an add over aligned pieces.
    if (isinstance(a, Cat) and not contraction_a) or (isinstance(b, Cat) and not contraction_b):
        return Unknown("a matmul of concatenations along different dims")
    ends: set[int] = set()
    for t in (a, b):
        if isinstance(t, Cat):
            offset = 0
            for e, _ in t.pieces:
                offset += e
                ends.add(offset)
    cuts = sorted(ends)
    left = _split(a, cuts) if isinstance(a, Cat) else [a] * len(cuts)
    right = _split(b, cuts) if isinstance(b, Cat) else [b] * len(cuts)
    terms: list[Term] = []
    start = 0
    for k_piece, (x, y) in zip(cuts, zip(left, right, strict=True), strict=True):
        terms.append(sum_of(k_piece - start, Mul(x, y)))
        start = k_piece
    return _add_all(terms)


def _slice(x: Term, offsets: Sequence[int], sizes: Sequence[int]) -> Term:
    """A window: what each kept element computes; of a concatenation, the pieces (or parts
    of pieces) the window keeps along its dim."""
    if not isinstance(x, Cat):
        return x
    lo = offsets[x.dim]
    hi = lo + sizes[x.dim]
    kept: list[tuple[int, Term]] = []
    start = 0
    for extent, term in x.pieces:
        a, b = max(start, lo), min(start + extent, hi)
        if a < b:
            kept.append((b - a, term))
        start += extent
    return _cat(x.dim, kept)


def _concat(operands: list[Term], shapes: list[tuple[int, ...]], dim: int) -> Term:
    pieces: list[tuple[int, Term]] = []
    for term, shape in zip(operands, shapes, strict=True):
        if isinstance(term, Cat):
            if term.dim != dim:
                return Unknown("a concatenation of concatenations along another dim")
            pieces.extend(term.pieces)
        else:
            pieces.append((shape[dim], term))
    return _cat(dim, pieces)
