"""Loading, launching and timing built programs on a CUDA device.

`program` (the descriptor) needs the standard library only; the rest needs cuda-python and
numpy, and never xdsl, z3, llvmlite or torch, so a saved program runs anywhere a driver is.
"""

from mirage.lowering.runtime.program import (
    DTYPE_BYTES,
    BufferSpec,
    CompiledProgram,
    KernelLaunch,
    ProgramError,
)

__all__ = ["DTYPE_BYTES", "BufferSpec", "CompiledProgram", "KernelLaunch", "ProgramError"]
