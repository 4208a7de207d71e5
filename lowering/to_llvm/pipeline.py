"""`lower-to-llvm`: the whole lowering of a module of μGraphs, as one pass:

    wrap-kernel-ops, plan-ugraph, convert-kernel-to-gpu, convert-nvvm-to-llvm

after which `-t llvm` / `-t ptx` / `-t cubin` emit the kernels. Each stage is also a pass
of its own, so `mirage-opt` can stop after any of them and print the module. Options:
`arch`, `loads`, `matmuls` and `clusters` (see `plan-ugraph`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mirage.lowering.optimize.annotate import PlanUgraph
from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT
from mirage.lowering.optimize.wrap import WrapKernelOps
from mirage.lowering.to_llvm.convert_kernel import ConvertKernelToGpu
from mirage.lowering.to_llvm.convert_nvvm import ConvertNvvmToLlvm


@dataclass(frozen=True)
class LowerToLlvm(ModulePass):
    """Every function of kernel-dialect ops -> host launches + llvm-dialect GPU kernels."""

    name = "lower-to-llvm"
    arch: str = "sm_90a"
    loads: str | None = None
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        WrapKernelOps().apply(ctx, op)
        PlanUgraph(self.arch, self.loads, self.matmuls, self.clusters).apply(ctx, op)
        ConvertKernelToGpu(self.arch, self.loads, self.matmuls, self.clusters).apply(ctx, op)
        ConvertNvvmToLlvm().apply(ctx, op)


LOWERING_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "wrap-kernel-ops": lambda: WrapKernelOps,
    "plan-ugraph": lambda: PlanUgraph,
    "convert-kernel-to-gpu": lambda: ConvertKernelToGpu,
    "convert-nvvm-to-llvm": lambda: ConvertNvvmToLlvm,
    "lower-to-llvm": lambda: LowerToLlvm,
}
