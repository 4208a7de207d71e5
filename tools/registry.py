"""The dialects, passes and targets of mirage-xdsl, registered lazily as xDSL does it."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def _kernel() -> Dialect:
    from mirage.dialects.kernel import KernelDialect

    return KernelDialect


def _block() -> Dialect:
    from mirage.dialects.block import BlockDialect

    return BlockDialect


def _thread() -> Dialect:
    from mirage.dialects.thread import ThreadDialect

    return ThreadDialect


def _nvvm() -> Dialect:
    from mirage.dialects.nvvm import NVVM

    return NVVM


def _mirage() -> Dialect:
    from mirage.lowering.optimize.decisions import MirageAttrs

    return MirageAttrs


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {
        "kernel": _kernel,
        "block": _block,
        "thread": _thread,
        "nvvm": _nvvm,
        "mirage": _mirage,
    }


def _linalg() -> Dialect:
    from mirage.passes.linalg.named_ops import linalg_dialect

    return linalg_dialect()


def get_dialect_overrides() -> dict[str, Callable[[], Dialect]]:
    """xDSL dialects replaced by an extended version (linalg: batch_matmul, and matmul
    bodies that verify for mixed precision)."""
    return {"linalg": _linalg}


def _convert_linalg_to_kernel() -> type[ModulePass]:
    from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass

    return ConvertLinalgToKernelPass


def _convert_kernel_to_linalg() -> type[ModulePass]:
    from mirage.passes.linalg.to_linalg import ConvertKernelToLinalgPass

    return ConvertKernelToLinalgPass


def _annotate_abstract_expr() -> type[ModulePass]:
    from mirage.passes.pruning.expr_annotation import AnnotateAbstractExprPass

    return AnnotateAbstractExprPass


def _check_equivalence() -> type[ModulePass]:
    from mirage.passes.equivalence.check_equivalence import CheckEquivalencePass

    return CheckEquivalencePass


def _superoptimize() -> type[ModulePass]:
    from mirage.passes.superoptimize.module_pass import SuperoptimizePass

    return SuperoptimizePass


def _lowering_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    from mirage.lowering.to_llvm.pipeline import LOWERING_PASSES

    return LOWERING_PASSES


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory of its class. Each pass module registers itself here."""
    return {
        **_lowering_passes(),
        "annotate-abstract-expr": _annotate_abstract_expr,
        "convert-linalg-to-kernel": _convert_linalg_to_kernel,
        "convert-kernel-to-linalg": _convert_kernel_to_linalg,
        "check-equivalence": _check_equivalence,
        "superoptimize": _superoptimize,
    }


def _dot_target() -> type[Target]:
    from mirage.tools.dot_target import DotTarget

    return DotTarget


def get_universe_targets() -> dict[str, Callable[[], type[Target]]]:
    """The targets every xDSL tool gets (names that xDSL's own targets do not use)."""
    return {"dot": _dot_target}


def get_all_targets() -> dict[str, Callable[[], type]]:
    from mirage.lowering.ptx import targets

    return {
        "llvm": lambda: targets.LLVMIRTarget,
        "ptx": lambda: targets.PTXTarget,
        "cubin": lambda: targets.CubinTarget,
        **get_universe_targets(),
    }


def make_context() -> Context:
    """A context with xDSL's dialects and ours, for tools and tests."""
    from xdsl.universe import Universe

    ctx = Context()
    overrides = get_dialect_overrides()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, overrides.get(name, factory))
    for name, factory in get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx
