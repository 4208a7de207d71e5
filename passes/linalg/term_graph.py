"""Tensor terms: what a linalg-on-tensors program computes, as a hash-consed DAG.

The importer interprets linalg ops into terms; the emitter covers terms with kernel ops.
Terms are interned, so one value computed twice (`x * x` reads `x` through two operands)
is one term. The constructors fold what is structure only: transposes compose, reshapes
of reshapes collapse, broadcasts are pushed outward (an elementwise op of broadcast values
is the broadcast of the op), and constant operands are folded.

Shapes are numpy-like: an elementwise op broadcasts operands of one rank whose extents are
equal or 1. A `broadcast` term marks a tensor whose natural value is smaller than its
declared shape; consumers that broadcast implicitly look through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mirage.dialects import shapes
from mirage.dialects.semantics.domain import round_to_bf16

Shape = tuple[int, ...]
Array = NDArray[Any]

FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")


def _erf(x: Array) -> Array:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _cmp(pred: str) -> Callable[[Array, Array], Array]:
    # Ordered predicates are false on NaN, unordered ones true; NaN never reaches
    # the numeric matcher's samples, so both families compare alike.
    ops: dict[str, Callable[[Array, Array], Array]] = {
        "eq": np.equal,
        "ne": np.not_equal,
        "gt": np.greater,
        "ge": np.greater_equal,
        "lt": np.less,
        "le": np.less_equal,
    }
    return ops[pred]


def _rsqrt(x: Array) -> Array:
    return 1.0 / np.sqrt(x)


def _same(x: Array) -> Array:
    return x


def _select(c: Array, a: Array, b: Array) -> Array:
    return np.where(c, a, b)


PRIMS: dict[str, tuple[int, Callable[..., Array]]] = {
    "add": (2, np.add),
    "sub": (2, np.subtract),
    "mul": (2, np.multiply),
    "div": (2, np.divide),
    "pow": (2, np.power),
    "max": (2, np.maximum),
    "min": (2, np.minimum),
    "neg": (1, np.negative),
    "exp": (1, np.exp),
    "log": (1, np.log),
    "sqrt": (1, np.sqrt),
    "rsqrt": (1, _rsqrt),
    "abs": (1, np.abs),
    "erf": (1, _erf),
    "tanh": (1, np.tanh),
    "cast": (1, _same),
    "select": (3, _select),
}
"""Scalar primitives of linalg bodies: arity and meaning on float64 numpy arrays.
Comparisons are `cmp_<pred>` (see `prim_fn`)."""


def prim_fn(prim: str) -> Callable[..., Array]:
    if prim.startswith("cmp_"):
        return _cmp(prim.removeprefix("cmp_"))
    return PRIMS[prim][1]


@dataclass(frozen=True, slots=True)
class Term:
    """One node. `kind` is arg, const, ew, reduce, matmul, transpose, reshape, broadcast,
    concat or slice; `attr` is the argument number, the constant, the primitive, (kind,
    dims), the permutation, the concat dim or the slice's offsets (its shape the sizes)."""

    kind: str
    operands: tuple[int, ...]
    shape: Shape
    dtype: str
    attr: Hashable = None

    @property
    def rank(self) -> int:
        return len(self.shape)


class TermGraph:
    """An interned DAG of terms, referred to by integer ids."""

    def __init__(self) -> None:
        self.terms: list[Term] = []
        self._ids: dict[Term, int] = {}
        self.origins: dict[int, Any] = {}
        """The op each term was first made for, to name it in errors."""
        self.origin: Any = None
        """The op being interpreted; new terms record it as their origin."""

    def __getitem__(self, t: int) -> Term:
        return self.terms[t]

    def intern(self, term: Term) -> int:
        found = self._ids.get(term)
        if found is not None:
            return found
        tid = len(self.terms)
        self.terms.append(term)
        self._ids[term] = tid
        if self.origin is not None:
            self.origins[tid] = self.origin
        return tid

    # --- leaves ------------------------------------------------------------------------

    def arg(self, index: int, shape: Shape, dtype: str) -> int:
        return self.intern(Term("arg", (), shape, dtype, index))

    def const(self, value: float, rank: int, dtype: str) -> int:
        value = round_to(float(value), dtype)
        return self.intern(Term("const", (), (1,) * rank, dtype, value))

    def const_value(self, t: int) -> float | None:
        term = self.terms[t]
        return term.attr if term.kind == "const" else None  # type: ignore[return-value]

    # --- elementwise --------------------------------------------------------------------

    def ew(self, prim: str, operands: Sequence[int], dtype: str) -> int:
        """An elementwise primitive; operands are broadcast (same rank, extents 1 or n)."""
        ops = [self.strip(o) for o in operands]
        rank = max(self.terms[o].rank for o in ops)
        ops = [self._to_rank(o, rank) for o in ops]
        logical = operands_at_rank(self, operands, rank)
        full = shapes.broadcast_all([self.terms[o].shape for o in logical])
        natural = shapes.broadcast_all([self.terms[o].shape for o in ops])
        values = [self.const_value(o) for o in ops]
        if all(v is not None for v in values) and not prim.startswith("cmp_"):
            with np.errstate(all="ignore"):
                folded = prim_fn(prim)(*[np.float64(v) for v in values])
            result = self.const(float(folded), rank, dtype)
        elif prim == "cast" and self.terms[ops[0]].dtype == dtype:
            result = ops[0]
        else:
            result = self.intern(Term("ew", tuple(ops), natural, dtype, prim))
        return self.broadcast(result, full)

    def cast(self, t: int, dtype: str) -> int:
        return t if self.terms[t].dtype == dtype else self.ew("cast", [t], dtype)

    def _to_rank(self, t: int, rank: int) -> int:
        term = self.terms[t]
        if term.rank == rank:
            return t
        if term.kind == "const" and term.rank < rank:
            return self.const(term.attr, rank, term.dtype)  # type: ignore[arg-type]
        raise ValueError(f"operand of rank {term.rank} in an op of rank {rank}")

    # --- structure ----------------------------------------------------------------------

    def strip(self, t: int) -> int:
        """The natural value of a broadcast term."""
        term = self.terms[t]
        return term.operands[0] if term.kind == "broadcast" else t

    def broadcast(self, t: int, shape: Shape) -> int:
        t = self.strip(t)
        term = self.terms[t]
        if term.shape == shape:
            return t
        if term.rank != len(shape) or any(
            a not in (1, b) for a, b in zip(term.shape, shape, strict=True)
        ):
            raise ValueError(f"cannot broadcast {term.shape} to {shape}")
        return self.intern(Term("broadcast", (t,), shape, term.dtype))

    def transpose(self, t: int, perm: Sequence[int]) -> int:
        """result dim i is operand dim perm[i]."""
        perm = tuple(perm)
        term = self.terms[t]
        if perm == tuple(range(term.rank)):
            return t
        new_shape = tuple(term.shape[p] for p in perm)
        if term.kind == "broadcast":
            inner = self.transpose(term.operands[0], perm)
            return self.broadcast(inner, new_shape)
        if term.kind == "const":
            return t
        if term.kind == "transpose":
            inner_perm: tuple[int, ...] = term.attr  # type: ignore[assignment]
            return self.transpose(term.operands[0], [inner_perm[p] for p in perm])
        if term.kind == "reshape" and _unit_reshape(self.terms[term.operands[0]].shape, term.shape):
            # move the transpose below a reshape that only adds or drops unit dims, where
            # it can meet (and cancel) another transpose
            x = term.operands[0]
            xs = self.terms[x].shape
            x_dims = [i for i, d in enumerate(xs) if d != 1]
            t_dims = [i for i, d in enumerate(term.shape) if d != 1]
            order = [x_dims[t_dims.index(p)] for p in perm if term.shape[p] != 1]
            rest = [i for i in range(len(xs)) if i not in order]
            return self.reshape(self.transpose(x, order + rest), new_shape)
        moved = [p for p in perm if term.shape[p] != 1]
        if moved == sorted(moved):  # only unit dims move: a reshape
            return self.reshape(t, new_shape)
        return self.intern(Term("transpose", (t,), new_shape, term.dtype, perm))

    def reshape(self, t: int, shape: Shape) -> int:
        shape = tuple(shape)
        term = self.terms[t]
        if term.shape == shape:
            return t
        if math.prod(term.shape) != math.prod(shape):
            raise ValueError(f"cannot reshape {term.shape} to {shape}")
        if term.kind == "const":
            return self.const(term.attr, len(shape), term.dtype)  # type: ignore[arg-type]
        if term.kind == "reshape":
            return self.reshape(term.operands[0], shape)
        if term.kind == "broadcast":
            inner = self.terms[term.operands[0]]
            src = [d for d in term.shape if d != 1]
            dst = [d for d in shape if d != 1]
            if src == dst:  # unit dims only: the broadcast moves outward
                natural = [i for i, d in enumerate(term.shape) if d != 1]
                extents = iter(inner.shape[i] for i in natural)
                inner_shape = tuple(1 if d == 1 else next(extents) for d in shape)
                return self.broadcast(self.reshape(term.operands[0], inner_shape), shape)
        return self.intern(Term("reshape", (t,), shape, term.dtype))

    def concat(self, operands: Sequence[int], dim: int) -> int:
        ops = tuple(operands)
        shape = shapes.concat([self.terms[o].shape for o in ops], dim)
        return self.intern(Term("concat", ops, shape, self.terms[ops[0]].dtype, dim))

    def slice(self, t: int, offsets: Sequence[int], sizes: Sequence[int]) -> int:
        """A window of unit strides. Folded: a whole window is its operand, a window of a
        broadcast (or a constant) the broadcast of its operand's window. (Windows of
        windows and of concatenations are composed at the kernel level, where the search's
        normalization moves every slice towards the arguments.)"""
        offsets, sizes = tuple(offsets), tuple(sizes)
        term = self.terms[t]
        shapes.slice_(term.shape, offsets, sizes)
        if sizes == term.shape:
            return t
        if term.kind == "broadcast":
            inner = self.terms[term.operands[0]]
            keep = [
                (0, 1) if n == 1 else (o, k)
                for n, o, k in zip(inner.shape, offsets, sizes, strict=True)
            ]
            window = self.slice(term.operands[0], [o for o, _ in keep], [k for _, k in keep])
            return self.broadcast(window, sizes)
        return self.intern(Term("slice", (t,), sizes, term.dtype, offsets))

    # --- reductions and contractions ----------------------------------------------------

    def reduce(self, kind: str, t: int, dims: Sequence[int], extents: Shape, dtype: str) -> int:
        """Reduce `dims` of a value whose full (unbroadcast) shape is `extents`, keeping
        them with extent 1. Summing n broadcast copies is a multiplication by n."""
        t = self.strip(t)
        term = self.terms[t]
        scale = 1
        real: list[int] = []
        for d in sorted(dims):
            if term.shape[d] == 1:
                scale *= extents[d] if kind == "sum" else 1
            else:
                real.append(d)
        result = t
        if real:
            contraction = self._contraction(t, real, dtype) if kind == "sum" else None
            if contraction is not None:
                result = contraction
            else:
                shape = tuple(1 if d in real else n for d, n in enumerate(term.shape))
                result = self.intern(Term("reduce", (t,), shape, dtype, (kind, tuple(real))))
        if scale != 1:
            result = self.ew("mul", [result, self.const(scale, term.rank, dtype)], dtype)
        return self.cast(result, dtype)

    def _contraction(self, t: int, dims: list[int], dtype: str) -> int | None:
        """sum over `dims` of a * b, where both a and b span every summed dim, is a matmul:
        dims that only a spans are rows, only b columns, both (unsummed) batch."""
        term = self.terms[t]
        if term.kind != "ew" or term.attr != "mul":
            return None
        a, b = (self._uncast(o) for o in term.operands)
        sa, sb = self.terms[a].shape, self.terms[b].shape
        if a == b or any(sa[d] == 1 or sb[d] == 1 for d in dims):
            return None
        rank = term.rank
        batch = [d for d in range(rank) if d not in dims and sa[d] != 1 and sb[d] != 1]
        rows = [d for d in range(rank) if d not in dims and sa[d] != 1 and sb[d] == 1]
        cols = [d for d in range(rank) if d not in dims and sa[d] == 1 and sb[d] != 1]
        ones = [d for d in range(rank) if d not in dims and sa[d] == 1 and sb[d] == 1]
        if not rows and not cols:
            return None  # a dot product per batch element: a reduction, not a matmul

        def size(ds: list[int], s: Shape) -> int:
            return math.prod(s[d] for d in ds)

        bshape = tuple(sa[d] for d in batch)
        order_a = batch + rows + dims + cols + ones
        lhs = self.reshape(self.transpose(a, order_a), (*bshape, size(rows, sa), size(dims, sa)))
        order_b = batch + dims + cols + rows + ones
        rhs = self.reshape(self.transpose(b, order_b), (*bshape, size(dims, sb), size(cols, sb)))
        out_shape = (*bshape, size(rows, sa), size(cols, sb))
        product = self.intern(Term("matmul", (lhs, rhs), out_shape, dtype))
        # back to the iteration space: batch, rows, cols in place, summed dims of extent 1
        laid = batch + rows + cols + dims + ones
        full = tuple(sa[d] if d in batch or d in rows else sb[d] if d in cols else 1 for d in laid)
        spread = self.reshape(product, full)
        inverse = [laid.index(d) for d in range(rank)]
        return self.transpose(spread, inverse)

    def _uncast(self, t: int) -> int:
        """Widening casts are exact, so a product of widened values is the product of the
        values."""
        term = self.terms[t]
        while (
            term.kind == "ew"
            and term.attr == "cast"
            and _wider_or_equal(term.dtype, self.terms[term.operands[0]].dtype)
        ):
            t = term.operands[0]
            term = self.terms[t]
        return t

    def is_narrowing_cast(self, t: int) -> bool:
        term = self.terms[t]
        return (
            term.kind == "ew"
            and term.attr == "cast"
            and not _wider_or_equal(term.dtype, self.terms[term.operands[0]].dtype)
        )

    # --- traversal ----------------------------------------------------------------------

    def use_counts(self, roots: Sequence[int]) -> dict[int, int]:
        counts: dict[int, int] = {}
        stack = list(roots)
        for r in roots:
            counts[r] = counts.get(r, 0) + 1
        seen: set[int] = set()
        while stack:
            t = stack.pop()
            if t in seen:
                continue
            seen.add(t)
            for o in self.terms[t].operands:
                counts[o] = counts.get(o, 0) + 1
                stack.append(o)
        return counts


def _unit_reshape(a: Shape, b: Shape) -> bool:
    return [d for d in a if d != 1] == [d for d in b if d != 1]


def operands_at_rank(graph: TermGraph, operands: Sequence[int], rank: int) -> list[int]:
    return [graph._to_rank(o, rank) for o in operands]  # pyright: ignore[reportPrivateUsage]


_MANTISSA = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}


def _wider_or_equal(a: str, b: str) -> bool:
    """Whether every value of type b is a value of type a."""
    if a == b:
        return True
    if a not in _MANTISSA or b not in _MANTISSA:
        return False
    return (a, b) in {
        ("f32", "f16"),
        ("f32", "bf16"),
        ("f64", "f16"),
        ("f64", "bf16"),
        ("f64", "f32"),
    }


def wider_or_equal(a: str, b: str) -> bool:
    return _wider_or_equal(a, b)


def round_to(value: float, dtype: str) -> float:
    """A constant as the element type holds it."""
    if dtype == "f32":
        return float(np.float32(value))
    if dtype == "f16":
        return float(np.float16(value))
    if dtype == "bf16":
        return float(round_to_bf16(np.asarray([value]))[0])
    return value
