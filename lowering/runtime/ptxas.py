"""PTX -> cubin with ptxas: from the `nvidia-cuda-nvcc` wheel, $CUDA_HOME, or PATH (the
runtime assembles with it where nvJitLink is missing; the compiler, to check its PTX)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from mirage.lowering.runtime.errors import AssembleError

__all__ = ["AssembleError", "assemble_ptx", "find_ptxas", "resource_report", "run_ptxas"]


@cache
def find_ptxas() -> str | None:
    """The wheel's ptxas first (the version the project pins), then CUDA's."""
    try:
        import nvidia  # pyright: ignore[reportMissingImports, reportMissingTypeStubs]

        for base in nvidia.__path__:  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            for sub in ("cu13", "cuda_nvcc", "cu12"):
                candidate = Path(base) / sub / "bin" / "ptxas"  # pyright: ignore[reportUnknownArgumentType]
                if candidate.is_file():
                    return str(candidate)
    except ImportError:
        pass
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and (Path(root) / "bin" / "ptxas").is_file():
            return str(Path(root) / "bin" / "ptxas")
    return shutil.which("ptxas")


def run_ptxas(ptx: str, arch: str, extra: tuple[str, ...] = ()) -> tuple[bytes, str]:
    """(cubin, ptxas's report) for `ptx` on `arch`."""
    path = find_ptxas()
    if path is None:
        raise AssembleError("no ptxas found (pip install nvidia-cuda-nvcc, or set CUDA_HOME)")
    with tempfile.TemporaryDirectory(prefix="mirage-ptx-") as tmp:
        src, dst = Path(tmp) / "module.ptx", Path(tmp) / "module.cubin"
        src.write_text(ptx)
        proc = subprocess.run(
            [path, f"-arch={arch}", "-O3", *extra, "-o", str(dst), str(src)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        log = proc.stderr + proc.stdout
        if proc.returncode != 0:
            first = next((ln for ln in log.splitlines() if "error" in ln.lower()), log.strip())
            raise AssembleError(f"ptxas rejected the PTX for {arch}: {first}")
        return dst.read_bytes(), log


def assemble_ptx(ptx: str, arch: str) -> bytes:
    return run_ptxas(ptx, arch)[0]


def resource_report(ptx: str, arch: str) -> str:
    """ptxas -v: registers, shared memory, spills of every kernel."""
    return run_ptxas(ptx, arch, ("-v",))[1]
