"""From μGraphs to running kernels: the μGraph optimizer, lowering to llvm/nvvm, PTX and
cubin emission, and the CUDA runtime that loads, launches and times kernels."""

# Import nothing eagerly here (a module-level __getattr__ can load an entry point lazily):
# mirage.lowering.runtime must import without xdsl, z3 or llvmlite, so that a built program
# runs where only cuda-python and numpy are installed (tests/runtime/test_assemble.py checks).

from typing import Any


def __getattr__(name: str) -> Any:
    # Lazy: the runtime (mirage.lowering.runtime) must import without xdsl or llvmlite.
    if name in ("compile_function", "compile_module"):
        from mirage.lowering.ptx import compile as _compile

        return getattr(_compile, name)
    raise AttributeError(f"module 'mirage.lowering' has no attribute '{name}'")
