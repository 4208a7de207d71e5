"""Reading tensors handed to a program, without importing the framework that made them.

A tensor arrives as a numpy array, as anything with DLPack (`__dlpack__` and
`__dlpack_device__`: torch, cupy, jax, numpy) or as anything with
`__cuda_array_interface__` (numba, cupy, torch). `view_array` reduces each to an
`ArrayView`: an address, a shape, an element type and where the memory lives. DLPack
capsules are read with ctypes, so no framework is imported here.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mirage.lowering.runtime.errors import ArgumentError

# DLPack device types (dlpack.h).
DL_CPU = 1
DL_CUDA = 2
DL_CUDA_HOST = 3
DL_CUDA_MANAGED = 13
_HOST_DEVICES = (DL_CPU, DL_CUDA_HOST)
_CUDA_DEVICES = (DL_CUDA, DL_CUDA_MANAGED)

# DLPack type codes.
_DL_INT, _DL_UINT, _DL_FLOAT, _DL_BFLOAT = 0, 1, 2, 4
_DL_CODE_NAMES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}
_DL_DTYPES = {(_DL_FLOAT, 16): "f16", (_DL_FLOAT, 32): "f32", (_DL_FLOAT, 64): "f64"}
_DL_DTYPES[(_DL_BFLOAT, 16)] = "bf16"
_DL_READ_ONLY = 1  # DLPACK_FLAG_BITMASK_READ_ONLY

_TYPESTR_DTYPES = {"f2": "f16", "f4": "f32", "f8": "f64"}

HOST_BF16_BITS = "u16"
"""Element type of a host array holding bf16 values as raw 16-bit patterns (numpy uint16)."""


class DLDevice(ctypes.Structure):
    _fields_ = (("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32))


class DLDataType(ctypes.Structure):
    _fields_ = (("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16))


class DLTensor(ctypes.Structure):
    _fields_ = (
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    )


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = (
        ("dl_tensor", DLTensor),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", _Deleter),
    )


class DLPackVersion(ctypes.Structure):
    _fields_ = (("major", ctypes.c_uint32), ("minor", ctypes.c_uint32))


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = (
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", _Deleter),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    )


_capsule_get_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_get_name.restype = ctypes.c_char_p
_capsule_get_name.argtypes = (ctypes.py_object,)
_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = (ctypes.py_object, ctypes.c_char_p)
_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = (ctypes.py_object, ctypes.c_char_p)


@dataclass(frozen=True)
class ArrayView:
    """Where a tensor's elements are and how they are laid out."""

    ptr: int
    shape: tuple[int, ...]
    dtype: str
    """f16, bf16, f32, f64, u16 (raw bf16 bits from numpy), or a description of another type."""
    on_device: bool
    device_id: int
    contiguous: bool
    readonly: bool
    stream: int | None = None
    """A stream the producer may still be writing on (from `__cuda_array_interface__`)."""
    owner: Any = None
    """Keeps the memory alive while the view is in use."""

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def describe(self) -> str:
        dims = "x".join(map(str, self.shape))
        where = f"cuda:{self.device_id}" if self.on_device else "host"
        return f"{dims}x{self.dtype} on {where}" if dims else f"{self.dtype} scalar on {where}"


def _row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides: list[int] = []
    step = 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def is_row_major(shape: tuple[int, ...], strides: tuple[int, ...] | None) -> bool:
    """Whether element `strides` address `shape` densely in row-major order."""
    if strides is None:
        return True
    want = _row_major(shape)
    return all(n == 1 or s == w for n, s, w in zip(shape, strides, want, strict=True))


def _numpy_dtype_name(dtype: np.dtype[Any]) -> str:
    if dtype.name == "bfloat16":  # ml_dtypes, and any numpy extension type of that name
        return "bf16"
    return {
        "float16": "f16",
        "float32": "f32",
        "float64": "f64",
        "uint16": HOST_BF16_BITS,
    }.get(dtype.name, dtype.name)


def _from_numpy(a: np.ndarray[Any, Any]) -> ArrayView:
    if a.dtype.byteorder == ">":
        raise ArgumentError(f"big-endian arrays are not supported ({a.dtype})")
    itemsize = a.dtype.itemsize
    strides = None if itemsize == 0 else tuple(s // itemsize for s in a.strides)
    dense = all(s % itemsize == 0 for s in a.strides) if itemsize else True
    return ArrayView(
        ptr=int(a.ctypes.data),
        shape=tuple(int(d) for d in a.shape),
        dtype=_numpy_dtype_name(a.dtype),
        on_device=False,
        device_id=0,
        contiguous=dense and is_row_major(a.shape, strides),
        readonly=not a.flags.writeable,
        owner=a,
    )


def dlpack_stream_argument(stream: int) -> int:
    """The `stream` value DLPack expects for our stream handle (0 is ambiguous there)."""
    return 1 if stream == 0 else stream


def _call_dlpack(obj: Any, stream: int | None) -> Any:
    try:
        try:
            return obj.__dlpack__(stream=stream, max_version=(1, 0))
        except TypeError:
            return obj.__dlpack__(stream=stream)
    except Exception as e:
        raise ArgumentError(f"__dlpack__ of {type(obj).__name__} failed: {e}") from None


def read_dlpack_capsule(capsule: Any, owner: Any) -> ArrayView:
    """Read the tensor a DLPack capsule describes, leaving the capsule unconsumed."""
    name = _capsule_get_name(capsule)
    if name not in (b"dltensor", b"dltensor_versioned"):
        shown = name.decode(errors="replace") if name else None
        raise ArgumentError(f"not an unused DLPack capsule (capsule name {shown!r})")
    address = _capsule_get_pointer(capsule, name)
    readonly = False
    if name == b"dltensor_versioned":
        managed = DLManagedTensorVersioned.from_address(address)
        if managed.version.major != 1:
            raise ArgumentError(f"DLPack version {managed.version.major} is not supported")
        readonly = bool(managed.flags & _DL_READ_ONLY)
        t = managed.dl_tensor
    else:
        t = DLManagedTensor.from_address(address).dl_tensor
    ndim = int(t.ndim)
    shape = tuple(int(t.shape[i]) for i in range(ndim))
    strides = tuple(int(t.strides[i]) for i in range(ndim)) if t.strides else None
    code, bits, lanes = int(t.dtype.code), int(t.dtype.bits), int(t.dtype.lanes)
    if lanes != 1:
        dtype = f"{_DL_CODE_NAMES.get(code, f'code{code}')}{bits}x{lanes}"
    else:
        dtype = _DL_DTYPES.get((code, bits), f"{_DL_CODE_NAMES.get(code, f'code{code}')}{bits}")
        if dtype == "uint16":
            dtype = HOST_BF16_BITS
    device_type = int(t.device.device_type)
    if device_type not in _HOST_DEVICES + _CUDA_DEVICES:
        raise ArgumentError(f"DLPack device type {device_type} is neither host nor CUDA memory")
    return ArrayView(
        ptr=int(t.data or 0) + int(t.byte_offset),
        shape=shape,
        dtype=dtype,
        on_device=device_type in _CUDA_DEVICES,
        device_id=int(t.device.device_id),
        contiguous=is_row_major(shape, strides),
        readonly=readonly,
        owner=owner,
    )


def _from_dlpack(obj: Any, stream: int) -> ArrayView:
    try:
        device_type, _device_id = obj.__dlpack_device__()
    except Exception as e:
        raise ArgumentError(f"__dlpack_device__ of {type(obj).__name__} failed: {e}") from None
    # Only CUDA producers take a stream; for host memory the argument must be None.
    on_cuda = int(device_type) in _CUDA_DEVICES
    capsule = _call_dlpack(obj, dlpack_stream_argument(stream) if on_cuda else None)
    # The capsule keeps its name, so its destructor releases the producer's reference
    # when it goes; `obj` itself keeps the memory alive.
    return read_dlpack_capsule(capsule, owner=obj)


def _from_cuda_array_interface(obj: Any) -> ArrayView:
    try:
        cai: dict[str, Any] = obj.__cuda_array_interface__
    except Exception as e:
        raise ArgumentError(
            f"__cuda_array_interface__ of {type(obj).__name__} failed: {e}"
        ) from None
    try:
        shape = tuple(int(d) for d in cai["shape"])
        typestr: str = cai["typestr"]
        ptr, readonly = cai["data"]
    except (KeyError, TypeError, ValueError) as e:
        raise ArgumentError(f"malformed __cuda_array_interface__: {e}") from None
    if cai.get("mask") is not None:
        raise ArgumentError("masked arrays (__cuda_array_interface__ mask) are not supported")
    if typestr[:1] == ">":
        raise ArgumentError(f"big-endian arrays are not supported ({typestr})")
    kind = typestr[1:]
    dtype = _TYPESTR_DTYPES.get(kind, HOST_BF16_BITS if kind == "u2" else f"typestr {typestr}")
    itemsize = int(kind[1:]) if kind[1:].isdigit() else 0
    byte_strides = cai.get("strides")
    strides = None
    contiguous = True
    if byte_strides is not None and itemsize:
        contiguous = all(int(s) % itemsize == 0 for s in byte_strides)
        strides = tuple(int(s) // itemsize for s in byte_strides)
        contiguous = contiguous and is_row_major(shape, strides)
    stream = cai.get("stream")
    return ArrayView(
        ptr=int(ptr or 0),
        shape=shape,
        dtype=dtype,
        on_device=True,
        device_id=-1,  # CAI says nothing; the pointer's context decides
        contiguous=contiguous,
        readonly=bool(readonly),
        stream=None if stream is None else int(stream),
        owner=obj,
    )


def view_array(obj: Any, stream: int = 0) -> ArrayView:
    """Describe `obj`'s memory; DLPack producers are asked to order their work before `stream`."""
    if isinstance(obj, np.ndarray):
        return _from_numpy(obj)  # pyright: ignore[reportUnknownArgumentType]
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return _from_dlpack(obj, stream)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_cuda_array_interface(obj)
    if hasattr(obj, "__array_interface__") or hasattr(obj, "__array__"):
        return _from_numpy(np.asarray(obj))
    raise ArgumentError(
        f"expected a tensor with __dlpack__ or __cuda_array_interface__, or a numpy array; "
        f"got {type(obj).__name__}"
    )


def host_dtype(dtype: str) -> np.dtype[Any]:
    """The numpy type of a host copy of a `dtype` buffer (bf16: ml_dtypes' if installed, else
    uint16 holding the bit patterns; `to_float32` reads both)."""
    if dtype == "bf16":
        try:
            import ml_dtypes  # pyright: ignore[reportMissingImports]

            return np.dtype(ml_dtypes.bfloat16)  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
        except ImportError:
            return np.dtype(np.uint16)
    return np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype])


def bf16_bits(values: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """Round float values to bf16 (to nearest, ties to even) and return the bit patterns."""
    f = np.ascontiguousarray(values, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(f)
    out = rounded.astype(np.uint16)
    out[nan] = 0x7FC0
    return out


def to_float32(host: np.ndarray[Any, Any], dtype: str) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Widen a host copy of a `dtype` buffer to float32 (exact for f16 and bf16)."""
    if dtype == "bf16" and host.dtype == np.uint16:
        return (host.astype(np.uint32) << 16).view(np.float32)
    return host.astype(np.float32)


def from_float(values: np.ndarray[Any, Any], dtype: str) -> np.ndarray[Any, Any]:
    """A host array of `dtype` holding `values` rounded to that type."""
    want = host_dtype(dtype)
    if dtype == "bf16" and want == np.uint16:
        return bf16_bits(values)
    return np.ascontiguousarray(values, dtype=want)
