"""Layout ops normalized away before the search, and restored into the μGraph it finds.

Exported programs move elements around with `kernel.reshape` and `kernel.transpose` and
name scalars with `kernel.constant`; the search generates none of them. Before it, a
program is rewritten so that it holds none (where it can be):

- a multiplication, addition, subtraction, division or power with a splat constant as
  its second operand (either operand, for the commutative ones) becomes the kind's
  immediate form (`mul_scalar`, `add_scalar`, ...: `opkinds.SCALAR_FORMS`); `c - x` and
  `c / x` keep their constant; any other constant of at most `MAX_CONSTANT_ELEMENTS`
  elements becomes an argument of the searched program (replicated like any input);
- `x ** c` for c = 2, 3 or 4 becomes the product of that many x (two multiplications
  where the power is a logarithm and an exponential);
- a transpose of a computed value moves towards the arguments through pointwise ops,
  reductions and norms (a norm whose dim the transpose moves is written out as its
  reduction over the moved dim): QK-norm attention's normalized keys, transposed for the
  scores, become norms of a view of the keys;
- a batched matmul whose operands are reshapes that merge or split their batch dims is done
  on the operands' own batch dims, and its result reshaped (the reshapes then cancel
  against the ones after it, as torch's `bmm` over (batch, heads) exports them);
- a slice of a computed value that only slices read is moved towards the arguments: a
  window of an elementwise op is the op of its operands' windows, a window of a matmul's
  columns the matmul with its rhs's columns (`x @ w_gate_up` chunked in two is two
  matmuls of halves of the fused weight), a window of a norm or reduction that keeps the
  dim they combine the op of the window, a window of a concatenation the piece it lies
  in;
- a chain of reshapes, transposes and slices from an argument is a strided view of that
  argument (`mirage.dialects.strides`; a window with an offset where it slices): the
  searched program takes the viewed tensor as an argument of its own; a chain of
  reshapes and transposes that ends in an output is a view of the output, and the
  searched program returns the value before the chain.

`Normalized.restore` maps a μGraph of the searched program back onto the original
arguments and outputs: a view becomes the `view`/`strides` (and `offset`, for a window) of
the `block.input` that reads it (or of the `block.output` that writes it), a view that only
adds or drops unit dims a reshape (a retype: no launch), a constant a `kernel.constant`.
Where a plain kernel op of the μGraph reads a view (a lone matmul of `x @ w.T`), it becomes
a launch of its own whose block.input reads the view, parallelized like the search's
seeds; only an op with no block-level form (or none that fits the target) reads the chain
rebuilt as reshape and transpose (a window: its own layout ops, slices among them), a
kernel that moves the whole tensor on every call. The restored μGraph is verified against
the original program like every candidate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import (
    COMMUTATIVE_KINDS,
    CONCATS,
    CONSTANTS,
    CONTRACTIONS,
    INPUTS,
    LAUNCHES,
    LAYOUT_OPS,
    NORMS,
    OP_KINDS,
    OUTPUTS,
    PERMUTES,
    POINTWISE,
    PRODUCTS,
    REDUCTIONS,
    RESHAPES,
    SCALAR_FORMS,
    SLICES,
)
from mirage.dialects.strides import (
    Strides,
    contiguous,
    is_window,
    reshaped_strides,
    row_major,
    storage_order,
    transposed,
)
from mirage.dialects.ugraph.graph import AttrValue, Graph, Op, TensorType, make_op
from mirage.passes.superoptimize.seed import fused_structure, parallelized

INTEGRAL_POWERS = (2.0, 3.0, 4.0)
"""Exponents of `x ** c` written as products (`_Program.integral_powers`)."""
MAX_CONSTANT_ELEMENTS = 4096
"""A larger constant stays a kernel op of its own (an argument that size would be read by
every block that uses it)."""

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Origin:
    """Where an argument of the searched program comes from: a view of an argument of the
    original program, or a constant."""

    type: TensorType
    arg: int = -1
    """The original argument (-1: a constant)."""
    strides: Strides = ()
    """Of the argument's dims into the original argument's storage."""
    value: float = 0.0
    """A constant's value."""
    offset: int = 0
    """The storage element of the original argument that the view starts at."""
    window: bool = False
    """The view reads part of the original argument (a slice of it)."""
    chain: tuple[Op, ...] = field(default=(), compare=False)
    """The layout ops that make a window from the original argument, each reading the one
    before it (the first the argument): what a kernel op that reads the window reads."""

    @property
    def contiguous(self) -> bool:
        """A retype: the argument's elements in their own order, under other unit dims."""
        return not self.window and contiguous(self.type.shape, self.strides)


@dataclass(frozen=True)
class Normalized:
    original: Graph
    program: Graph
    """What the search sees: no layout op where they could all be removed."""
    origins: tuple[Origin, ...]
    """Per argument of `program`."""
    output_strides: tuple[Strides | None, ...]
    """Per output of `program`: its strides into the original output's storage, or None
    where it is the original output itself."""

    def restore(self, found: Graph, target: Target) -> Graph:
        """`found`, a μGraph of `program`, as a μGraph of the original program (its plain
        ops that read views launched for `target`)."""
        return _Restorer(self, _launched_where_viewed(self, found, target)).run()


def normalize(program: Graph) -> Normalized | None:
    """The program without its layout ops and constants, or None where it has none that
    this can remove."""
    if not any(_normalizable(op) for op in program.ops):
        return None
    if any(op.body is not None or len(op.results) != 1 for op in program.ops):
        return None  # a μGraph already: its layout is its own
    work = _Program.of(program)
    work.scalar_forms()
    work.integral_powers()
    work.batch_reshapes()
    work.fold_reshapes()
    work.push_slices()
    work.push_transposes()
    work.split_batches()
    work.expands()
    work.sink_batch_reshapes()
    work.fold_reshapes()
    work.batch_reshapes()
    work.dead_code()
    result = work.extract(program)
    if result is None or (result.program.args, result.program.ops) == (program.args, program.ops):
        return None
    return result


def _trailing_kept(src: Shape, dst: Shape) -> int:
    """How many trailing dims a reshape of `src` to `dst` keeps as they are."""
    kept = 0
    while kept < min(len(src), len(dst)) and src[-1 - kept] == dst[-1 - kept]:
        kept += 1
    return kept


def _common_refinement(a: Shape, b: Shape) -> Shape | None:
    """The coarsest shape that both `a` and `b` group (each dim of either a run of its
    dims), or None where their element counts differ: (2, 32) and (2, 8, 4) give
    (2, 8, 4)."""
    if math.prod(a) != math.prod(b):
        return None
    cuts: set[int] = set()
    for shape in (a, b):
        total = 1
        for d in shape:
            total *= d
            cuts.add(total)
    out: list[int] = []
    previous = 1
    for c in sorted(cuts):
        if c % previous:
            return None
        if c != previous:
            out.append(c // previous)
        previous = c
    return tuple(out)


def _normalizable(op: Op) -> bool:
    """A layout op, a constant or an integral power: what `normalize` rewrites."""
    if op.kind == "pow_scalar":
        return dict(op.attrs).get("scalar") in INTEGRAL_POWERS
    return op.kind in LAYOUT_OPS or op.kind in CONSTANTS


# --- a mutable copy of a kernel-level program ------------------------------------------


@dataclass(frozen=True)
class _View:
    """A value that is a view of an argument: its strides into the argument's storage, the
    element it starts at, and the layout ops that make it (each reading the one before)."""

    arg: int
    strides: Strides
    offset: int
    chain: tuple[Op, ...]


@dataclass
class _Node:
    kind: str
    operands: list[int]
    type: TensorType
    attrs: dict[str, AttrValue]


class _Program:
    """Values are ints: the arguments, then one per node (every kernel op but a graph has
    one result). Rewrites append nodes and redirect uses; `dead_code` drops the rest."""

    def __init__(self, args: tuple[TensorType, ...]) -> None:
        self.args = args
        self.nodes: dict[int, _Node] = {}
        self.order: list[int] = []
        self.outputs: list[int] = []
        self.next = len(args)

    @staticmethod
    def of(program: Graph) -> _Program:
        p = _Program(program.args)
        for op, results in program.result_ids():
            p.nodes[results[0]] = _Node(op.kind, list(op.operands), op.results[0], dict(op.attrs))
            p.order.append(results[0])
        p.next = program.num_values
        p.outputs = list(program.outputs)
        return p

    def type_of(self, v: int) -> TensorType:
        return self.args[v] if v < len(self.args) else self.nodes[v].type

    def node(self, v: int) -> _Node | None:
        return self.nodes.get(v)

    def add_before(self, at: int, node: _Node) -> int:
        v = self.next
        self.next += 1
        self.nodes[v] = node
        self.order.insert(self.order.index(at), v)
        return v

    def replace_uses(self, old: int, new: int) -> None:
        for n in self.nodes.values():
            n.operands = [new if o == old else o for o in n.operands]
        self.outputs = [new if o == old else o for o in self.outputs]

    # rewrites ------------------------------------------------------------------------

    def scalar_forms(self) -> None:
        """x * c, c a splat constant of one element, is mul_scalar(x, c) where x has the
        result's shape (x + c add_scalar, x - c sub_scalar, ...: the constant second, or
        either operand of a commutative kind)."""
        for v in list(self.order):
            n = self.nodes[v]
            form = SCALAR_FORMS.get(n.kind)
            if form is None:
                continue
            places = (0, 1) if n.kind in COMMUTATIVE_KINDS else (1,)
            for k in places:
                c = n.operands[k]
                cn = self.node(c)
                other = n.operands[1 - k]
                if (
                    cn is not None
                    and cn.kind in CONSTANTS
                    and cn.type.numel == 1
                    and self.type_of(other).shape == n.type.shape
                ):
                    value = cn.attrs["value"]
                    assert isinstance(value, float | int)
                    self.nodes[v] = _Node(form, [other], n.type, {"scalar": float(value)})
                    break

    def integral_powers(self) -> None:
        """x ** n for n = 2, 3 or 4 is the product of that many x (a square, times x, or
        squared again): two multiplications where a power is a logarithm and an
        exponential, exact for negative x too (GELU's tanh form cubes its input)."""
        for v in list(self.order):
            n = self.nodes[v]
            power = n.attrs.get("scalar") if n.kind == "pow_scalar" else None
            if power not in INTEGRAL_POWERS:
                continue
            x = n.operands[0]
            if power == 2.0:
                self.nodes[v] = _Node("square", [x], n.type, {})
                continue
            square = self.add_before(v, _Node("square", [x], n.type, {}))
            other = x if power == 3.0 else square
            self.nodes[v] = _Node("mul", [square, other], n.type, {})

    def batch_reshapes(self) -> None:
        """matmul(reshape(a), reshape(b)) where the reshapes only regroup batch dims, into
        reshape(matmul(a, b)): the batch dims are those the operands had."""
        for v in list(self.order):
            n = self.nodes[v]
            if n.kind not in CONTRACTIONS or len(n.type.shape) < 3:
                continue
            sources: list[int] = []
            batch: Shape | None = None
            for o in n.operands:
                on = self.node(o)
                if on is None or on.kind not in RESHAPES:
                    sources.append(o)
                    continue
                src = on.operands[0]
                s, t = self.type_of(src).shape, on.type.shape
                if len(s) < 2 or s[-2:] != t[-2:] or (batch is not None and s[:-2] != batch):
                    break
                batch = s[:-2]
                sources.append(src)
            else:
                if batch is None or batch == n.type.shape[:-2]:
                    continue
                if any(
                    self.type_of(s).shape[:-2] not in (batch, ()) for s in sources
                ):  # an operand reshaped otherwise, or broadcast
                    continue
                shape = (*batch, *n.type.shape[-2:])
                mm = self.add_before(
                    v, _Node("matmul", sources, TensorType(shape, n.type.dtype), dict(n.attrs))
                )
                self.nodes[v] = _Node("reshape", [mm], n.type, {})

    def split_batches(self) -> None:
        """A matmul whose operands group the same batch elements differently, ((2, 32)
        and (2, 8, 4): grouped-query attention, its keys repeated for each group of 4
        heads), computed on the finest grouping of both, its result reshaped back."""
        for v in list(self.order):
            n = self.nodes[v]
            if n.kind not in CONTRACTIONS or len(n.type.shape) < 3:
                continue
            sources = [self._batch_source(o) for o in n.operands]
            batches = [self.type_of(src).shape[:-2] for src in sources]
            if batches[0] == batches[1] or not batches[0] or not batches[1]:
                continue
            finest = _common_refinement(batches[0], batches[1])
            if finest is None:
                continue
            operands: list[int] = []
            for src in sources:
                ty = self.type_of(src)
                shape = (*finest, *ty.shape[-2:])
                operands.append(
                    src
                    if ty.shape == shape
                    else self.add_before(
                        v, _Node("reshape", [src], TensorType(shape, ty.dtype), {})
                    )
                )
            shape = (*finest, *n.type.shape[-2:])
            mm = self.add_before(
                v, _Node(n.kind, operands, TensorType(shape, n.type.dtype), dict(n.attrs))
            )
            self.nodes[v] = _Node("reshape", [mm], n.type, {})

    def _batch_source(self, v: int) -> int:
        """What `v` reshapes, where it only regroups batch dims (its last two kept)."""
        n = self.node(v)
        if n is None or n.kind not in RESHAPES:
            return v
        src = n.operands[0]
        s, t = self.type_of(src).shape, n.type.shape
        return src if len(s) >= 2 and s[-2:] == t[-2:] else v

    def expands(self) -> None:
        """A matmul operand that is x times a splat one of a larger shape (torch's expand:
        `repeat_kv`'s keys, one head per group of queries) is x, broadcast along the
        batch dims by the matmul itself."""
        for v in list(self.order):
            n = self.nodes[v]
            if n.kind not in CONTRACTIONS:
                continue
            operands = list(n.operands)
            for i, o in enumerate(operands):
                x = self._expanded(o)
                if x is not None:
                    operands[i] = x
            n.operands = operands

    def _expanded(self, v: int) -> int | None:
        """x where `v` is x * 1 broadcast along leading dims only, else None."""
        n = self.node(v)
        if n is None or n.kind not in PRODUCTS:
            return None
        for k in (0, 1):
            c, x = self.node(n.operands[k]), n.operands[1 - k]
            if c is None or c.kind not in CONSTANTS or c.attrs.get("value") != 1.0:
                continue
            shape = self.type_of(x).shape
            if (
                c.type.shape == n.type.shape
                and len(shape) == len(n.type.shape)
                and shape[-2:] == n.type.shape[-2:]
                and all(a in (1, b) for a, b in zip(shape, n.type.shape, strict=True))
            ):
                return x
        return None

    def sink_batch_reshapes(self) -> None:
        """A reshape that only regroups leading dims moves past the pointwise ops and the
        reductions over its kept trailing dims that read it (their other operands reshaped
        likewise, or broadcast along the leading dims), until it meets another reshape or
        an output: the softmax between two matmuls of grouped-query attention runs on the
        matmuls' own batch dims."""
        moved = True
        while moved:
            moved = False
            for v in list(self.order):
                n = self.nodes.get(v)
                if n is None or n.kind not in POINTWISE | REDUCTIONS:
                    continue
                if self._sink_into(v, n):
                    moved = True
                    break

    def _sink_into(self, v: int, n: _Node) -> bool:
        """Node v (n) computed on the source of a batch reshape it reads, and reshaped
        after; False where none of its operands is such a reshape or another operand does
        not follow it."""
        reshaped = [o for o in n.operands if (r := self.node(o)) is not None and r.kind in RESHAPES]
        for r in reshaped:
            src = self.nodes[r].operands[0]
            src_shape, shape = self.type_of(src).shape, self.type_of(r).shape
            kept = _trailing_kept(src_shape, shape)
            lead = len(shape) - kept
            if kept == len(shape) or kept == 0:
                continue
            if n.kind in REDUCTIONS:
                dim = n.attrs["dim"]
                assert isinstance(dim, int)
                if dim < lead:
                    continue
                out = (*src_shape[: len(src_shape) - kept], *n.type.shape[lead:])
                attrs = {**n.attrs, "dim": dim - lead + len(src_shape) - kept}
                node = self.add_before(
                    v, _Node(n.kind, [src], TensorType(out, n.type.dtype), attrs)
                )
                self.nodes[v] = _Node("reshape", [node], n.type, {})
                return True
            operands: list[int] = []
            for o in n.operands:
                if o == r:
                    operands.append(src)
                    continue
                other = self.node(o)
                o_shape = self.type_of(o).shape
                if (
                    other is not None
                    and other.kind in RESHAPES
                    and self.type_of(other.operands[0]).shape[: len(src_shape) - kept]
                    == src_shape[: len(src_shape) - kept]
                    and _trailing_kept(self.type_of(other.operands[0]).shape, o_shape) >= kept
                ):
                    operands.append(other.operands[0])
                elif all(d == 1 for d in o_shape[:lead]):
                    # broadcast along the leading dims: as many unit dims as the source has
                    ty = TensorType(
                        (1,) * (len(src_shape) - kept) + o_shape[lead:], self.type_of(o).dtype
                    )
                    operands.append(
                        o
                        if ty.shape == o_shape
                        else self.add_before(v, _Node("reshape", [o], ty, {}))
                    )
                else:
                    break
            else:
                out = (*src_shape[: len(src_shape) - kept], *n.type.shape[lead:])
                node = self.add_before(
                    v, _Node(n.kind, operands, TensorType(out, n.type.dtype), dict(n.attrs))
                )
                self.nodes[v] = _Node("reshape", [node], n.type, {})
                return True
        return False

    def fold_reshapes(self) -> None:
        """reshape(reshape(x)) is reshape(x); a reshape to x's own shape is x."""
        for v in list(self.order):
            n = self.nodes.get(v)
            if n is None or n.kind not in RESHAPES:
                continue
            inner = self.node(n.operands[0])
            if inner is not None and inner.kind in RESHAPES:
                n.operands = [inner.operands[0]]
            if self.type_of(n.operands[0]).shape == n.type.shape:
                self.replace_uses(v, n.operands[0])

    def readers(self) -> dict[int, list[int]]:
        """Per value, the nodes that read it."""
        readers: dict[int, list[int]] = {}
        for v in self.order:
            for o in self.nodes[v].operands:
                readers.setdefault(o, []).append(v)
        return readers

    def push_slices(self) -> None:
        """Slices moved towards the arguments, through each op whose every reader is a
        slice that can move (so that no op computes twice what it computed once), until
        none moves."""
        moved = True
        while moved:
            moved = False
            readers = self.readers()
            for src, users in readers.items():
                inner = self.node(src)
                if inner is None or src in self.outputs:
                    continue
                if any(self.nodes[r].kind not in SLICES for r in users):
                    continue
                pushed = [
                    self._pushed(r, inner, self._offsets(r), self.nodes[r].type) for r in users
                ]
                if any(p is None for p in pushed):
                    continue
                for r, p in zip(users, pushed, strict=True):
                    if isinstance(p, int):
                        self.replace_uses(r, p)
                    elif p is not None:
                        self.nodes[r] = p
                moved = True
                break  # the readers changed
            self.dead_code()

    def _offsets(self, v: int) -> list[int]:
        offsets = self.nodes[v].attrs["offsets"]
        assert isinstance(offsets, tuple)
        return [int(o) for o in offsets]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]

    def _slice_of(self, at: int, v: int, offsets: list[int], sizes: Shape) -> int:
        """A slice of value v (before node `at`); the window of a dim of extent 1, which
        broadcasts, is that dim whole."""
        shape = self.type_of(v).shape
        offs = [0 if n == 1 else o for n, o in zip(shape, offsets, strict=True)]
        window = tuple(1 if n == 1 else k for n, k in zip(shape, sizes, strict=True))
        if window == shape:
            return v
        ty = TensorType(window, self.type_of(v).dtype)
        return self.add_before(at, _Node("slice", [v], ty, {"offsets": tuple(offs)}))

    def _pushed(
        self, at: int, inner: _Node, offsets: list[int], ty: TensorType
    ) -> _Node | int | None:
        """The node that computes window `offsets` (of extents ty.shape) of `inner` from
        windows of inner's operands (or the value that is that window), or None where it
        cannot."""
        sizes = ty.shape
        rank = len(sizes)
        kind = inner.kind
        cut = {d for d in range(rank) if sizes[d] != inner.type.shape[d]}
        out = TensorType(sizes, inner.type.dtype)

        def sliced(v: int, offs: list[int], ks: Shape) -> int:
            return self._slice_of(at, v, offs, ks)

        if kind in CONSTANTS:  # a splat: any window of it is a smaller one
            return _Node(kind, [], out, dict(inner.attrs))
        if kind in POINTWISE:
            operands = [sliced(o, offsets, sizes) for o in inner.operands]
            return _Node(kind, operands, out, dict(inner.attrs))
        if kind in SLICES:
            base = inner.attrs["offsets"]
            assert isinstance(base, tuple)
            moved = tuple(int(b) + o for b, o in zip(base, offsets, strict=True))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            return _Node("slice", list(inner.operands), ty, {"offsets": moved})
        if kind in CONTRACTIONS:
            a, b = inner.operands
            ka = self.type_of(a).shape[-1]
            lhs = sliced(a, [*offsets[:-1], 0], (*sizes[:-1], ka))
            rhs = sliced(b, [*offsets[:-2], 0, offsets[-1]], (*sizes[:-2], ka, sizes[-1]))
            return _Node("matmul", [lhs, rhs], out, dict(inner.attrs))
        if kind in REDUCTIONS or kind in NORMS:
            dim = rank - 1 if kind in NORMS else inner.attrs["dim"]
            if dim in cut:
                return None  # the window cuts the dim the op combines
            src_shape = self.type_of(inner.operands[0]).shape
            full = tuple(src_shape[d] if d == dim else k for d, k in enumerate(sizes))
            operands = [sliced(o, offsets, full) for o in inner.operands]
            return _Node(kind, operands, out, dict(inner.attrs))
        if kind in PERMUTES:
            perm = inner.attrs["permutation"]
            assert isinstance(perm, tuple)
            p = [int(x) for x in perm]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            offs = [0] * rank
            ks = [0] * rank
            for d, src_d in enumerate(p):
                offs[src_d], ks[src_d] = offsets[d], sizes[d]
            operand = sliced(inner.operands[0], offs, tuple(ks))
            return _Node("transpose", [operand], out, dict(inner.attrs))
        if kind in CONCATS:
            dim = inner.attrs["dim"]
            assert isinstance(dim, int)
            start = 0
            for piece in inner.operands:
                extent = self.type_of(piece).shape[dim]
                lo = offsets[dim] - start
                if lo >= 0 and lo + sizes[dim] <= extent:
                    offs = [lo if d == dim else o for d, o in enumerate(offsets)]
                    return sliced(piece, offs, sizes)
                start += extent
        return None

    def push_transposes(self) -> None:
        """Transposes of computed values moved towards the arguments, through each op
        whose only reader is the transpose (pointwise ops, reductions, norms), until none
        moves: a transposed argument is a view, a transposed value the search cannot read
        (QK-norm attention's normalized keys, transposed for the scores)."""
        moved = True
        while moved:
            moved = False
            readers = self.readers()
            for v in list(self.order):
                n = self.nodes[v]
                if n.kind not in PERMUTES:
                    continue
                src = n.operands[0]
                inner = self.node(src)
                if inner is None or src in self.outputs or readers.get(src) != [v]:
                    continue
                perm = n.attrs["permutation"]
                assert isinstance(perm, tuple)
                p = [int(x) for x in perm]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
                if self._push_transpose(v, inner, p):
                    moved = True
                    break  # the readers changed
            self.dead_code()

    def _transposed(self, at: int, v: int, perm: list[int]) -> int:
        """v transposed by `perm` (a node before `at`; v itself where only unit dims move)."""
        shape = self.type_of(v).shape
        new = tuple(shape[d] for d in perm)
        splat = self.node(v)
        if splat is not None and splat.kind in CONSTANTS:
            ty = TensorType(new, splat.type.dtype)
            return self.add_before(at, _Node(splat.kind, [], ty, dict(splat.attrs)))
        if [d for d in perm if shape[d] != 1] == sorted(d for d in perm if shape[d] != 1):
            ty = TensorType(new, self.type_of(v).dtype)
            return self.add_before(at, _Node("reshape", [v], ty, {}))
        ty = TensorType(new, self.type_of(v).dtype)
        return self.add_before(at, _Node("transpose", [v], ty, {"permutation": tuple(perm)}))

    def _push_transpose(self, at: int, inner: _Node, perm: list[int]) -> bool:
        """Node `at` (inner transposed by `perm`) computed from transposed operands of
        inner's; False where inner is none of the ops a transpose moves through."""
        ty = self.nodes[at].type
        rank = len(perm)
        kind = inner.kind
        if kind in POINTWISE:
            operands = [self._transposed(at, o, perm) for o in inner.operands]
            self.nodes[at] = _Node(kind, operands, ty, dict(inner.attrs))
            return True
        if kind in REDUCTIONS:
            dim = inner.attrs["dim"]
            assert isinstance(dim, int)
            operand = self._transposed(at, inner.operands[0], perm)
            self.nodes[at] = _Node(kind, [operand], ty, {**inner.attrs, "dim": perm.index(dim)})
            return True
        if kind in RESHAPES:
            # a reshape of leading dims, the transpose of trailing ones it keeps: the
            # transpose first (the last two dims of a head split's keys)
            x = inner.operands[0]
            src = self.type_of(x).shape
            kept = _trailing_kept(src, inner.type.shape)
            moved = [d for d in range(rank) if perm[d] != d]
            if not moved or min(moved) < rank - kept:
                return False
            shift = len(src) - rank
            operand = self._transposed(
                at, x, [*range(len(src) - kept), *(p + shift for p in perm[rank - kept :])]
            )
            self.nodes[at] = _Node(inner.kind, [operand], ty, {})
            return True
        if kind not in NORMS:
            return False
        operands = [self._transposed(at, o, perm) for o in inner.operands]
        if perm[-1] == rank - 1:
            self.nodes[at] = _Node(kind, operands, ty, dict(inner.attrs))
            return True
        # the normalized dim moves: x / sqrt(mean(x^2) + eps) * gain + bias over it
        x, affine = operands[0], operands[1:]
        dim = perm.index(rank - 1)
        full = self.type_of(x).shape
        row = TensorType(tuple(1 if d == dim else n for d, n in enumerate(full)), "f32")
        wide = TensorType(full, "f32")

        def add(kind: str, args: list[int], t: TensorType, **attrs: AttrValue) -> int:
            return self.add_before(at, _Node(kind, args, t, dict(attrs)))

        squares = add("square", [x], wide)
        total = add("reduce_sum", [squares], row, dim=dim, size=1)
        mean = add("mul_scalar", [total], row, scalar=1.0 / full[dim])
        eps = inner.attrs.get("eps", 0.0)
        assert isinstance(eps, float | int)
        if eps:
            mean = add("add_scalar", [mean], row, scalar=float(eps))
        root = add("sqrt", [mean], row)
        normed = _Node("div", [x, root], ty, {})
        # the gain and bias: the kinds the norm's record names for its operands after x
        for kind_, operand in zip(OP_KINDS[kind].operand_implies, affine, strict=False):
            done = add(normed.kind, normed.operands, wide)
            normed = _Node(kind_, [done, operand], ty, {})
        self.nodes[at] = normed
        return True

    def dead_code(self) -> None:
        live = set(self.outputs)
        for v in reversed(self.order):
            if v in live:
                live.update(self.nodes[v].operands)
        self.order = [v for v in self.order if v in live]
        self.nodes = {v: self.nodes[v] for v in self.order}

    # the searched program ------------------------------------------------------------

    def _arg_views(self) -> dict[int, _View]:
        """Values that are strided views (or windows) of an argument."""
        views: dict[int, _View] = {
            a: _View(a, row_major(t.shape), 0, ()) for a, t in enumerate(self.args)
        }
        for v in self.order:
            n = self.nodes[v]
            if n.kind not in LAYOUT_OPS or n.operands[0] not in views:
                continue
            view = views[n.operands[0]]
            strides, offset = view.strides, view.offset
            shape = self.type_of(n.operands[0]).shape
            if n.kind in PERMUTES:
                perm = n.attrs["permutation"]
                assert isinstance(perm, tuple)
                _, strides = transposed(shape, strides, [int(p) for p in perm])  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            elif n.kind in SLICES:
                offset += sum(o * s for o, s in zip(self._offsets(v), strides, strict=True))
            else:
                got = reshaped_strides(shape, strides, n.type.shape)
                if got is None:
                    continue
                strides = got
            step = Op(n.kind, (), (n.type,), tuple(sorted(n.attrs.items())))
            views[v] = _View(view.arg, strides, offset, (*view.chain, step))
        return views

    def _output_view(self, out: int) -> tuple[int, Strides] | None:
        """An output made by a chain of layout ops from a computed value: (the value, its
        strides into the output's storage)."""
        shape = self.type_of(out).shape
        strides = row_major(shape)
        v = out
        while (n := self.node(v)) is not None and n.kind in LAYOUT_OPS and n.kind not in SLICES:
            src = n.operands[0]
            src_shape = self.type_of(src).shape
            if n.kind in PERMUTES:
                perm = n.attrs["permutation"]
                assert isinstance(perm, tuple)
                p = [int(x) for x in perm]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
                inv = [p.index(d) for d in range(len(p))]
                _, strides = transposed(shape, strides, inv)
            else:
                got = reshaped_strides(shape, strides, src_shape)
                if got is None:
                    return None
                strides = got
            shape, v = src_shape, src
        if v == out or self.node(v) is None:
            return None  # no chain, or a chain from an argument
        return v, strides

    def extract(self, original: Graph) -> Normalized | None:
        views = self._arg_views()
        origins: list[Origin] = []
        number: dict[int, int] = {}
        by_origin: dict[Origin, int] = {}

        def argument(v: int) -> int:
            if v in number:
                return number[v]
            n = self.node(v)
            if n is not None and n.kind in CONSTANTS:
                value = n.attrs["value"]
                assert isinstance(value, float | int)
                origin = Origin(n.type, value=float(value))
            else:
                view = views[v]
                ty = self.type_of(v)
                window = is_window(self.args[view.arg].shape, ty.shape, view.offset)
                origin = Origin(
                    ty, view.arg, view.strides, offset=view.offset, window=window, chain=view.chain
                )
            if origin not in by_origin:
                by_origin[origin] = len(origins)
                origins.append(origin)
            number[v] = by_origin[origin]
            return number[v]

        def as_argument(v: int) -> bool:
            n = self.node(v)
            if n is not None and n.kind in CONSTANTS:
                return n.type.numel <= MAX_CONSTANT_ELEMENTS
            return v in views

        outputs: list[int] = []
        output_strides: list[Strides | None] = []
        for out in self.outputs:
            chain = self._output_view(out)
            if chain is None:
                outputs.append(out)
                output_strides.append(None)
            else:
                outputs.append(chain[0])
                output_strides.append(chain[1])
        # what the searched program computes: the ops the outputs need, stopping at views
        live: set[int] = set()
        todo = list(outputs)
        while todo:
            v = todo.pop()
            if v in live or as_argument(v):
                continue
            live.add(v)
            todo.extend(self.nodes[v].operands)
        for v in self.order:  # arguments in the order their first reader reads them
            if v in live:
                for o in self.nodes[v].operands:
                    if as_argument(o):
                        argument(o)
        for v in outputs:
            if as_argument(v):
                return None  # an output that is an argument's view: nothing to search
        n_args = len(origins)
        ops: list[Op] = []
        value_of: dict[int, int] = {}
        for v in self.order:
            if v not in live:
                continue
            n = self.nodes[v]
            operands = tuple(value_of[o] if o in value_of else number[o] for o in n.operands)
            ops.append(Op(n.kind, operands, (n.type,), tuple(sorted(n.attrs.items()))))
            value_of[v] = n_args + len(ops) - 1
        graph = Graph(
            tuple(o.type for o in origins), tuple(ops), tuple(value_of[v] for v in outputs)
        )
        return Normalized(original, graph, tuple(origins), tuple(output_strides))


# --- restoring -----------------------------------------------------------------------


def _read_through_view(norm: Normalized, found: Graph, v: int) -> bool:
    """Value v of `found` is an argument that only layout ops make of the original's."""
    if v >= len(found.args):
        return False
    origin = norm.origins[v]
    return origin.arg >= 0 and not origin.contiguous


def _launched_where_viewed(norm: Normalized, found: Graph, target: Target) -> Graph:
    """`found` with each plain op that reads a view made a one-op launch of its own (whose
    block.input then reads the view in place), where the op has a block-level form and a
    parallelization of it fits the target."""
    ops: list[Op] = []
    for op in found.ops:
        if op.body is None and any(_read_through_view(norm, found, v) for v in op.operands):
            read = list(dict.fromkeys(op.operands))
            alone = Graph(
                tuple(found.type_of(v) for v in read),
                (replace(op, operands=tuple(read.index(v) for v in op.operands)),),
                tuple(range(len(read), len(read) + len(op.results))),
            )
            structure = fused_structure(alone)
            launch = parallelized(alone, structure, target) if structure is not None else None
            if launch is not None:
                (graph,) = launch.ops
                op = replace(graph, operands=tuple(read[i] for i in graph.operands))
        ops.append(op)
    return Graph(found.args, tuple(ops), found.outputs)


class _Restorer:
    def __init__(self, norm: Normalized, found: Graph) -> None:
        self.norm = norm
        self.found = found
        self.original = norm.original
        self.ops: list[Op] = []
        self.n = len(self.original.args)
        self.materialized: dict[int, int] = {}
        """Arguments of the searched program, as values of the restored one."""

    def emit(self, op: Op) -> int:
        self.ops.append(op)
        self.n += 1
        return self.n - 1

    def value(self, arg: int) -> int:
        """An argument of the searched program as a value of the restored program: the
        original argument, a reshape of it (a retype), the chain of a permuted view or of
        a window, or a constant."""
        if arg in self.materialized:
            return self.materialized[arg]
        origin = self.norm.origins[arg]
        if origin.arg < 0:
            v = self.emit(make_op("constant", (), [origin.type], value=origin.value))
        elif origin.window:
            v = origin.arg
            for step in origin.chain:
                v = self.emit(replace(step, operands=(v,)))
        else:
            source = self.original.args[origin.arg]
            v = origin.arg
            shape = origin.type.shape
            if not origin.contiguous:
                order = storage_order(shape, origin.strides)
                stored = TensorType(tuple(shape[d] for d in order), source.dtype)
                v = self.emit(make_op("reshape", (v,), [stored]))
                perm = tuple(order.index(d) for d in range(len(shape)))
                v = self.emit(make_op("transpose", (v,), [origin.type], permutation=perm))
            elif source.shape != shape:
                v = self.emit(make_op("reshape", (v,), [origin.type]))
        self.materialized[arg] = v
        return v

    def run(self) -> Graph:
        found = self.found
        n_found_args = len(found.args)
        local: dict[int, int] = {}
        out_view = self._outputs_in_place()

        def operand(v: int) -> int:
            return self.value(v) if v < n_found_args else local[v]

        for op, results in found.result_ids():
            if op.kind in LAUNCHES and op.body is not None:
                operands: list[int] = []
                views: dict[int, tuple[Shape, Strides, int]] = {}
                for i, v in enumerate(op.operands):
                    if v < n_found_args:
                        origin = self.norm.origins[v]
                        if origin.arg >= 0 and not origin.contiguous:
                            operands.append(origin.arg)
                            views[i] = (origin.type.shape, origin.strides, origin.offset)
                            continue
                    operands.append(operand(v))
                saved = {k: out_view[r] for k, r in enumerate(results) if r in out_view}
                new = self._graph(op, operands, views, saved)
            else:
                new = replace(op, operands=tuple(operand(v) for v in op.operands))
            first = self.n
            self.ops.append(new)
            self.n += len(new.results)
            for k, r in enumerate(results):
                local[r] = first + k
        outputs: list[int] = []
        for k, v in enumerate(found.outputs):
            value = operand(v)
            strides = self.norm.output_strides[k]
            if strides is not None and v not in out_view:
                value = self._store(value, strides, self.original.output_types[k])
            outputs.append(value)
        return Graph(self.original.args, tuple(self.ops), tuple(outputs))

    def _outputs_in_place(self) -> dict[int, Strides]:
        """Results of graph ops that an output saver can write through the output's view:
        each read by nothing but that one output."""
        found = self.found
        made_by_graph = {r for op, rs in found.result_ids() if op.kind in LAUNCHES for r in rs}
        reads = {v for op in found.ops for v in op.operands}
        out: dict[int, Strides] = {}
        for k, v in enumerate(found.outputs):
            strides = self.norm.output_strides[k]
            if (
                strides is not None
                and v in made_by_graph
                and v not in reads
                and found.outputs.count(v) == 1
            ):
                out[v] = strides
        return out

    def _store(self, value: int, strides: Strides, to: TensorType) -> int:
        """The output's chain rebuilt after a value: its transpose into storage order, then
        a reshape."""
        shape = self.ops_type(value).shape
        order = storage_order(shape, strides)
        if order != tuple(range(len(shape))):
            t = TensorType(tuple(shape[d] for d in order), to.dtype)
            value = self.emit(make_op("transpose", (value,), [t], permutation=order))
        if self.ops_type(value).shape != to.shape:
            value = self.emit(make_op("reshape", (value,), [to]))
        return value

    def ops_type(self, v: int) -> TensorType:
        n = len(self.original.args)
        if v < n:
            return self.original.args[v]
        for op in self.ops:
            if v < n + len(op.results):
                return op.results[v - n]
            n += len(op.results)
        raise KeyError(v)

    def _graph(
        self,
        op: Op,
        operands: list[int],
        views: dict[int, tuple[Shape, Strides, int]],
        saved: dict[int, Strides],
    ) -> Op:
        """A graph op reading some of its operands through views and writing some of its
        results through the outputs' views."""
        body = op.body
        assert body is not None
        args = tuple(self.ops_type(v) for v in operands)
        results = list(op.results)
        body_ops: list[Op] = []
        savers = {out: k for k, out in enumerate(body.outputs)}
        for bop, rs in body.result_ids():
            if bop.kind in INPUTS and bop.operands[0] in views:
                shape, strides, offset = views[bop.operands[0]]
                bop = _with_view(bop, shape, strides, offset)
            elif bop.kind in OUTPUTS and rs[0] in savers and savers[rs[0]] in saved:
                k = savers[rs[0]]
                storage = TensorType(
                    self.original.output_types[self._output_index(op, k)].shape,
                    bop.results[0].dtype,
                )
                bop = _with_view(bop, bop.results[0].shape, saved[k])
                bop = replace(bop, results=(storage,))
                results[k] = TensorType(storage.shape, results[k].dtype)
            body_ops.append(bop)
        new_body = Graph(args, tuple(body_ops), body.outputs, body.loop_end)
        return replace(op, operands=tuple(operands), results=tuple(results), body=new_body)

    def _output_index(self, op: Op, k: int) -> int:
        """Which output of the found program result k of `op` is."""
        for o, rs in self.found.result_ids():
            if o is op:
                return self.found.outputs.index(rs[k])
        raise KeyError(k)


def _with_view(op: Op, shape: Shape, strides: Strides, offset: int = 0) -> Op:
    attrs = dict(op.attrs)
    attrs["view"] = tuple(shape)
    attrs["strides"] = tuple(strides)
    if offset:
        attrs["offset"] = offset
    return replace(op, attrs=tuple(sorted(attrs.items())))
