"""Loading a CompiledProgram onto a GPU and running it on the caller's stream."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mirage.lowering.runtime import driver
from mirage.lowering.runtime.arrays import HOST_BF16_BITS, ArrayView, host_dtype, view_array
from mirage.lowering.runtime.cubin_cache import ModuleCache
from mirage.lowering.runtime.errors import ArgumentError, AssembleError, CudaError
from mirage.lowering.runtime.program import BufferSpec, CompiledProgram, KernelLaunch
from mirage.lowering.runtime.streams import stream_handle
from mirage.lowering.runtime.tensor_maps import TensorMaps

DEFAULT_DYNAMIC_SHARED = 48 * 1024
"""Dynamic shared memory a kernel may use without raising its limit first."""
PORTABLE_CLUSTER_BLOCKS = 8
"""Blocks per cluster every sm_90 device runs; more need the kernel's non-portable opt-in."""

POISON: dict[str, int] = {
    "f16": 0x7E00,
    "bf16": 0x7FC0,
    "f32": 0x7FC00000,
    "f64": 0x7FF8000000000000,
}
"""A quiet NaN of each element type: outputs are filled with it to expose unwritten elements."""

_ARCH = re.compile(r"sm_([0-9]+)([0-9])([af]?)")


def parse_arch(arch: str) -> tuple[int, int, str]:
    m = _ARCH.fullmatch(arch)
    if m is None:
        raise ValueError(f"not an architecture name: {arch!r}")
    return int(m.group(1)), int(m.group(2)), m.group(3)


def arch_mismatch(arch: str, capability: tuple[int, int], cubin: bool = False) -> str | None:
    """Why code built for `arch` cannot run on a device of `capability`, or None if it can.

    PTX for sm_XY runs (through the JIT) on any later device; a cubin only within its major
    version; 'a' targets (sm_90a) only on exactly that device; 'f' targets within the family.
    """
    major, minor, suffix = parse_arch(arch)
    have = f"sm_{capability[0]}{capability[1]}"
    if suffix == "a" and capability != (major, minor):
        return f"code for {arch} runs only on {arch[:-1]} devices, not {have}"
    if (suffix == "f" or cubin) and (capability[0] != major or capability[1] < minor):
        return f"a cubin for {arch} does not run on {have}"
    if capability < (major, minor):
        return f"code for {arch} needs a newer device than {have}"
    return None


def assemble_target(arch: str, capability: tuple[int, int]) -> str:
    """The arch to assemble PTX written for `arch` to, on a device of `capability`: 'a' and
    'f' targets keep theirs; plain PTX is assembled for the device itself."""
    if parse_arch(arch)[2]:
        return arch
    return f"sm_{capability[0]}{capability[1]}"


def check_array(view: ArrayView, spec: BufferSpec, what: str, writable: bool) -> None:
    """One line saying how `view` fails to fit `spec`, raised as ArgumentError."""
    dtype_ok = view.dtype == spec.dtype or (spec.dtype == "bf16" and view.dtype == HOST_BF16_BITS)
    if view.shape != spec.shape or not dtype_ok:
        raise ArgumentError(f"{what}: expected {spec.describe()}, got {view.describe()}")
    if not view.contiguous:
        raise ArgumentError(f"{what}: expected a contiguous row-major tensor ({view.describe()})")
    if writable and view.readonly:
        raise ArgumentError(f"{what}: the tensor is read-only ({view.describe()})")


def check_counts(program: CompiledProgram, n_inputs: int, n_outputs: int | None) -> None:
    def listing(specs: Sequence[BufferSpec]) -> str:
        return ", ".join(s.describe() for s in specs) or "none"

    if n_inputs != program.num_inputs:
        raise ArgumentError(
            f"expected {program.num_inputs} inputs ({listing(program.inputs)}), got {n_inputs}"
        )
    if n_outputs is not None and n_outputs != program.num_outputs:
        raise ArgumentError(
            f"expected {program.num_outputs} outputs ({listing(program.outputs)}), got {n_outputs}"
        )


@dataclass
class _Bound:
    """An argument as the kernels see it: a device address, plus a host copy to fill back."""

    ptr: int
    host: ArrayView | None = None


class LoadedProgram:
    """A CompiledProgram loaded on one device: its module, kernels and intermediates.

    Runs are ordered on the stream they are given; intermediates are shared by all runs of
    this object, so runs on different streams must not overlap.
    """

    def __init__(
        self, program: CompiledProgram, device: int = 0, cache: ModuleCache | None = None
    ) -> None:
        self.program = program
        self.device = driver.get_device(device)
        reason = arch_mismatch(program.arch, self.device.capability)
        if reason is not None:
            raise CudaError(f"cannot run on {self.device.name}: {reason}")
        self._module, self.image_source = self._load(cache or ModuleCache.default())
        self._functions: dict[str, Any] = {}
        for name in program.kernel_names:
            try:
                self._functions[name] = driver.call(
                    "cuModuleGetFunction", self._module, name.encode()
                )
            except CudaError as e:
                raise CudaError(f"kernel {name} is not in the module ({e})") from None
        self._configure_kernels()
        self._scratch = [driver.DeviceBuffer(b.nbytes) for b in program.intermediates]
        self._staging: dict[tuple[str, int], driver.DeviceBuffer] = {}
        self._tensor_maps = TensorMaps()

    def _load(self, cache: ModuleCache) -> tuple[Any, str]:
        program, cap = self.program, self.device.capability
        if program.cubin is not None and arch_mismatch(program.arch, cap, cubin=True) is None:
            return driver.call("cuModuleLoadData", program.cubin), "cubin of the program"
        target = assemble_target(program.arch, cap)
        cubin = cache.cubin(program.ptx, target, driver.driver_version())
        if cubin is not None:
            try:
                assert cache.assembler is not None
                module = driver.call("cuModuleLoadData", cubin)
                return module, f"cubin for {target} by {cache.assembler.name}"
            except CudaError:
                pass  # e.g. an assembler newer than the driver: the driver's JIT may still do
        try:
            module = driver.call("cuModuleLoadData", program.ptx.encode() + b"\0")
        except CudaError as e:
            raise AssembleError(f"the driver could not load the PTX: {e}") from None
        return module, "PTX compiled by the driver"

    def _configure_kernels(self) -> None:
        drv = driver.api()
        attr = drv.CUfunction_attribute
        need: dict[str, int] = {}
        for launch in self.program.launches:
            fn = self._functions[launch.name]
            max_threads = int(
                driver.call("cuFuncGetAttribute", attr.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn)
            )
            if launch.threads > max_threads:
                raise CudaError(
                    f"kernel {launch.name}: a block of {launch.threads} threads exceeds the "
                    f"{max_threads} this kernel can run with (registers)"
                )
            static = int(
                driver.call("cuFuncGetAttribute", attr.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn)
            )
            limit = self.device.max_shared_per_block
            if static + launch.shared_bytes > limit:
                raise CudaError(
                    f"kernel {launch.name}: {static} bytes of static and {launch.shared_bytes} "
                    f"of dynamic shared memory exceed the {limit} a block may use "
                    f"on {self.device.name}"
                )
            need[launch.name] = max(need.get(launch.name, 0), launch.shared_bytes)
            if launch.cluster_blocks > PORTABLE_CLUSTER_BLOCKS:
                # clusters past the portable size must be allowed per kernel
                driver.call(
                    "cuFuncSetAttribute",
                    fn,
                    attr.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                    1,
                )
        for name, nbytes in need.items():
            if nbytes > DEFAULT_DYNAMIC_SHARED:
                driver.call(
                    "cuFuncSetAttribute",
                    self._functions[name],
                    attr.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    nbytes,
                )

    # --- launching ---------------------------------------------------------------------

    def launch(self, pointers: Sequence[int], stream: int = 0, only: int | None = None) -> None:
        """Launch every kernel (or only the launch of index `only`, which then reads what
        earlier runs left in the intermediates) with these input and output addresses,
        unchecked."""
        ptrs = [*pointers, *(b.ptr for b in self._scratch)]
        s = driver.as_stream(stream)
        launches = self.program.launches
        for launch in launches if only is None else (launches[only],):
            self._launch_one(launch, ptrs, s)

    def _launch_one(self, launch: KernelLaunch, ptrs: Sequence[int], s: Any) -> None:
        values = np.array([ptrs[a] for a in launch.args], dtype=np.uint64)
        # kernelParams is an array of pointers, each to one parameter's value: the pointers,
        # then the 128-byte tensor maps (the driver copies them all at the launch)
        maps = [self._tensor_maps.get(m, ptrs[m.buffer]) for m in launch.tensor_maps]
        addresses = np.array(
            [
                *(values.ctypes.data + 8 * i for i in range(len(values))),
                *(m.ctypes.data for m in maps),
            ],
            dtype=np.uint64,
        )
        params = addresses.ctypes.data if len(addresses) else 0
        if launch.dependent:
            driver.launch_dependent(
                self._functions[launch.name],
                launch.grid,
                launch.block,
                launch.shared_bytes,
                s,
                params,
            )
            return
        driver.call(
            "cuLaunchKernel",
            self._functions[launch.name],
            *launch.grid,
            *launch.block,
            launch.shared_bytes,
            s,
            params,
            0,
        )

    def _stage(self, kind: str, index: int, nbytes: int) -> driver.DeviceBuffer:
        buf = self._staging.get((kind, index))
        if buf is None or buf.nbytes != nbytes:
            buf = driver.DeviceBuffer(nbytes)
            self._staging[(kind, index)] = buf
        return buf

    def _bind(self, obj: Any, spec: BufferSpec, what: str, index: int, stream: int) -> _Bound:
        view = view_array(obj, stream)
        check_array(view, spec, what, writable=what.startswith("output"))
        if view.on_device:
            if view.device_id not in (-1, self.device.ordinal):
                raise ArgumentError(
                    f"{what} is on cuda:{view.device_id}, but the program runs on "
                    f"cuda:{self.device.ordinal}"
                )
            if view.stream is not None:
                driver.order_after(stream, view.stream)
            return _Bound(view.ptr, None)
        buf = self._stage(what.split()[0], index, spec.nbytes)
        if what.startswith("input"):
            buf.upload(view.ptr, spec.nbytes, stream)
        return _Bound(buf.ptr, view)

    def run(
        self,
        inputs: Sequence[Any],
        outputs: Sequence[Any] | None = None,
        *,
        stream: Any = None,
        poison: bool = False,
        sync: bool = False,
    ) -> tuple[Any, ...]:
        """Run the program on `stream` (default: the legacy default stream).

        Device tensors (DLPack or `__cuda_array_interface__`) are used in place; host arrays
        are copied in, and host outputs copied back before returning. Without `outputs`, new
        numpy arrays are returned (bf16 as `host_dtype('bf16')`). `poison` fills the outputs
        with NaN first, so unwritten elements show; `sync` waits for the kernels to finish.
        """
        self.device.activate()
        s = stream_handle(stream)
        check_counts(self.program, len(inputs), None if outputs is None else len(outputs))
        if outputs is None:
            outputs = [
                np.empty(spec.shape, host_dtype(spec.dtype)) for spec in self.program.outputs
            ]
        bound = [
            self._bind(x, spec, f"input {i}", i, s)
            for i, (x, spec) in enumerate(zip(inputs, self.program.inputs, strict=True))
        ]
        bound_out = [
            self._bind(y, spec, f"output {i}", i, s)
            for i, (y, spec) in enumerate(zip(outputs, self.program.outputs, strict=True))
        ]
        if poison:
            for b, spec in zip(bound_out, self.program.outputs, strict=True):
                driver.memset(b.ptr, POISON[spec.dtype], spec.itemsize, spec.nbytes, s)
        self.launch([b.ptr for b in bound + bound_out], s)
        copy_back = [
            (b.host, b.ptr, spec.nbytes)
            for b, spec in zip(bound_out, self.program.outputs, strict=True)
            if b.host is not None
        ]
        what = f"running {', '.join(self.program.kernel_names)}"
        try:
            for host, ptr, nbytes in copy_back:
                driver.call(
                    "cuMemcpyDtoHAsync",
                    host.ptr,
                    driver.api().CUdeviceptr(ptr),
                    nbytes,
                    driver.as_stream(s),
                )
        except CudaError as e:  # a kernel's fault can surface at the next call on the stream
            raise CudaError(f"{what}: {e}") from None
        if copy_back or sync:
            driver.synchronize(s, what)
        return tuple(outputs)


def load(
    program: CompiledProgram, device: int = 0, cache: ModuleCache | None = None
) -> LoadedProgram:
    return LoadedProgram(program, device, cache)
