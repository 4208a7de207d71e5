"""`convert-linalg-to-kernel`: linalg-on-tensors functions become kernel-dialect functions.

Every function with a body is read as tensor terms (`interpret`) and rebuilt from kernel
ops (`emit`). Functions that already hold kernel ops only, and the wrappers this pass
makes, are left as they are. If any op
of any function cannot be expressed, the pass raises one `ConversionError` naming that
op, and the module is not changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mirage.dialects.weights_wrapper import wrapped_kernel
from mirage.passes.linalg.constants import KERNEL_SUFFIX, build_wrapper
from mirage.passes.linalg.interpret import interpret_function
from mirage.passes.linalg.kernel_emit import Emitter


def _is_kernel_function(f: func.FuncOp) -> bool:
    return all(
        op.dialect_name() in ("kernel", "block", "thread") or isinstance(op, func.ReturnOp)
        for op in f.body.block.ops
    )


def _free_name(module: ModuleOp, base: str) -> str:
    taken = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}{n}"
    return name


def convert_function(module: ModuleOp, f: func.FuncOp) -> list[func.FuncOp]:
    """The kernel function of `f`, preceded by its wrapper when it has weights."""
    imported = interpret_function(f)
    name = f.sym_name.data
    arg_types = [a.type for a in f.body.block.args]
    arg_types += [c.op.result.type for c in imported.constants]
    kernel_name = _free_name(module, name + KERNEL_SUFFIX) if imported.constants else name
    outputs = list(f.function_type.outputs.data)
    kernel_func = Emitter(imported, kernel_name, arg_types, outputs, f).build()
    if not imported.constants:
        return [kernel_func]
    wrapper = build_wrapper(f, kernel_name, [c.op for c in imported.constants])
    return [wrapper, kernel_func]


@dataclass(frozen=True)
class ConvertLinalgToKernelPass(ModulePass):
    """linalg + tensor + arith/math on tensors -> kernel ops."""

    name = "convert-linalg-to-kernel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        todo = [
            f
            for f in op.ops
            if isinstance(f, func.FuncOp)
            and f.body.blocks
            and not _is_kernel_function(f)
            and wrapped_kernel(op, f) is None
        ]
        converted = [(f, convert_function(op, f)) for f in todo]
        for f, new in converted:
            block = f.parent_block()
            assert block is not None
            for g in new:
                block.insert_op_before(g, f)
            f.detach()
            f.erase()
