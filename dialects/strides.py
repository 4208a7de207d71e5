"""Strided views of a tensor's row-major storage: what `block.input` reads and `block.output`
writes when they carry `view` (a logical shape) and `strides` (element strides of each
logical dim into the device tensor's storage).

A view here is always a permutation of a reshape of the storage (every element once): a
transpose, a head split (reshape, then transpose), or a plain retype. That keeps an output
view a bijection (no two blocks write one element) and lets numpy express every view as a
reshape followed by a transpose (`storage_order`).

An input iterator may read a window instead (`check_window`): a view with an element
`offset` that visits part of the storage, each element at most once, such as the gate
half of a fused gate/up weight (`x.chunk(2, -1)`), possibly transposed or split.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mirage.dialects.shapes import Shape, ShapeError

Strides = tuple[int, ...]


def row_major(shape: Sequence[int]) -> Strides:
    return tuple(math.prod(shape[d + 1 :]) for d in range(len(shape)))


def contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """The view reads the storage in its own order (a retype: only unit dims differ)."""
    return all(n == 1 or s == r for n, s, r in zip(shape, strides, row_major(shape), strict=True))


def storage_order(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """The logical dims from the slowest in storage to the fastest. Unit dims, whose stride
    does not matter, come first."""
    units = [d for d in range(len(shape)) if shape[d] == 1]
    big = sorted((d for d in range(len(shape)) if shape[d] > 1), key=lambda d: -strides[d])
    return (*units, *big)


def check_view(storage: Shape, shape: Shape, strides: Sequence[int], what: str) -> None:
    """That (shape, strides) visits every element of a tensor of shape `storage` once."""
    if len(shape) != len(strides):
        raise ShapeError(
            f"{what} view has {len(shape)} dims but {len(strides)} strides; they must agree"
        )
    if any(n < 1 for n in shape):
        raise ShapeError(f"{what} view {list(shape)} must have positive extents")
    if math.prod(shape) != math.prod(storage):
        raise ShapeError(
            f"{what} view {list(shape)} has {math.prod(shape)} elements but the tensor "
            f"{list(storage)} has {math.prod(storage)}; a view must cover it exactly"
        )
    expected = 1
    for d in reversed(storage_order(shape, strides)):
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            raise ShapeError(
                f"{what} strides {list(strides)} do not visit every element of "
                f"{list(storage)} once (dim {d} of extent {shape[d]} has stride "
                f"{strides[d]}, expected {expected})"
            )
        expected *= shape[d]


def is_window(storage: Shape, shape: Shape, offset: int) -> bool:
    """A view that reads part of the storage (or starts past its first element)."""
    return offset != 0 or math.prod(shape) != math.prod(storage)


def check_window(
    storage: Shape, shape: Shape, strides: Sequence[int], offset: int, what: str
) -> None:
    """That (shape, strides) from element `offset` visits elements of a tensor of shape
    `storage` only, each at most once: each dim's stride spans the dims faster than it."""
    if len(shape) != len(strides):
        raise ShapeError(
            f"{what} view has {len(shape)} dims but {len(strides)} strides; they must agree"
        )
    if any(n < 1 for n in shape):
        raise ShapeError(f"{what} view {list(shape)} must have positive extents")
    if offset < 0 or any(s < 0 for s in strides):
        raise ShapeError(f"{what} window offset {offset} and strides {list(strides)} must be >= 0")
    span = 1
    for d in reversed(storage_order(shape, strides)):
        if shape[d] == 1:
            continue
        if strides[d] < span:
            raise ShapeError(
                f"{what} strides {list(strides)} visit elements twice (dim {d} of extent "
                f"{shape[d]} has stride {strides[d]}, less than the {span} elements the "
                "faster dims span)"
            )
        span = strides[d] * (shape[d] - 1) + span
    last = offset + span - 1
    if last >= math.prod(storage):
        raise ShapeError(
            f"{what} window from element {offset} reaches element {last}, past the "
            f"{math.prod(storage)} elements of {list(storage)}"
        )


def window_of(a: np.ndarray, shape: Shape, strides: Sequence[int], offset: int) -> np.ndarray:
    """The logical tensor of a window of `a`'s storage (any element type)."""
    index = np.full(tuple(shape), offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, strides, strict=True)):
        index += (np.arange(n) * s).reshape([n if e == d else 1 for e in range(len(shape))])
    return a.reshape(-1)[index]


def view_of(a: np.ndarray, shape: Shape, strides: Sequence[int], offset: int = 0) -> np.ndarray:
    """The logical tensor of a view of `a`'s storage (any element type, object arrays too)."""
    if is_window(tuple(a.shape), shape, offset):
        return window_of(a, shape, strides, offset)
    order = storage_order(shape, strides)
    stored = a.reshape([shape[d] for d in order])
    return stored.transpose([order.index(d) for d in range(len(shape))])


def store_view(v: np.ndarray, storage: Shape, strides: Sequence[int]) -> np.ndarray:
    """The storage tensor that the logical tensor `v`, written through the view, fills."""
    order = storage_order(tuple(v.shape), strides)
    return v.transpose(order).reshape(storage)


def reshaped_strides(shape: Shape, strides: Sequence[int], new: Shape) -> Strides | None:
    """Strides that read the elements of a (shape, strides) view in the row-major order of
    `new`, or None where no strides can (a reshape merging dims that are not adjacent in
    storage). Walks both shapes from the fastest dim, a chunk of storage-contiguous dims at
    a time, as torch's `view` does."""
    if math.prod(shape) != math.prod(new):
        return None
    if not shape:
        return row_major(new)
    out = [0] * len(new)
    view_d = len(new) - 1
    base = strides[-1]
    tensor_numel = 1
    view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                out[view_d] = view_numel * base
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base = strides[d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(out)


def storage_permutation(
    storage: Shape, shape: Shape, strides: Sequence[int]
) -> tuple[int, ...] | None:
    """The storage dim each logical dim is, where the view is a plain permutation of the
    storage's dims (a transpose: no dim merged or split); None otherwise or where unit
    dims make it ambiguous."""
    if len(shape) != len(storage):
        return None
    rm = row_major(storage)
    out: list[int] = []
    for n, s in zip(shape, strides, strict=True):
        dims = [j for j in range(len(storage)) if storage[j] == n and rm[j] == s]
        if len(dims) != 1 or dims[0] in out:
            return None
        out.append(dims[0])
    return tuple(out)


def permuted_view(permutation: Sequence[int], storage: Shape) -> tuple[Shape, Strides]:
    """The view that permutes the dims of a tensor of shape `storage` by `permutation`
    (`storage_permutation`'s answer for another tensor)."""
    return transposed(storage, row_major(storage), permutation)


def transposed(
    shape: Shape, strides: Sequence[int], permutation: Sequence[int]
) -> tuple[Shape, Strides]:
    return tuple(shape[p] for p in permutation), tuple(strides[p] for p in permutation)
