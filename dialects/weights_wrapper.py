"""The function that `convert-linalg-to-kernel` leaves where a program held weights: it
keeps the program's name and signature, holds the weights as `arith.constant`s and calls
the kernel function with its own arguments followed by them. Recognized here, at the IR
level, so that every pass over kernel functions can step over it."""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp


def wrapped_kernel(
    module: ModuleOp, wrapper: func.FuncOp
) -> tuple[func.FuncOp, list[arith.ConstantOp]] | None:
    """For a wrapper made by `build_wrapper`: the kernel function it calls and the
    constants it passes after its own arguments. None for any other function."""
    ops = list(wrapper.body.block.ops)
    if len(ops) < 2 or not isinstance(ops[-1], func.ReturnOp):
        return None
    call = ops[-2]
    consts = ops[:-2]
    if not isinstance(call, func.CallOp) or not all(
        isinstance(c, arith.ConstantOp) for c in consts
    ):
        return None
    args = list(wrapper.body.block.args)
    want = [*args, *(c.results[0] for c in consts)]
    if list(call.arguments) != want or list(ops[-1].operands) != list(call.results):
        return None
    callee = call.callee.root_reference.data
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == callee:
            return op, [c for c in consts if isinstance(c, arith.ConstantOp)]
    return None
