"""Run built programs once each, for a profiler to watch (ncu):

    ncu --clock-control none --section SpeedOfLight ... \
        python3 benchmarks/profile_lowered.py A.json ...

Inputs are random (uniform in +-[0.25, 1], x0.5 for attention), never zeros.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from mirage.lowering.runtime.loader import load
from mirage.lowering.runtime.program import CompiledProgram


def main(paths: list[str]) -> None:
    rng = np.random.default_rng(1)
    for path in paths:
        program = CompiledProgram.from_json(Path(path).read_text())
        scale = 0.5 if "gqa" in path or "attention" in path else 1.0
        inputs = [
            rng.uniform(0.25, 1.0, size=s.shape) * scale * rng.choice([-1.0, 1.0], size=s.shape)
            for s in program.inputs
        ]
        from mirage.lowering.runtime.arrays import from_float

        loaded = load(program)
        host = [from_float(x, s.dtype) for x, s in zip(inputs, program.inputs, strict=True)]
        loaded.run(host, poison=True, sync=True)
        print(f"ran {path}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
