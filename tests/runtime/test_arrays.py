"""Reading DLPack capsules, __cuda_array_interface__ dicts, numpy arrays and streams, with
fake producers (no GPU, no torch)."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest

from mirage.lowering.runtime.arrays import (
    DL_CPU,
    DL_CUDA,
    DLManagedTensor,
    DLManagedTensorVersioned,
    bf16_bits,
    from_float,
    to_float32,
    view_array,
)
from mirage.lowering.runtime.errors import ArgumentError
from mirage.lowering.runtime.streams import stream_handle

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)

_DTYPE_CODES = {"f16": (2, 16), "f32": (2, 32), "bf16": (4, 16), "i32": (0, 32), "u16": (1, 16)}


class FakeDLPack:
    """A DLPack producer whose memory is a fake address (CUDA) or a numpy buffer (CPU)."""

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: str,
        device: tuple[int, int] = (DL_CUDA, 0),
        strides: tuple[int, ...] | None = None,
        data: int = 0x7F0000001000,
        byte_offset: int = 0,
        versioned: bool = False,
        read_only: bool = False,
        lanes: int = 1,
    ) -> None:
        self.device = device
        self.versioned = versioned
        self.streams_seen: list[Any] = []
        self._shape = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        self._strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        self.managed: DLManagedTensor | DLManagedTensorVersioned
        self.managed = DLManagedTensorVersioned() if versioned else DLManagedTensor()
        if versioned:
            assert isinstance(self.managed, DLManagedTensorVersioned)
            self.managed.version.major, self.managed.version.minor = 1, 0
            self.managed.flags = 1 if read_only else 0
        t = self.managed.dl_tensor
        t.data = data
        t.device.device_type, t.device.device_id = device
        t.ndim = len(shape)
        t.dtype.code, t.dtype.bits = _DTYPE_CODES[dtype]
        t.dtype.lanes = lanes
        t.shape = ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64))
        if self._strides is not None:
            t.strides = ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))
        t.byte_offset = byte_offset

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device

    def __dlpack__(self, stream: Any = None, max_version: Any = None) -> Any:
        self.streams_seen.append(stream)
        name = b"dltensor_versioned" if self.versioned and max_version else b"dltensor"
        if name == b"dltensor_versioned" or not self.versioned:
            return _capsule_new(ctypes.addressof(self.managed), name, None)
        raise AssertionError("this fake only hands out versioned capsules")


class OldDLPack(FakeDLPack):
    """A pre-1.0 producer: __dlpack__ takes no max_version."""

    def __dlpack__(self, stream: Any = None) -> Any:  # type: ignore[override]
        self.streams_seen.append(stream)
        return _capsule_new(ctypes.addressof(self.managed), b"dltensor", None)


class FakeCAI:
    def __init__(self, **cai: Any) -> None:
        self.__cuda_array_interface__ = {"version": 3, "strides": None, **cai}


def test_dlpack_cuda_tensor() -> None:
    fake = FakeDLPack((4, 8), "f16", device=(DL_CUDA, 1), byte_offset=64)
    v = view_array(fake, stream=0)
    assert (v.ptr, v.shape, v.dtype) == (0x7F0000001000 + 64, (4, 8), "f16")
    assert v.on_device and v.device_id == 1 and v.contiguous and not v.readonly
    assert v.owner is fake
    # Stream 0 (legacy default) is spelled 1 in DLPack; other handles pass through.
    assert fake.streams_seen == [1]
    view_array(fake, stream=0xABC)
    assert fake.streams_seen[-1] == 0xABC
    assert v.describe() == "4x8xf16 on cuda:1"


def test_dlpack_versioned_capsule_and_read_only_flag() -> None:
    v = view_array(FakeDLPack((3,), "bf16", versioned=True, read_only=True))
    assert v.dtype == "bf16" and v.readonly


def test_dlpack_old_producer_without_max_version() -> None:
    fake = OldDLPack((2, 2), "f32")
    assert view_array(fake, stream=7).shape == (2, 2)
    assert fake.streams_seen == [7]


def test_dlpack_strides_decide_contiguity() -> None:
    assert view_array(FakeDLPack((4, 8), "f32", strides=(8, 1))).contiguous
    assert not view_array(FakeDLPack((4, 8), "f32", strides=(1, 4))).contiguous
    # Dims of extent 1 may have any stride.
    assert view_array(FakeDLPack((1, 8), "f32", strides=(99, 1))).contiguous


def test_dlpack_types_outside_the_table_are_described() -> None:
    assert view_array(FakeDLPack((2,), "i32")).dtype == "int32"
    assert view_array(FakeDLPack((2,), "f32", lanes=4)).dtype == "float32x4"
    assert view_array(FakeDLPack((2,), "u16")).dtype == "u16"


def test_dlpack_cpu_tensor_is_host_memory_and_gets_no_stream() -> None:
    backing = np.arange(6, dtype=np.float32)
    fake = FakeDLPack((2, 3), "f32", device=(DL_CPU, 0), data=backing.ctypes.data)
    v = view_array(fake, stream=5)
    assert not v.on_device and v.ptr == backing.ctypes.data
    assert fake.streams_seen == [None]


def test_dlpack_failures_are_argument_errors() -> None:
    class Broken(FakeDLPack):
        def __dlpack__(self, stream: Any = None, max_version: Any = None) -> Any:
            raise RuntimeError("Can't export tensors that require gradient")

    with pytest.raises(ArgumentError, match="__dlpack__ of Broken failed: Can't export"):
        view_array(Broken((2,), "f32"))

    class Used(FakeDLPack):
        def __dlpack__(self, stream: Any = None, max_version: Any = None) -> Any:
            return _capsule_new(ctypes.addressof(self.managed), b"used_dltensor", None)

    with pytest.raises(ArgumentError, match="not an unused DLPack capsule"):
        view_array(Used((2,), "f32"))

    with pytest.raises(ArgumentError, match="neither host nor CUDA"):
        view_array(FakeDLPack((2,), "f32", device=(10, 0)))  # ROCm


def test_cuda_array_interface() -> None:
    v = view_array(FakeCAI(shape=(16, 4), typestr="<f2", data=(0xDEAD00, False), stream=9))
    assert (v.ptr, v.shape, v.dtype, v.stream, v.on_device) == (0xDEAD00, (16, 4), "f16", 9, True)
    assert v.contiguous and not v.readonly
    transposed = FakeCAI(shape=(16, 4), typestr="<f4", data=(1, True), strides=(4, 64))
    tv = view_array(transposed)
    assert not tv.contiguous and tv.readonly and tv.dtype == "f32"
    assert view_array(FakeCAI(shape=(2,), typestr="<i4", data=(1, False))).dtype == "typestr <i4"


def test_cuda_array_interface_masks_and_errors() -> None:
    with pytest.raises(ArgumentError, match="masked arrays"):
        view_array(FakeCAI(shape=(2,), typestr="<f4", data=(1, False), mask=object()))
    with pytest.raises(ArgumentError, match="malformed __cuda_array_interface__"):
        view_array(FakeCAI(shape=(2,), typestr="<f4"))


def test_numpy_arrays() -> None:
    a = np.ones((3, 4), np.float16)
    v = view_array(a)
    assert (v.shape, v.dtype, v.on_device, v.contiguous) == ((3, 4), "f16", False, True)
    assert not view_array(a.T).contiguous
    a.flags.writeable = False
    assert view_array(a).readonly
    assert view_array(np.zeros(2, np.uint16)).dtype == "u16"

    class ArrayLike:
        def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
            return np.ones((2, 2), np.float32)

    assert view_array(ArrayLike()).shape == (2, 2)
    with pytest.raises(ArgumentError, match="got list"):
        view_array([1.0, 2.0])


def test_unknown_objects_are_refused() -> None:
    with pytest.raises(ArgumentError, match=r"expected a tensor with __dlpack__ .* got object"):
        view_array(object())


def test_bf16_host_conversions_round_to_nearest_even() -> None:
    x = np.array([1.0, -2.5, 1.00390625, 1.01171875, 3.0e38, np.inf, np.nan], np.float32)
    bits = bf16_bits(x)
    # 1 + 2^-8 is a tie: rounds to the even 1.0; 1 + 3*2^-8 rounds up to 1 + 2^-6.
    assert list(bits[:4]) == [0x3F80, 0xC020, 0x3F80, 0x3F82]
    back = to_float32(bits, "bf16")
    assert back[0] == 1.0 and back[5] == np.inf and np.isnan(back[6])
    assert np.isfinite(back[4])
    host = from_float(np.array([0.5, 0.25]), "bf16")
    assert list(to_float32(host, "bf16")) == [0.5, 0.25]


def test_stream_handles() -> None:
    class TorchLike:
        cuda_stream = 0x1234

    class Protocol:
        def __cuda_stream__(self) -> tuple[int, int]:
            return (0, 0x55)

    assert stream_handle(None) == 0
    assert stream_handle(17) == 17
    assert stream_handle(TorchLike()) == 0x1234
    assert stream_handle(Protocol()) == 0x55
    for bad, msg in [(-1, "non-negative"), (True, "stream must be"), ("s", "got str")]:
        with pytest.raises(ArgumentError, match=msg):
            stream_handle(bad)
