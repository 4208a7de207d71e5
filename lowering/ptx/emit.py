"""LLVM IR and PTX from a module of GPU kernels, through llvmlite's NVPTX backend."""

from __future__ import annotations

from functools import cache
from typing import Any

from xdsl.context import Context
from xdsl.dialects import gpu, llvm
from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.hardware import ArchError, target_for
from mirage.lowering.optimize.annotate import LoweringError, PlanUgraph
from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT
from mirage.lowering.optimize.wrap import wrap_function
from mirage.lowering.ptx.llvm_ir import to_llvmlite
from mirage.lowering.to_llvm.convert_kernel import convert_module, kernel_functions
from mirage.lowering.to_llvm.convert_nvvm import lower_nvvm

PTX_FEATURES = "+ptx80"
"""PTX ISA 8.0: read by CUDA 12.0 and newer drivers, enough for sm_90a."""


class TargetError(ValueError):
    """An unsupported GPU architecture or a module that is not lowered."""


def check_arch(arch: str) -> str:
    """`arch` if the compiler builds for it (its `Target` is known), else a TargetError."""
    try:
        return target_for(arch).name
    except ArchError as e:
        raise TargetError(str(e)) from None


def lowered(
    module: ModuleOp,
    arch: str,
    loads: str | None = None,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> ModuleOp:
    """A copy of `module` with its kernel functions lowered (as by `lower-to-llvm`:
    wrapped, planned, converted) and no nvvm ops left."""
    copy = module.clone()
    for f in kernel_functions(copy):
        try:
            wrap_function(f)
        except ValueError as e:
            raise LoweringError(f"@{f.sym_name.data}: {e}") from None
    PlanUgraph(arch, loads, matmuls, clusters).apply(Context(), copy)
    convert_module(copy, arch, loads, matmuls, clusters)
    lower_nvvm(copy)
    kernels = (gpu.ModuleOp, llvm.FuncOp, llvm.GlobalOp)
    if not any(isinstance(op, gpu.ModuleOp) for op in copy.ops) and not all(
        isinstance(op, kernels) for op in copy.ops
    ):
        raise TargetError(
            "the module has no kernel-dialect function to lower (linalg input: run "
            "-p convert-linalg-to-kernel first)"
        )
    return copy


def llvm_ir(
    module: ModuleOp,
    arch: str = "sm_90a",
    loads: str | None = None,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> str:
    """The kernels as LLVM IR text (before optimization)."""
    return str(to_llvmlite(lowered(module, check_arch(arch), loads, matmuls, clusters)))


def _llvm() -> Any:
    """llvmlite's binding to LLVM, loaded when PTX is first asked for (it has no stubs)."""
    import llvmlite.binding as llvm  # pyright: ignore[reportMissingTypeStubs]

    return llvm


@cache
def _target_machine(arch: str, short_ptr: bool) -> Any:
    llvm = _llvm()
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    # read when the target machine is made, so each (arch, short_ptr) gets its own
    llvm.set_option("", f"--nvptx-short-ptr={'true' if short_ptr else 'false'}")
    target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
    return target.create_target_machine(cpu=arch, features=PTX_FEATURES, opt=3)


def ptx_from_llvm_ir(text: str, arch: str, short_ptr: bool = True) -> str:
    """PTX for LLVM IR `text`. `short_ptr`: 32-bit shared-memory pointers, as CUDA uses (no
    64-bit address arithmetic for tiles)."""
    llvm = _llvm()
    tm = _target_machine(check_arch(arch), short_ptr)
    mod = llvm.parse_assembly(text)
    mod.data_layout = str(tm.target_data)
    mod.verify()
    tuning = llvm.create_pipeline_tuning_options(speed_level=3)
    builder = llvm.create_pass_builder(tm, tuning)
    builder.getModulePassManager().run(mod, builder)
    return tm.emit_assembly(mod)


def ptx(
    module: ModuleOp,
    arch: str = "sm_90a",
    loads: str | None = None,
    short_ptr: bool = True,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> str:
    """PTX text for every kernel of `module` (kernel-dialect functions are lowered first)."""
    mod = lowered(module, check_arch(arch), loads, matmuls, clusters)
    return ptx_from_llvm_ir(str(to_llvmlite(mod)), arch, short_ptr)
