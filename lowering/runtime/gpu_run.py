"""Running a function on the GPU for `mirage-run`: pick the device, lower, run, compare, time.

Inputs and outputs are float64 numpy arrays on the host, as the CPU reference path uses;
they are rounded to each buffer's element type on the way in and widened on the way out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mirage.lowering.runtime import driver
from mirage.lowering.runtime.arrays import from_float, to_float32
from mirage.lowering.runtime.errors import NoDeviceError
from mirage.lowering.runtime.loader import load
from mirage.lowering.runtime.program import CompiledProgram
from mirage.lowering.runtime.timing import Timing, TimingMethod, time_program

Arrays = Sequence[np.ndarray[Any, Any]]

TOLERANCE = {"f16": 1e-2, "bf16": 1e-2, "f32": 1e-4, "f64": 1e-9}
"""Largest relative error (2-norm) of an output against the float64 reference."""


def gpu_available(required: bool) -> bool:
    """Whether a CUDA device is there; with `required`, its absence raises NoDeviceError."""
    try:
        driver.device_count()
        return True
    except NoDeviceError:
        if required:
            raise
        return False


def default_arch(device: int = 0) -> str:
    """The target to build for: sm_90a on Hopper (wgmma), else the device's own sm_XY."""
    major, minor = driver.get_device(device).capability
    return "sm_90a" if (major, minor) == (9, 0) else f"sm_{major}{minor}"


@dataclass(frozen=True)
class GpuResult:
    inputs: list[np.ndarray[Any, np.dtype[np.float64]]]
    """The inputs as the GPU saw them: rounded to each buffer's type, widened back."""
    outputs: list[np.ndarray[Any, np.dtype[np.float64]]]
    image_source: str
    device_name: str
    timing: Timing | None


def run_program(
    program: CompiledProgram,
    inputs: Arrays,
    timing: TimingMethod | None = None,
    device: int = 0,
) -> GpuResult:
    """Run `program` once on `inputs` (outputs poisoned first), and time it if asked."""
    loaded = load(program, device)
    host = [from_float(x, s.dtype) for x, s in zip(inputs, program.inputs, strict=True)]
    outs = loaded.run(host, poison=True)
    wide = [
        to_float32(o, s.dtype).astype(np.float64)
        for o, s in zip(outs, program.outputs, strict=True)
    ]
    t = time_program(loaded, timing, inputs=host) if timing is not None else None
    seen = [
        to_float32(x, s.dtype).astype(np.float64) for x, s in zip(host, program.inputs, strict=True)
    ]
    return GpuResult(seen, wide, loaded.image_source, loaded.device.name, t)


def compare(outputs: Arrays, reference: Arrays, dtypes: Sequence[str]) -> list[tuple[float, bool]]:
    """(relative error, within tolerance) of each output; NaN or inf anywhere fails."""
    result: list[tuple[float, bool]] = []
    for got, want, dtype in zip(outputs, reference, dtypes, strict=True):
        if not np.isfinite(got).all():
            result.append((float("nan"), False))
            continue
        scale = float(np.linalg.norm(want)) or 1.0
        err = float(np.linalg.norm(got - want)) / scale
        result.append((err, err < TOLERANCE[dtype]))
    return result
