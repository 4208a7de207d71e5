"""The built-program descriptor: what code generation hands to the runtime.

A `CompiledProgram` is a PTX module (optionally its cubin) plus the buffers the program
touches and the kernel launches that run it, in order. It depends on the standard library
only, so a built kernel can be saved beside its PTX and run where only cuda-python and
numpy are installed.

Buffers are numbered: the program's inputs first, then its outputs, then intermediates
(device scratch the runtime allocates). A kernel's parameters are pointers to buffers, in
the order `KernelLaunch.args` lists their indices, then the 128-byte tensor maps of
`KernelLaunch.tensor_maps` (TMA copies), which the runtime encodes for each buffer address
(`cuTensorMapEncodeTiled`).
"""

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DTYPE_BYTES: dict[str, int] = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}
"""Element types a buffer may hold and their sizes (f64 only for reference programs)."""

FORMAT = "mirage-program"
FORMAT_VERSION = 1

_ARCH = re.compile(r"sm_[0-9]{2,3}[af]?")


class ProgramError(ValueError):
    """A descriptor is malformed; the message names the field and the offending value."""


def _is_index(value: object) -> bool:
    """A non-negative int (not a bool). Descriptors come from JSON and callers: their
    fields are checked as values of any type, whatever their annotations say."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_text(value: object) -> bool:
    return isinstance(value, str)


def _is_sequence(value: object) -> bool:
    return isinstance(value, tuple | list)


def _dims(what: str, value: Any, rank: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, tuple | list):
        raise ProgramError(f"{what} must be a tuple of integers, got {value!r}")
    items: list[Any] = list(value)  # pyright: ignore[reportUnknownArgumentType]
    if rank is not None and len(items) != rank:
        raise ProgramError(f"{what} must have {rank} entries, got {value!r}")
    for d in items:
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ProgramError(f"{what} must hold positive integers, got {value!r}")
    return tuple(items)


@dataclass(frozen=True)
class BufferSpec:
    """A dense, row-major device tensor."""

    shape: tuple[int, ...]
    dtype: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", _dims("buffer shape", self.shape))
        if self.dtype not in DTYPE_BYTES:
            known = ", ".join(DTYPE_BYTES)
            raise ProgramError(f"buffer dtype must be one of {known}, got {self.dtype!r}")

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return DTYPE_BYTES[self.dtype]

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize

    def describe(self) -> str:
        return f"{'x'.join(map(str, self.shape))}x{self.dtype}"


TENSOR_MAP_SWIZZLES = (0, 32, 64, 128)


@dataclass(frozen=True)
class TensorMapSpec:
    """A 2-D tiled tensor map over one buffer: what `cuTensorMapEncodeTiled` is given,
    besides the buffer's address."""

    buffer: int
    dims: tuple[int, ...]
    """Elements, innermost first."""
    strides: tuple[int, ...]
    """Bytes between consecutive indices of dims 1, 2, ... (one fewer than dims)."""
    box: tuple[int, ...]
    """Elements of one copy, innermost first."""
    swizzle: int
    """Bytes of the shared-memory swizzle span: 0 (none), 32, 64 or 128."""
    dtype: str

    def __post_init__(self) -> None:
        b = self.buffer
        if not _is_index(b):
            raise ProgramError(f"tensor map buffer must be a buffer index, got {b!r}")
        dims = _dims("tensor map dims", self.dims)
        object.__setattr__(self, "dims", dims)
        object.__setattr__(self, "box", _dims("tensor map box", self.box, len(dims)))
        object.__setattr__(
            self, "strides", _dims("tensor map strides", self.strides, len(dims) - 1)
        )
        if any(s % 16 for s in self.strides):
            raise ProgramError(f"tensor map strides must be multiples of 16, got {self.strides}")
        if any(n > 256 for n in self.box):
            raise ProgramError(f"tensor map box extents must be at most 256, got {self.box}")
        if self.swizzle not in TENSOR_MAP_SWIZZLES:
            raise ProgramError(f"tensor map swizzle must be 0, 32, 64 or 128, got {self.swizzle!r}")
        if self.dtype not in DTYPE_BYTES:
            raise ProgramError(f"tensor map dtype must be one of {', '.join(DTYPE_BYTES)}")
        inner = self.box[0] * DTYPE_BYTES[self.dtype]
        if inner % 16 or (self.swizzle and inner > self.swizzle):
            raise ProgramError(
                f"a tensor map box row of {inner} bytes must be a multiple of 16"
                + (f" and at most the swizzle of {self.swizzle}" if self.swizzle else "")
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "buffer": self.buffer,
            "dims": list(self.dims),
            "strides": list(self.strides),
            "box": list(self.box),
            "swizzle": self.swizzle,
            "dtype": self.dtype,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> TensorMapSpec:
        return TensorMapSpec(
            buffer=d["buffer"],
            dims=tuple(d["dims"]),
            strides=tuple(d["strides"]),
            box=tuple(d["box"]),
            swizzle=d["swizzle"],
            dtype=d["dtype"],
        )


@dataclass(frozen=True)
class KernelLaunch:
    """One launch of the kernel `name` (an entry of the PTX module)."""

    name: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int
    """Dynamic shared memory per block, in bytes."""
    args: tuple[int, ...]
    """Buffer indices, passed as pointer parameters in this order."""
    tensor_maps: tuple[TensorMapSpec, ...] = ()
    """Passed after the pointers, 128 bytes each."""
    cluster: tuple[int, int, int] = (1, 1, 1)
    """Blocks per thread-block cluster (the kernel's own `.reqnctapercluster`)."""
    dependent: bool = False
    """Launched programmatically after the launch before it (sm_90): it may start before
    that one ends; its kernel waits for it (griddepcontrol.wait) before reading anything."""

    def __post_init__(self) -> None:
        if not _is_text(self.name) or not self.name:
            raise ProgramError(f"kernel name must be a non-empty string, got {self.name!r}")
        object.__setattr__(self, "grid", _dims(f"grid of kernel {self.name}", self.grid, 3))
        object.__setattr__(self, "block", _dims(f"block of kernel {self.name}", self.block, 3))
        sb = self.shared_bytes
        if not _is_index(sb):
            raise ProgramError(
                f"shared_bytes of kernel {self.name} must be a non-negative integer, got {sb!r}"
            )
        if not _is_sequence(self.args):
            raise ProgramError(f"args of kernel {self.name} must be a tuple, got {self.args!r}")
        args: list[Any] = list(self.args)  # pyright: ignore[reportUnknownArgumentType]
        for a in args:
            if isinstance(a, bool) or not isinstance(a, int) or a < 0:
                raise ProgramError(
                    f"args of kernel {self.name} must be buffer indices, got {self.args!r}"
                )
        object.__setattr__(self, "args", tuple(args))
        maps: list[Any] = list(self.tensor_maps)  # pyright: ignore[reportUnknownArgumentType]
        for m in maps:
            if not isinstance(m, TensorMapSpec):
                raise ProgramError(
                    f"tensor maps of kernel {self.name} must be TensorMapSpec values"
                )
        object.__setattr__(self, "tensor_maps", tuple(maps))
        if not isinstance(self.dependent, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ProgramError(
                f"dependent of kernel {self.name} must be true or false, got {self.dependent!r}"
            )
        cluster = _dims(f"cluster of kernel {self.name}", self.cluster, 3)
        object.__setattr__(self, "cluster", cluster)
        for axis, (g, c) in enumerate(zip(self.grid, cluster, strict=True)):
            if g % c:
                raise ProgramError(
                    f"kernel {self.name}: grid {list(self.grid)} is not a whole number of "
                    f"clusters {list(cluster)} along {'xyz'[axis]}"
                )

    @property
    def cluster_blocks(self) -> int:
        return math.prod(self.cluster)

    @property
    def threads(self) -> int:
        return math.prod(self.block)


@dataclass(frozen=True)
class CompiledProgram:
    """A PTX module and the launches that compute the program's outputs from its inputs."""

    ptx: str
    arch: str
    """The target the PTX was written for, e.g. sm_90a."""
    buffers: tuple[BufferSpec, ...]
    """Inputs first, then outputs, then intermediates."""
    num_inputs: int
    num_outputs: int
    launches: tuple[KernelLaunch, ...]
    cubin: bytes | None = None
    """The PTX assembled for `arch`, when the builder had an assembler."""

    def __post_init__(self) -> None:
        if not _is_text(self.ptx) or not self.ptx.strip():
            raise ProgramError("ptx must be non-empty text")
        if not _is_text(self.arch) or not _ARCH.fullmatch(self.arch):
            raise ProgramError(f"arch must look like sm_90a, got {self.arch!r}")
        object.__setattr__(self, "buffers", tuple(self.buffers))
        object.__setattr__(self, "launches", tuple(self.launches))
        for b in self.buffers:
            if not isinstance(b, BufferSpec):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise ProgramError(f"buffers must be BufferSpec values, got {b!r}")
        n = len(self.buffers)
        for what, k in (("num_inputs", self.num_inputs), ("num_outputs", self.num_outputs)):
            if not _is_index(k):
                raise ProgramError(f"{what} must be a non-negative integer, got {k!r}")
        if self.num_inputs + self.num_outputs > n:
            raise ProgramError(
                f"{self.num_inputs} inputs and {self.num_outputs} outputs but only {n} buffers"
            )
        if not self.launches:
            raise ProgramError("a program needs at least one kernel launch")
        for launch in self.launches:
            if not isinstance(launch, KernelLaunch):  # pyright: ignore[reportUnnecessaryIsInstance]
                raise ProgramError(f"launches must be KernelLaunch values, got {launch!r}")
            for a in (*launch.args, *(m.buffer for m in launch.tensor_maps)):
                if a >= n:
                    raise ProgramError(
                        f"kernel {launch.name} takes buffer {a}, but there are only {n} buffers"
                    )
            for m in launch.tensor_maps:
                # a kernel may see its buffer through a retype (a reshape launches nothing):
                # the map covers the same contiguous elements under the kernel's own shape
                buffer = self.buffers[m.buffer]
                if m.dtype != buffer.dtype or math.prod(m.dims) != buffer.numel:
                    raise ProgramError(
                        f"kernel {launch.name}: a tensor map of {m.dtype} dims {list(m.dims)} "
                        f"over buffer {m.buffer} ({self.buffers[m.buffer].describe()})"
                    )
        first = self.launches[0]
        if first.dependent:
            raise ProgramError(
                f"kernel {first.name} is the first launch: it has no launch to depend on"
            )
        if self.cubin is not None and not isinstance(self.cubin, bytes):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ProgramError("cubin must be bytes or None")

    @property
    def inputs(self) -> tuple[BufferSpec, ...]:
        return self.buffers[: self.num_inputs]

    @property
    def outputs(self) -> tuple[BufferSpec, ...]:
        return self.buffers[self.num_inputs : self.num_inputs + self.num_outputs]

    @property
    def intermediates(self) -> tuple[BufferSpec, ...]:
        return self.buffers[self.num_inputs + self.num_outputs :]

    @property
    def kernel_names(self) -> tuple[str, ...]:
        """Each launched kernel once, in first-launch order."""
        return tuple(dict.fromkeys(launch.name for launch in self.launches))

    # --- serialization -------------------------------------------------------------------

    def to_dict(self, ptx_file: str | None = None) -> dict[str, Any]:
        """The JSON object; with `ptx_file`, the PTX is referenced by that name, not embedded."""
        data: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "arch": self.arch}
        data["buffers"] = [{"shape": list(b.shape), "dtype": b.dtype} for b in self.buffers]
        data["num_inputs"] = self.num_inputs
        data["num_outputs"] = self.num_outputs
        data["launches"] = [
            {
                "name": k.name,
                "grid": list(k.grid),
                "block": list(k.block),
                "shared_bytes": k.shared_bytes,
                "args": list(k.args),
                **({"tensor_maps": [m.to_dict() for m in k.tensor_maps]} if k.tensor_maps else {}),
                **({"cluster": list(k.cluster)} if k.cluster_blocks > 1 else {}),
                **({"dependent": True} if k.dependent else {}),
            }
            for k in self.launches
        ]
        if ptx_file is None:
            data["ptx"] = self.ptx
        else:
            data["ptx_file"] = ptx_file
        if self.cubin is not None:
            data["cubin_base64"] = base64.b64encode(self.cubin).decode("ascii")
        return data

    def to_json(self, ptx_file: str | None = None) -> str:
        # One line per buffer and per launch: diffs and reviews read better than full indent.
        lines: list[str] = []
        for key, value in self.to_dict(ptx_file).items():
            if isinstance(value, list) and value:
                items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
                inner = ",\n".join(f"  {json.dumps(item)}" for item in items)
                lines.append(f" {json.dumps(key)}: [\n{inner}\n ]")
            else:
                lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_dict(cls, data: Any, base_dir: Path | None = None) -> CompiledProgram:
        if not isinstance(data, dict):
            raise ProgramError("a program descriptor must be a JSON object")
        d: dict[str, Any] = data  # pyright: ignore[reportUnknownVariableType]
        if d.get("format") != FORMAT:
            raise ProgramError(f"not a {FORMAT} descriptor (format is {d.get('format')!r})")
        if d.get("version") != FORMAT_VERSION:
            raise ProgramError(
                f"{FORMAT} version {d.get('version')!r} is not supported "
                f"(this reader knows version {FORMAT_VERSION})"
            )
        try:
            if "ptx" in d:
                ptx = d["ptx"]
            else:
                ptx_path = Path(d["ptx_file"])
                if base_dir is not None and not ptx_path.is_absolute():
                    ptx_path = base_dir / ptx_path
                try:
                    ptx = ptx_path.read_text()
                except OSError as e:
                    raise ProgramError(f"cannot read PTX file {ptx_path}: {e.strerror}") from None
            cubin_b64 = d.get("cubin_base64")
            cubin = None if cubin_b64 is None else base64.b64decode(cubin_b64, validate=True)
            return cls(
                ptx=ptx,
                arch=d["arch"],
                buffers=tuple(BufferSpec(tuple(b["shape"]), b["dtype"]) for b in d["buffers"]),
                num_inputs=d["num_inputs"],
                num_outputs=d["num_outputs"],
                launches=tuple(
                    KernelLaunch(
                        name=k["name"],
                        grid=tuple(k["grid"]),
                        block=tuple(k["block"]),
                        shared_bytes=k["shared_bytes"],
                        args=tuple(k["args"]),
                        tensor_maps=tuple(
                            TensorMapSpec.from_dict(m) for m in k.get("tensor_maps", [])
                        ),
                        cluster=tuple(k.get("cluster", (1, 1, 1))),
                        dependent=k.get("dependent", False),
                    )
                    for k in d["launches"]
                ),
                cubin=cubin,
            )
        except ProgramError:
            raise
        except KeyError as e:
            raise ProgramError(f"program descriptor lacks the field {e.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError) as e:
            raise ProgramError(f"malformed program descriptor: {e}") from None

    @classmethod
    def from_json(cls, text: str, base_dir: Path | None = None) -> CompiledProgram:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ProgramError(f"not JSON: {e.msg} at line {e.lineno}") from None
        return cls.from_dict(data, base_dir)

    def save(self, path: str | Path) -> None:
        """Write `path` (the descriptor) and the PTX beside it, as `path` with suffix .ptx."""
        path = Path(path)
        ptx_path = path.with_suffix(".ptx")
        if ptx_path == path:
            raise ProgramError(f"descriptor path {path} must not end in .ptx")
        ptx_path.write_text(self.ptx)
        path.write_text(self.to_json(ptx_file=ptx_path.name))

    @classmethod
    def load(cls, path: str | Path) -> CompiledProgram:
        path = Path(path)
        try:
            text = path.read_text()
        except OSError as e:
            raise ProgramError(f"cannot read {path}: {e.strerror}") from None
        try:
            return cls.from_json(text, base_dir=path.parent)
        except ProgramError as e:
            raise ProgramError(f"{path}: {e}") from None
