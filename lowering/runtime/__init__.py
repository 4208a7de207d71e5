"""Loading, launching and timing built programs on a CUDA device.

`program` (the descriptor) needs the standard library only; the rest needs cuda-python and
numpy, and never xdsl, z3, llvmlite or torch, so a saved program runs anywhere a driver is.
cuda-python is imported on first use: importing this package never fails for want of a GPU.
"""

from mirage.lowering.runtime.errors import ArgumentError, AssembleError, CudaError, NoDeviceError
from mirage.lowering.runtime.loader import LoadedProgram, load
from mirage.lowering.runtime.program import (
    DTYPE_BYTES,
    BufferSpec,
    CompiledProgram,
    KernelLaunch,
    ProgramError,
)
from mirage.lowering.runtime.timing import Timing, TimingMethod, time_program

__all__ = [
    "DTYPE_BYTES",
    "ArgumentError",
    "AssembleError",
    "BufferSpec",
    "CompiledProgram",
    "CudaError",
    "KernelLaunch",
    "LoadedProgram",
    "NoDeviceError",
    "ProgramError",
    "Timing",
    "TimingMethod",
    "load",
    "time_program",
]
