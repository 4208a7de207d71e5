"""Value domains: the arithmetic under the one evaluator.

The evaluator (`evaluate.py`) knows the structure of every op (tiles, loops, accumulators,
broadcasting); a domain knows only how to compute on its values. `FloatDomain` is numpy
floating point; the finite-field verifier supplies its own domain with the same interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Generic, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

from mirage.dialects.opkinds import ELEMENTWISE_KINDS

V = TypeVar("V")
Array = NDArray[Any]
ReduceKind = Literal["sum", "max"]


class Domain(ABC, Generic[V]):
    """Arithmetic on values of type V, each of which has a numpy-like shape."""

    name: str

    @abstractmethod
    def from_array(self, array: Array) -> V:
        """A value from a numpy array of real inputs."""

    @abstractmethod
    def to_array(self, value: V) -> Array:
        """A numpy array that shows the value (for outputs and comparisons)."""

    @abstractmethod
    def shape(self, value: V) -> tuple[int, ...]: ...

    @abstractmethod
    def restructure(self, value: V, f: Callable[[Array], Array]) -> V:
        """Apply a purely structural numpy function (reshape, transpose, broadcast_to,
        indexing) to the value."""

    @abstractmethod
    def elementwise(self, kind: str, args: Sequence[V]) -> V:
        """An op of `mirage.dialects.opkinds`, broadcasting like numpy."""

    @abstractmethod
    def scale(self, value: V, factor: float) -> V:
        """Multiplication by a constant."""

    @abstractmethod
    def matmul(self, a: V, b: V) -> V:
        """Matrix product over the last two dims, broadcasting leading dims."""

    @abstractmethod
    def reduce(self, kind: ReduceKind, value: V, axis: int) -> V:
        """Reduction over one axis, keeping it with extent 1."""

    @abstractmethod
    def concat(self, values: Sequence[V], axis: int) -> V: ...

    def cast(self, value: V, dtype: str) -> V:
        """Storing to a tensor of `dtype`; exact domains leave the value as it is."""
        del dtype
        return value


_NUMPY_DTYPES: dict[str, type[np.floating[Any]]] = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}


class FloatDomain(Domain[Array]):
    """numpy floating point in `compute_dtype`. With `round_to_storage`, every stored tensor
    is rounded to its declared dtype (bf16 by truncating an f32 mantissa to 8 bits, with
    rounding to nearest even), which shows what the program computes on the device."""

    def __init__(
        self, compute_dtype: type[np.floating[Any]] = np.float64, *, round_to_storage: bool = False
    ) -> None:
        self.dtype = compute_dtype
        self.round_to_storage = round_to_storage
        self.name = f"float({np.dtype(compute_dtype).name})"

    def from_array(self, array: Array) -> Array:
        return np.asarray(array, dtype=self.dtype)

    def to_array(self, value: Array) -> Array:
        return value

    def shape(self, value: Array) -> tuple[int, ...]:
        return tuple(value.shape)

    def restructure(self, value: Array, f: Callable[[Array], Array]) -> Array:
        return f(value)

    def elementwise(self, kind: str, args: Sequence[Array]) -> Array:
        with np.errstate(all="ignore"):
            fn = ELEMENTWISE_KINDS[kind].float_fn
            assert fn is not None
            out = fn(*args)
        return np.asarray(out, dtype=self.dtype)

    def scale(self, value: Array, factor: float) -> Array:
        return (value * self.dtype(factor)).astype(self.dtype)

    def matmul(self, a: Array, b: Array) -> Array:
        return np.matmul(a, b)

    def reduce(self, kind: ReduceKind, value: Array, axis: int) -> Array:
        fn = np.sum if kind == "sum" else np.max
        return fn(value, axis=axis, keepdims=True)

    def concat(self, values: Sequence[Array], axis: int) -> Array:
        return np.concatenate(values, axis=axis)

    def cast(self, value: Array, dtype: str) -> Array:
        if not self.round_to_storage:
            return value
        if dtype == "bf16":
            return round_to_bf16(value).astype(self.dtype)
        return value.astype(_NUMPY_DTYPES[dtype]).astype(self.dtype)


def round_to_bf16(value: Array) -> Array:
    """Round to the nearest bfloat16 (ties to even), returned as float32."""
    bits = np.asarray(value, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounding = ((bits >> 16) & 1) + 0x7FFF
    rounded = ((bits + rounding) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32)
