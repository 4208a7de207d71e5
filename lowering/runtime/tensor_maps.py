"""Tensor maps of TMA copies, encoded by the driver (`cuTensorMapEncodeTiled`) for the
buffer addresses of a run and kept per (map, address): a repeated run with the same
tensors encodes nothing, and a new tensor costs one driver call on the host. The most
recently used `MAX_KEPT` are kept (callers whose activations move every call, such as a
framework's allocator, do not grow it without bound)."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from mirage.lowering.runtime import driver
from mirage.lowering.runtime.errors import ArgumentError
from mirage.lowering.runtime.program import TensorMapSpec

TENSOR_MAP_BYTES = 128
MAX_KEPT = 1024
GLOBAL_ALIGN = 16
"""What the driver asks of a tensor map's global address."""

DATA_TYPES = {
    "f16": "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
    "bf16": "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
    "f32": "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
    "f64": "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",
}
SWIZZLES = {
    0: "CU_TENSOR_MAP_SWIZZLE_NONE",
    32: "CU_TENSOR_MAP_SWIZZLE_32B",
    64: "CU_TENSOR_MAP_SWIZZLE_64B",
    128: "CU_TENSOR_MAP_SWIZZLE_128B",
}


def encode_arguments(spec: TensorMapSpec, address: int) -> tuple[Any, ...]:
    """The arguments of `cuTensorMapEncodeTiled` for `spec` over the tensor at `address`."""
    if address % GLOBAL_ALIGN:
        raise ArgumentError(
            f"buffer {spec.buffer} at {address:#x} is not {GLOBAL_ALIGN}-byte aligned, "
            "which its tensor map needs"
        )
    drv = driver.api()
    rank = len(spec.dims)
    return (
        getattr(drv.CUtensorMapDataType, DATA_TYPES[spec.dtype]),
        rank,
        address,
        [drv.cuuint64_t(d) for d in spec.dims],
        [drv.cuuint64_t(s) for s in spec.strides],
        [drv.cuuint32_t(b) for b in spec.box],
        [drv.cuuint32_t(1)] * rank,
        drv.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
        getattr(drv.CUtensorMapSwizzle, SWIZZLES[spec.swizzle]),
        drv.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        drv.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
    )


def encode(spec: TensorMapSpec, address: int) -> bytes:
    """The 128 bytes of the tensor map, as the kernel parameter takes them."""
    tmap = driver.call("cuTensorMapEncodeTiled", *encode_arguments(spec, address))
    return ctypes.string_at(int(tmap.getPtr()), TENSOR_MAP_BYTES)


class TensorMaps:
    """Encoded maps by (spec, address), each in 64-byte aligned host memory."""

    def __init__(self) -> None:
        self._maps: dict[tuple[TensorMapSpec, int], np.ndarray[Any, np.dtype[np.uint64]]] = {}

    def get(self, spec: TensorMapSpec, address: int) -> np.ndarray[Any, np.dtype[np.uint64]]:
        key = (spec, address)
        found = self._maps.pop(key, None)
        if found is None:
            found = np.frombuffer(encode(spec, address), dtype=np.uint64).copy()
            if len(self._maps) >= MAX_KEPT:
                del self._maps[next(iter(self._maps))]
        self._maps[key] = found  # most recent last
        return found


__all__ = ["TENSOR_MAP_BYTES", "TensorMaps", "encode", "encode_arguments"]
