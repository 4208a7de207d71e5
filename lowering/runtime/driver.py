"""A thin layer over cuda-python's driver API: checked calls, devices, memory, streams.

Every call goes through `call`, which turns a failing CUresult into one `CudaError` line
naming the call and the driver's own error name and text. cuda-python is imported on first
use, so that importing the runtime never fails on a machine without CUDA; asking for a device
there raises `NoDeviceError`, whose message starts "no CUDA device found".
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from mirage.lowering.runtime.errors import CudaError, NoDeviceError

NO_DEVICE = "no CUDA device found"


@cache
def _load_driver() -> Any:
    try:
        from cuda.bindings import driver
    except ImportError:
        raise NoDeviceError(f"{NO_DEVICE}: cuda-python is not installed") from None
    return driver


def api() -> Any:
    """The `cuda.bindings.driver` module (raises NoDeviceError when cuda-python is missing)."""
    return _load_driver()


def error_text(err: Any) -> str:
    """'CUDA_ERROR_X (the driver's description)' for a CUresult."""
    drv = api()
    name = getattr(err, "name", str(err))
    try:
        status, text = drv.cuGetErrorString(err)
        if status == drv.CUresult.CUDA_SUCCESS and text:
            return f"{name} ({text.decode(errors='replace')})"
    except Exception:  # the error lookup itself must never hide the error
        pass
    return name


def _results(result: Any) -> tuple[Any, ...]:
    """A driver call's results as a tuple: (CUresult, outputs...). A call without outputs
    returns its CUresult alone."""
    if isinstance(result, tuple):
        return cast("tuple[Any, ...]", result)
    return (result,)


def call(name: str, *args: Any) -> Any:
    """Call driver function `name`; return its results (None, one value, or a tuple)."""
    drv = api()
    err, *outputs = _results(getattr(drv, name)(*args))
    if err != drv.CUresult.CUDA_SUCCESS:
        raise CudaError(f"{name} failed: {error_text(err)}")
    rest = tuple(outputs)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


_init_lock = threading.Lock()
_initialized = False


def init() -> None:
    """cuInit once; every way of having no usable GPU becomes NoDeviceError."""
    global _initialized
    with _init_lock:
        if _initialized:
            return
        drv = api()
        try:
            result = drv.cuInit(0)
        except Exception as e:  # cuda-python raises when libcuda itself cannot be found
            raise NoDeviceError(f"{NO_DEVICE}: the CUDA driver library is not available") from e
        err = _results(result)[0]
        if err != drv.CUresult.CUDA_SUCCESS:
            raise NoDeviceError(f"{NO_DEVICE}: cuInit failed: {error_text(err)}")
        count = call("cuDeviceGetCount")
        if count < 1:
            raise NoDeviceError(NO_DEVICE)
        _initialized = True


def device_count() -> int:
    init()
    return int(call("cuDeviceGetCount"))


def driver_version() -> int:
    """The driver's CUDA version as the driver reports it, e.g. 13000 for CUDA 13.0."""
    init()
    return int(call("cuDriverGetVersion"))


@dataclass(frozen=True)
class Device:
    """One GPU and its primary context (the one PyTorch and CuPy use too)."""

    ordinal: int
    handle: Any
    context: Any
    name: str
    capability: tuple[int, int]
    multiprocessors: int
    l2_bytes: int
    max_shared_per_block: int
    """Opt-in limit of dynamic plus static shared memory per block, in bytes."""

    @property
    def arch(self) -> str:
        return f"sm_{self.capability[0]}{self.capability[1]}"

    def activate(self) -> None:
        """Make this device's context current on the calling thread."""
        call("cuCtxSetCurrent", self.context)


_devices: dict[int, Device] = {}
_devices_lock = threading.Lock()


def get_device(ordinal: int = 0) -> Device:
    """The device `ordinal` with its primary context current on this thread."""
    init()
    with _devices_lock:
        dev = _devices.get(ordinal)
        if dev is None:
            count = int(call("cuDeviceGetCount"))
            if not 0 <= ordinal < count:
                raise NoDeviceError(
                    f"{NO_DEVICE} with ordinal {ordinal} ({count} device(s) visible)"
                )
            dev = _open_device(ordinal)
            _devices[ordinal] = dev
    dev.activate()
    return dev


def _open_device(ordinal: int) -> Device:
    drv = api()
    handle = call("cuDeviceGet", ordinal)
    attr = drv.CUdevice_attribute

    def get(a: Any) -> int:
        return int(call("cuDeviceGetAttribute", a, handle))

    raw_name = call("cuDeviceGetName", 256, handle)
    name = bytes(raw_name).split(b"\0", 1)[0].decode(errors="replace")
    context = call("cuDevicePrimaryCtxRetain", handle)
    return Device(
        ordinal=ordinal,
        handle=handle,
        context=context,
        name=name,
        capability=(
            get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            get(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
        ),
        multiprocessors=get(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
        l2_bytes=get(attr.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
        max_shared_per_block=get(attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    )


def as_stream(handle: int) -> Any:
    return api().CUstream(handle)


def synchronize(stream: int, what: str) -> None:
    """Wait for `stream`; an asynchronous fault is reported as a failure of `what`."""
    try:
        call("cuStreamSynchronize", as_stream(stream))
    except CudaError as e:
        raise CudaError(f"{what}: {e}") from None


class DeviceBuffer:
    """Device memory owned by the runtime, freed with the object."""

    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes
        # cuMemAlloc refuses 0 bytes; one byte keeps a valid, distinct pointer.
        self._ptr: Any = call("cuMemAlloc", max(nbytes, 1))
        self.ptr = int(self._ptr)

    def free(self) -> None:
        if self.ptr:
            self.ptr = 0
            call("cuMemFree", self._ptr)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at exit the driver may be gone already
            self.free()

    def upload(self, host_ptr: int, nbytes: int, stream: int) -> None:
        call("cuMemcpyHtoDAsync", self._ptr, host_ptr, nbytes, as_stream(stream))

    def download(self, host_ptr: int, nbytes: int, stream: int) -> None:
        call("cuMemcpyDtoHAsync", host_ptr, self._ptr, nbytes, as_stream(stream))


def memset(ptr: int, pattern: int, itemsize: int, nbytes: int, stream: int) -> None:
    """Fill `nbytes` at `ptr` with the `itemsize`-byte `pattern`."""
    dptr = api().CUdeviceptr(ptr)
    s = as_stream(stream)
    if itemsize == 1:
        call("cuMemsetD8Async", dptr, pattern, nbytes, s)
    elif itemsize == 2:
        call("cuMemsetD16Async", dptr, pattern, nbytes // 2, s)
    elif itemsize == 4:
        call("cuMemsetD32Async", dptr, pattern, nbytes // 4, s)
    elif itemsize == 8:
        # No 64-bit memset: write the two halves as a 2D fill of 4-byte columns.
        lo, hi = pattern & 0xFFFFFFFF, pattern >> 32
        n = nbytes // 8
        call("cuMemsetD2D32Async", dptr, 8, lo, 1, n, s)
        call("cuMemsetD2D32Async", api().CUdeviceptr(ptr + 4), 8, hi, 1, n, s)
    else:
        raise ValueError(f"no memset for {itemsize}-byte items")


def copy_device(dst: int, src: int, nbytes: int, stream: int) -> None:
    drv = api()
    call("cuMemcpyDtoDAsync", drv.CUdeviceptr(dst), drv.CUdeviceptr(src), nbytes, as_stream(stream))


class Stream:
    """A non-blocking stream owned by the runtime (graphs cannot be captured on the legacy one)."""

    def __init__(self) -> None:
        drv = api()
        self._stream: Any = call("cuStreamCreate", int(drv.CUstream_flags.CU_STREAM_NON_BLOCKING))
        self.handle = int(self._stream)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            if self.handle:
                self.handle = 0
                call("cuStreamDestroy", self._stream)


class Event:
    def __init__(self, timing: bool = True) -> None:
        drv = api()
        flags = int(
            drv.CUevent_flags.CU_EVENT_DEFAULT
            if timing
            else drv.CUevent_flags.CU_EVENT_DISABLE_TIMING
        )
        self._event: Any = call("cuEventCreate", flags)

    def record(self, stream: int) -> None:
        call("cuEventRecord", self._event, as_stream(stream))

    def synchronize(self) -> None:
        call("cuEventSynchronize", self._event)

    def elapsed_ms(self, end: Event) -> float:
        return float(call("cuEventElapsedTime", self._event, end._event))

    def wait_on(self, stream: int) -> None:
        """Make `stream` wait for this event."""
        call("cuStreamWaitEvent", as_stream(stream), self._event, 0)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            call("cuEventDestroy", self._event)


def launch_dependent(
    function: Any,
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    shared_bytes: int,
    stream: Any,
    params: int,
) -> None:
    """Launch `function` programmatically after the work before it on `stream` (sm_90): it
    may start before that work ends, and waits for it with griddepcontrol.wait."""
    drv = api()
    attr = drv.CUlaunchAttribute()
    attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attr.value.programmaticStreamSerializationAllowed = 1
    config = drv.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = block
    config.sharedMemBytes = shared_bytes
    config.hStream = stream
    config.attrs = [attr]
    config.numAttrs = 1
    call("cuLaunchKernelEx", config, function, params, 0)


def order_after(waiting: int, producer: int) -> None:
    """Make stream `waiting` run after the work queued so far on stream `producer`."""
    # 0 and 1 both name the legacy default stream (1 is CU_STREAM_LEGACY, DLPack's and the
    # array interface's spelling of it).
    if waiting == producer or {waiting, producer} <= {0, 1}:
        return
    ev = Event(timing=False)
    ev.record(producer)
    ev.wait_on(waiting)


def free_memory() -> int:
    free, _total = call("cuMemGetInfo")
    return int(free)
