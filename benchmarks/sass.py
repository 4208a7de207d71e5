"""The SASS instruction mix of a kernel: what `cuobjdump --dump-sass` lists, counted by opcode.

Needs the CUDA toolkit's ptxas and cuobjdump on the PATH (the GPU machine has them); imports
nothing past the standard library.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from pathlib import Path


def assemble(ptx: str, arch: str) -> bytes:
    """The cubin ptxas makes of `ptx` for `arch` (sm_90a, ...), at -O3."""
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        src.write_text(ptx)
        subprocess.run(["ptxas", f"-arch={arch}", "-O3", "-o", str(cubin), str(src)], check=True)
        return cubin.read_bytes()


def sass_mix(cubin: bytes, function: str | None = None) -> dict[str, int]:
    """Opcodes (without their modifiers) of every kernel in `cubin`, or of `function` only,
    most frequent first."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "k.cubin"
        path.write_bytes(cubin)
        only = ["--function", function] if function else []
        cmd = ["cuobjdump", "--dump-sass", *only, str(path)]
        sass = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    mix: Counter[str] = Counter()
    for line in sass.splitlines():
        if "/*" in line and ";" in line:
            body = line.split("*/", 1)[-1].strip()
            if body.startswith("@"):
                body = body.split(None, 1)[-1]
            op = body.split()[0].rstrip(";") if body else ""
            if op and op[0].isalpha():
                mix[op.split(".")[0]] += 1
    return dict(mix.most_common())


def describe(mix: dict[str, int], top: int = 12) -> str:
    """`total: OP n, OP n, ...` of the `top` most frequent opcodes."""
    return f"{sum(mix.values())}: " + ", ".join(f"{k} {v}" for k, v in list(mix.items())[:top])
