"""Measuring candidates on the GPU (`profile=true`): each is lowered to PTX, loaded and
timed by the runtime the way the baselines are timed (CUDA-graph replay, inputs rotated
out of L2, median)."""

from __future__ import annotations

from collections.abc import Sequence

from mirage.dialects.hardware import target_for
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.lowering.ptx.compile import CompileError, compile_function
from mirage.lowering.runtime import NoDeviceError, driver, load, time_program
from mirage.passes.superoptimize.lowered import lowering_arch


class ProfileError(RuntimeError):
    """Profiling cannot run here (no CUDA device or no driver)."""


class GpuProfiler:
    def __init__(self, target: str) -> None:
        try:
            driver.init()
        except (NoDeviceError, ImportError, OSError) as e:
            raise ProfileError(f"profile=true needs a CUDA device: {e}") from e
        self.arch = lowering_arch(target_for(target))

    def measure(self, candidates: Sequence[Graph]) -> list[float]:
        """Seconds per call of each candidate (infinity where it does not build)."""
        out: list[float] = []
        for graph in candidates:
            try:
                program = compile_function(func_from_graph("candidate", graph), self.arch)
            except (CompileError, ValueError, NotImplementedError):
                out.append(float("inf"))
                continue
            timing = time_program(load(program))
            out.append(timing.median_us * 1e-6)
        return out
