"""LLVM IR and PTX from a module of GPU kernels, through llvmlite's NVPTX backend."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from xdsl.dialects.builtin import ModuleOp

SUPPORTED_ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a")
PTX_FEATURES = "+ptx80"
"""PTX ISA 8.0: read by CUDA 12.0 and newer drivers, enough for sm_90a."""


class TargetError(ValueError):
    """An unsupported GPU architecture or a module that is not lowered."""


def check_arch(arch: str) -> str:
    if arch not in SUPPORTED_ARCHS:
        raise TargetError(
            f"unsupported GPU architecture '{arch}' (use one of {', '.join(SUPPORTED_ARCHS)})"
        )
    return arch


def lowered(module: ModuleOp, arch: str) -> ModuleOp:
    """A copy of `module` with its kernel functions lowered and no nvvm ops left."""
    from xdsl.dialects import gpu, llvm

    from mirage.lowering.to_llvm.convert_kernel import convert_module
    from mirage.lowering.to_llvm.convert_nvvm import lower_nvvm

    copy = module.clone()
    convert_module(copy, arch)
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


def llvm_ir(module: ModuleOp, arch: str = "sm_90a") -> str:
    """The kernels as LLVM IR text (before optimization)."""
    from mirage.lowering.ptx.llvm_ir import to_llvmlite

    return str(to_llvmlite(lowered(module, check_arch(arch))))


@cache
def _target_machine(arch: str) -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    # 32-bit shared-memory pointers, as CUDA uses: no 64-bit address arithmetic for tiles
    if os.environ.get("MIRAGE_NVPTX_SHORT_PTR", "1") != "0":
        llvm.set_option("", "--nvptx-short-ptr")
    target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
    return target.create_target_machine(cpu=arch, features=PTX_FEATURES, opt=3)


def ptx_from_llvm_ir(text: str, arch: str) -> str:
    import llvmlite.binding as llvm

    tm = _target_machine(check_arch(arch))
    mod = llvm.parse_assembly(text)
    mod.data_layout = str(tm.target_data)
    mod.verify()
    tuning = llvm.create_pipeline_tuning_options(speed_level=3)
    builder = llvm.create_pass_builder(tm, tuning)
    builder.getModulePassManager().run(mod, builder)
    return tm.emit_assembly(mod)


def ptx(module: ModuleOp, arch: str = "sm_90a") -> str:
    """PTX text for every kernel of `module` (kernel-dialect functions are lowered first)."""
    from mirage.lowering.ptx.llvm_ir import to_llvmlite

    mod = lowered(module, check_arch(arch))
    return ptx_from_llvm_ir(str(to_llvmlite(mod)), arch)
