"""PTX to cubin, and the disk cache of assembled modules.

The driver can JIT-compile PTX itself (cuModuleLoadData), but it never hands the cubin back,
so a cache of ours can only hold cubins we assemble: with nvJitLink (cuda-python's binding of
libnvJitLink, from the `nvidia-nvjitlink` wheel or a CUDA install), else with `ptxas` (on
PATH, under $CUDA_HOME/bin, or from the `nvidia-cuda-nvcc` wheel). A cubin is stored under
sha256(PTX, target arch, driver version, assembler and its version), so a new driver or
assembler never reuses a stale image. With neither assembler, the PTX goes to the driver's JIT,
whose own compute cache (~/.nv/ComputeCache, CUDA_CACHE_PATH) already keeps its result, so we
store nothing.

The cache directory is $MIRAGE_CACHE_DIR, else $XDG_CACHE_HOME/mirage/modules, else
~/.cache/mirage/modules; MIRAGE_CACHE_DIR=off turns caching off.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from mirage.lowering.runtime.errors import AssembleError
from mirage.lowering.runtime.ptxas import find_ptxas, run_ptxas


def _first_error_line(log: str) -> str:
    lines = [ln.strip() for ln in log.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln.lower():
            return ln
    return lines[0] if lines else "no log"


@dataclass(frozen=True)
class Assembler:
    """A way to turn PTX into a cubin for one architecture."""

    name: str
    """e.g. 'nvJitLink 13.0' or 'ptxas 13.0.88': part of the cache key."""
    run: Callable[[str, str], bytes]
    """(ptx, arch) -> cubin; raises AssembleError with the assembler's first error."""


def _nvjitlink() -> Any:
    """cuda-python's nvJitLink binding (no stubs), imported on first use: it may be absent."""
    return importlib.import_module("cuda.bindings.nvjitlink")


def _nvjitlink_assemble(ptx: str, arch: str) -> bytes:
    nvjitlink = _nvjitlink()
    options = [f"-arch={arch}", "-O3"]
    handle = nvjitlink.create(len(options), options)
    try:
        data = ptx.encode()
        try:
            nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), "module.ptx")
            nvjitlink.complete(handle)
        except nvjitlink.nvJitLinkError as e:
            size = nvjitlink.get_error_log_size(handle)
            log = bytearray(size)
            if size:
                nvjitlink.get_error_log(handle, log)
            text = bytes(log).rstrip(b"\0").decode(errors="replace")
            raise AssembleError(
                f"nvJitLink could not assemble the PTX for {arch}: "
                f"{_first_error_line(text) if text else e}"
            ) from None
        cubin = bytearray(nvjitlink.get_linked_cubin_size(handle))
        nvjitlink.get_linked_cubin(handle, cubin)
        return bytes(cubin)
    finally:
        nvjitlink.destroy(handle)


def _ptxas_assembler(path: str) -> Assembler | None:
    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    version = next(
        (ln.rsplit(",", 1)[-1].strip() for ln in out.stdout.splitlines() if "release" in ln),
        "unknown",
    )

    def run(ptx: str, arch: str) -> bytes:
        return run_ptxas(ptx, arch)[0]

    return Assembler(f"ptxas {version}", run)


@cache
def find_assembler() -> Assembler | None:
    """nvJitLink if its library loads, else ptxas if one is found, else None."""
    if os.environ.get("MIRAGE_ASSEMBLER", "") != "ptxas":
        try:
            major, minor = _nvjitlink().version()
            return Assembler(f"nvJitLink {major}.{minor}", _nvjitlink_assemble)
        except Exception:  # no cuda-python, or libnvJitLink not found
            pass
    path = find_ptxas()
    return _ptxas_assembler(path) if path else None


def default_cache_dir() -> Path | None:
    configured = os.environ.get("MIRAGE_CACHE_DIR")
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "none") else Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "mirage" / "modules"


def cache_key(ptx: str, arch: str, driver_version: int, assembler: str) -> str:
    h = hashlib.sha256()
    for part in (arch, str(driver_version), assembler):
        h.update(part.encode())
        h.update(b"\0")
    h.update(ptx.encode())
    return h.hexdigest()


class ModuleCache:
    """Cubins assembled from PTX, on disk (when `directory` is set), keyed by `cache_key`."""

    def __init__(self, directory: Path | None, assembler: Assembler | None) -> None:
        self.directory = directory
        self.assembler = assembler
        self.hits = 0
        self.misses = 0

    @classmethod
    def default(cls) -> ModuleCache:
        return cls(default_cache_dir(), find_assembler())

    def cubin(self, ptx: str, arch: str, driver_version: int) -> bytes | None:
        """The cubin of `ptx` for `arch` (from disk, or assembled and stored); None when no
        assembler is available."""
        assembler = self.assembler
        if assembler is None:
            return None
        path = None
        if self.directory is not None:
            key = cache_key(ptx, arch, driver_version, assembler.name)
            path = self.directory / f"{key}.cubin"
            try:
                data = path.read_bytes()
                if data:
                    self.hits += 1
                    return data
            except OSError:
                pass
        self.misses += 1
        data = assembler.run(ptx, arch)
        if path is not None:
            self._store(path, data)
        return data

    @staticmethod
    def _store(path: Path, data: bytes) -> None:
        # Write then rename: concurrent processes never read a half-written cubin.
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError:  # a read-only or full cache only costs speed
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
