"""Strided views of a tensor's row-major storage: what `block.input` reads and `block.output`
writes when they carry `view` (a logical shape) and `strides` (element strides of each
logical dim into the device tensor's storage).

A view here is always a permutation of a reshape of the storage (every element once): a
transpose, a head split (reshape, then transpose), or a plain retype. That keeps an output
view a bijection (no two blocks write one element) and lets numpy express every view as a
reshape followed by a transpose (`storage_order`).
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


def view_of(a: np.ndarray, shape: Shape, strides: Sequence[int]) -> np.ndarray:
    """The logical tensor of a view of `a`'s storage (any element type, object arrays too)."""
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


def transposed(
    shape: Shape, strides: Sequence[int], permutation: Sequence[int]
) -> tuple[Shape, Strides]:
    return tuple(shape[p] for p in permutation), tuple(strides[p] for p in permutation)
