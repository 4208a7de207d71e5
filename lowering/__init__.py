"""From μGraphs to running kernels: the μGraph optimizer, lowering to llvm/nvvm, PTX and
cubin emission, and the CUDA runtime that loads, launches and times kernels."""
