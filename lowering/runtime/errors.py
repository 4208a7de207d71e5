"""The runtime's errors: each carries one line that says what failed and where."""

from __future__ import annotations


class CudaError(RuntimeError):
    """A CUDA call failed; the message names the call and the driver's error."""


class NoDeviceError(CudaError):
    """There is no usable CUDA device (no driver, no GPU, or no cuda-python)."""


class ArgumentError(ValueError):
    """An input, output or stream handed to a program does not fit it."""


class AssembleError(CudaError):
    """PTX did not assemble to a cubin; the message holds the assembler's first error."""
