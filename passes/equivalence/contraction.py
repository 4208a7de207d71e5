"""A domain wrapper that runs block-level matmuls as few large BLAS calls.

The evaluator gives every block and loop iteration its own tile (as leading axes), so a
block matmul is a batch of thousands of tiny products, and `accum_sum` then sums them over
the iteration axis. Numerically that is one large product. This wrapper, around any domain,
keeps a matmul pending until its result is used: a sum over a batch axis of a pending
product becomes a product over the longer contraction (iterations x K); any other use runs
it with the broadcast batch axes folded into rows or columns. Results are the same values
(exact domains) or a reordered sum (float domains).

Products can also be remembered: after `remember_product(a, b)`, the first product of
exactly that data in exactly that layout (a tiled block matmul whose tiles contract back
into the whole operands, say) computes a @ b, and every later one takes it. Nothing is
computed for a pair no program multiplies: of the products the shapes allow, most
programs use one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

import numpy as np

from mirage.dialects import shapes
from mirage.dialects.semantics.domain import Array, Domain, ReduceKind

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Pending(Generic[V]):
    """a @ b, not yet computed."""

    a: V
    b: V
    shape: tuple[int, ...]
    dtype: str | None = None
    """The dtype the product is stored in, once cast (`ContractingDomain.cast`): applied
    when it is computed, so that a kernel's f16 result is rounded (and overflows) as the
    device stores it. A sum over a batch axis of the product does not round the partial
    products, as a device's accumulator does not."""


class ContractingDomain(Domain["V | Pending[V]"], Generic[V]):
    def __init__(
        self, inner: Domain[V], identity: Callable[[V], Hashable | None] | None = None
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.identity = identity
        """Names the data of a value (None: not nameable); needed to remember products."""
        self.known: dict[Hashable, tuple[V, V]] = {}
        """The remembered pairs (they also keep the operands alive, and so their keys
        valid: a key names an address)."""
        self.products: dict[Hashable, V] = {}
        """The remembered products computed so far."""
        self.reused = 0
        """How many products matched a remembered pair (the first one computes it)."""

    def remember_product(self, a: V, b: V) -> None:
        key = self._product_key(a, b)
        if key is not None and key not in self.known:
            self.known[key] = (a, b)

    def _product_key(self, a: V, b: V) -> Hashable | None:
        if self.identity is None:
            return None
        ka, kb = self.identity(a), self.identity(b)
        return None if ka is None or kb is None else (ka, kb)

    def _matmul(self, a: V, b: V) -> V:
        key = self._product_key(a, b) if self.known else None
        pair = self.known.get(key) if key is not None else None
        if pair is None:
            return self.inner.matmul(a, b)
        self.reused += 1
        hit = self.products.get(key)
        if hit is None:
            hit = self.products[key] = self.inner.matmul(*pair)
        shape = shapes.matmul(self.inner.shape(a), self.inner.shape(b))
        return self.inner.restructure(hit, lambda x: x.reshape(shape))

    def _pending(self, value: V | Pending[V]) -> Pending[V] | None:
        return cast(Pending[V], value) if isinstance(value, Pending) else None

    def force(self, value: V | Pending[V]) -> V:
        pending = self._pending(value)
        if pending is not None:
            product = folded_matmul(self.inner, pending.a, pending.b, self._matmul)
            if pending.dtype is not None:
                return self.inner.cast(product, pending.dtype)
            return product
        return cast(V, value)

    def from_array(self, array: Array) -> V:
        return self.inner.from_array(array)

    def to_array(self, value: V | Pending[V]) -> Array:
        return self.inner.to_array(self.force(value))

    def shape(self, value: V | Pending[V]) -> tuple[int, ...]:
        pending = self._pending(value)
        if pending is not None:
            return pending.shape
        return self.inner.shape(cast(V, value))

    def restructure(self, value: V | Pending[V], f: Callable[[Array], Array]) -> V:
        return self.inner.restructure(self.force(value), f)

    def elementwise(self, kind: str, args: Sequence[V | Pending[V]]) -> V:
        return self.inner.elementwise(kind, [self.force(a) for a in args])

    def scale(self, value: V | Pending[V], factor: float) -> V:
        return self.inner.scale(self.force(value), factor)

    def matmul(self, a: V | Pending[V], b: V | Pending[V]) -> Pending[V]:
        fa, fb = self.force(a), self.force(b)
        return Pending(fa, fb, shapes.matmul(self.inner.shape(fa), self.inner.shape(fb)))

    def reduce(self, kind: ReduceKind, value: V | Pending[V], axis: int) -> V:
        pending = self._pending(value)
        if kind == "sum" and pending is not None:
            rank = len(pending.shape)
            ax = axis % rank
            if ax < rank - 2:
                return self._contract(pending, ax)
        return self.inner.reduce(kind, self.force(value), axis)

    def concat(self, values: Sequence[V | Pending[V]], axis: int) -> V:
        return self.inner.concat([self.force(v) for v in values], axis)

    def cast(self, value: V | Pending[V], dtype: str) -> V | Pending[V]:
        pending = self._pending(value)
        if pending is not None:
            return Pending(pending.a, pending.b, pending.shape, dtype)
        return self.inner.cast(cast(V, value), dtype)

    def _contract(self, value: Pending[V], axis: int) -> V:
        """sum over batch axis `axis` of a_l @ b_l = [a_0 .. a_L] @ [b_0; ..; b_L]."""
        inner = self.inner
        a, b = value.a, value.b
        extent = value.shape[axis]
        rank = len(value.shape)

        def into_k_of_a(x: Array) -> Array:
            x = np.broadcast_to(x, (*x.shape[:axis], extent, *x.shape[axis + 1 :]))
            moved = np.moveaxis(x, axis, -2)  # (..., m, L, k)
            merged = moved.reshape(*moved.shape[:-2], -1)
            return np.expand_dims(merged, axis)

        def into_k_of_b(x: Array) -> Array:
            x = np.broadcast_to(x, (*x.shape[:axis], extent, *x.shape[axis + 1 :]))
            moved = np.moveaxis(x, axis, -3)  # (..., L, k, n)
            merged = moved.reshape(*moved.shape[:-3], -1, moved.shape[-1])
            return np.expand_dims(merged, axis)

        del rank
        return folded_matmul(
            inner,
            inner.restructure(a, into_k_of_a),
            inner.restructure(b, into_k_of_b),
            self._matmul,
        )


def folded_matmul(domain: Domain[V], a: V, b: V, matmul: Callable[[V, V], V] | None = None) -> V:
    """a @ b where batch axes that only one operand has (the other broadcasts) are folded
    into that operand's rows or columns, so the domain sees few large products (computed
    by `matmul`, the domain's own by default)."""
    matmul = matmul or domain.matmul
    sa, sb = domain.shape(a), domain.shape(b)
    batch = len(sa) - 2
    into_rows = [i for i in range(batch) if sb[i] == 1 and sa[i] > 1]
    into_cols = [i for i in range(batch) if sa[i] == 1 and sb[i] > 1]
    if not into_rows and not into_cols:
        return matmul(a, b)
    if into_rows:
        a = domain.restructure(a, lambda x: _fold(x, into_rows, -2))
    if into_cols:
        b = domain.restructure(b, lambda x: _fold(x, into_cols, -1))
    product = matmul(a, b)
    rows = [sa[i] for i in into_rows]
    cols = [sb[i] for i in into_cols]
    return domain.restructure(product, lambda x: _unfold(x, into_rows, rows, into_cols, cols))


def _fold(x: Array, axes: list[int], target: int) -> Array:
    """Move batch `axes` next to dim `target` (-2 rows: before it; -1 cols: before it) and
    merge them into it; the axes stay as extent-1 placeholders."""
    rank = x.ndim
    rest = [i for i in range(rank - 2) if i not in axes]
    if target == -2:
        order = [*rest, *axes, rank - 2, rank - 1]
        moved = x.transpose(order)
        merged = moved.reshape(*moved.shape[: len(rest)], -1, x.shape[-1])
    else:
        order = [*rest, rank - 2, *axes, rank - 1]
        moved = x.transpose(order)
        merged = moved.reshape(*moved.shape[: len(rest)], x.shape[-2], -1)
    return np.expand_dims(merged, axes)


def _unfold(
    x: Array, row_axes: list[int], rows: list[int], col_axes: list[int], cols: list[int]
) -> Array:
    """Inverse of the folds on the product: split rows and columns and put the batch axes
    back in place."""
    rank = x.ndim
    batch = rank - 2
    m = x.shape[-2] // math.prod(rows)
    n = x.shape[-1] // math.prod(cols)
    squeezed = np.squeeze(x, axis=tuple(row_axes + col_axes))
    rest = [i for i in range(batch) if i not in row_axes and i not in col_axes]
    lead = squeezed.shape[: len(rest)]
    split = squeezed.reshape(*lead, *rows, m, *cols, n)
    # Current axis order: rest, row axes, m, col axes, n; wanted: batch order, m, n.
    current = [*rest, *row_axes, "m", *col_axes, "n"]
    wanted: list[int | str] = [*range(batch), "m", "n"]
    return split.transpose([current.index(w) for w in wanted])


def array_identity(x: Array) -> Hashable:
    """The data of an array: address, dtype, the matrix dims' shape and strides, and those
    of the batch dims of extent > 1. Two live arrays with equal identities hold the same
    matrices in the same layout."""
    batch = [(n, st) for n, st in zip(x.shape[:-2], x.strides[:-2], strict=True) if n != 1]
    return (
        x.__array_interface__["data"][0],
        x.dtype.str,
        tuple(batch),
        x.shape[-2:],
        x.strides[-2:],
    )
