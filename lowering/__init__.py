"""From μGraphs to running kernels: the μGraph optimizer, lowering to llvm/nvvm, PTX and
cubin emission, and the CUDA runtime that loads, launches and times kernels."""

# Import nothing eagerly here (a module-level __getattr__ can load an entry point lazily):
# mirage.lowering.runtime must import without xdsl, z3 or llvmlite, so that a built program
# runs where only cuda-python and numpy are installed (tests/runtime/test_assemble.py checks).
