"""`lower-to-llvm`: the whole lowering of a module of μGraphs, as one pass:

    wrap-kernel-ops, plan-ugraph, convert-kernel-to-gpu, convert-nvvm-to-llvm

after which `-t llvm` / `-t ptx` / `-t cubin` emit the kernels. Each stage is also a pass
of its own, so `mirage-opt` can stop after any of them and print the module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class LowerToLlvm(ModulePass):
    """Every function of kernel-dialect ops -> host launches + llvm-dialect GPU kernels."""

    name = "lower-to-llvm"
    arch: str = "sm_90a"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mirage.lowering.optimize.annotate import PlanUgraph
        from mirage.lowering.optimize.wrap import WrapKernelOps
        from mirage.lowering.to_llvm.convert_kernel import ConvertKernelToGpu
        from mirage.lowering.to_llvm.convert_nvvm import ConvertNvvmToLlvm

        WrapKernelOps().apply(ctx, op)
        PlanUgraph(self.arch).apply(ctx, op)
        ConvertKernelToGpu(self.arch).apply(ctx, op)
        ConvertNvvmToLlvm().apply(ctx, op)


def _wrap() -> type[ModulePass]:
    from mirage.lowering.optimize.wrap import WrapKernelOps

    return WrapKernelOps


def _plan() -> type[ModulePass]:
    from mirage.lowering.optimize.annotate import PlanUgraph

    return PlanUgraph


def _convert_kernel() -> type[ModulePass]:
    from mirage.lowering.to_llvm.convert_kernel import ConvertKernelToGpu

    return ConvertKernelToGpu


def _convert_nvvm() -> type[ModulePass]:
    from mirage.lowering.to_llvm.convert_nvvm import ConvertNvvmToLlvm

    return ConvertNvvmToLlvm


LOWERING_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "wrap-kernel-ops": _wrap,
    "plan-ugraph": _plan,
    "convert-kernel-to-gpu": _convert_kernel,
    "convert-nvvm-to-llvm": _convert_nvvm,
    "lower-to-llvm": lambda: LowerToLlvm,
}
