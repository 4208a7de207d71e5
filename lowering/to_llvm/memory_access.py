"""How tiles are stored and accessed in memory: the storage type of each element type and
the widths of vector accesses. Shared by the kernel emitter (`graph_kernel`) and the load
strategies (`tile_loads`), which emits the copies of input tiles into the kernel's body."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import f16, f32, i16
from xdsl.ir import Attribute

_STORAGE: dict[str, Attribute] = {"f16": f16, "bf16": i16, "f32": f32}
"""bf16 elements are loaded and stored as their 16 raw bits (i16) and widened to f32 where
computed."""


def storage_type(dtype: str) -> Attribute:
    """The LLVM type an element of `dtype` is loaded and stored as."""
    return _STORAGE[dtype]


def vector_width(inner: int, esize: int, limit_bytes: int = 16) -> int:
    """Largest power of two V dividing `inner` with V * esize <= limit_bytes."""
    v = max(1, limit_bytes // esize)
    while v > 1 and inner % v:
        v //= 2
    return v


def contiguous_run(tile: Sequence[int], strides: Sequence[int]) -> int:
    """Elements of a tile's last dim that may go in one vector access of global memory: all
    of them where the dim is contiguous (stride 1) and every other stride keeps the runs
    aligned, one where the view reads the dim strided (a transposed operand)."""
    if strides[-1] != 1 and tile[-1] > 1:
        return 1
    return math.gcd(tile[-1], *strides[:-1]) if len(strides) > 1 else tile[-1]


__all__ = ["contiguous_run", "storage_type", "vector_width"]
