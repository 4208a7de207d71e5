"""`annotate-abstract-expr`: every value's abstract expression as an attribute of its op.

For lit tests, and for anyone who wants to see why the search cut a branch: each op of a
μGraph function (at all three levels) gets the discardable attribute `abstract_expr`, the
printed expression of its result (an array of them for several results). Function
arguments are variables named after their SSA names. A wrapper that convert-linalg-to-kernel
left to pass weights to its kernel function is skipped (the kernel is annotated).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from mirage.dialects.block import ForLoopOp
from mirage.dialects.ugraph.from_ir import UnsupportedOpError, graph_from_func
from mirage.dialects.weights_wrapper import wrapped_kernel
from mirage.passes.pruning.exprs import AbstractExprs
from mirage.passes.pruning.terms import Term, Var

ATTRIBUTE = "abstract_expr"
_RESERVED = frozenset({"sum", "add", "mul", "div", "exp", "sqrt", "rmax", "cat"})


def variable_names(hints: Sequence[str | None]) -> list[str]:
    """Valid, distinct variable names from SSA name hints (arg<i> where there is none)."""
    names: list[str] = []
    for i, hint in enumerate(hints):
        name = re.sub(r"[^A-Za-z0-9_.]", "_", hint) if hint else f"arg{i}"
        if not re.match(r"[A-Za-z_]", name) or name in _RESERVED:
            name = f"v_{name}"
        base, k = name, 1
        while name in names:
            name = f"{base}_{k}"
            k += 1
        names.append(name)
    return names


def _attr(terms: Sequence[Term]) -> StringAttr | ArrayAttr[StringAttr]:
    if len(terms) == 1:
        return StringAttr(str(terms[0]))
    return ArrayAttr([StringAttr(str(t)) for t in terms])


def _model_order(block: Block) -> list[Operation]:
    """The ops of a body in the order of the search model (from_ir): the loop's ops, then
    the ops after it; terminators and the loop op itself have no model op."""
    ops: list[Operation] = []
    first = block.first_op
    if isinstance(first, ForLoopOp):
        ops.extend(o for o in first.body.block.ops if o is not first.body.block.last_op)
        ops.extend(o for o in block.ops if o is not first and o is not block.last_op)
    else:
        ops.extend(o for o in block.ops if o is not block.last_op)
    return ops


def _annotate(ops: list[Operation], exprs: AbstractExprs) -> None:
    n = len(exprs.graph.args)
    for index, (ir_op, model_op) in enumerate(zip(ops, exprs.graph.ops, strict=True)):
        count = len(model_op.results)
        ir_op.attributes[ATTRIBUTE] = _attr(exprs.terms[n : n + count])
        n += count
        body = exprs.bodies.get(index)
        if body is not None:
            _annotate(_model_order(ir_op.regions[0].block), body)


def annotate_function(func: FuncOp) -> None:
    graph = graph_from_func(func)
    names = variable_names([a.name_hint for a in func.body.block.args])
    exprs = AbstractExprs.of(graph, args=[Var(n) for n in names])
    _annotate(_model_order(func.body.block), exprs)


@dataclass(frozen=True)
class AnnotateAbstractExprPass(ModulePass):
    """Attach each value's abstract expression to its op as `abstract_expr`."""

    name = "annotate-abstract-expr"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.walk():
            if not isinstance(func, FuncOp) or func.is_declaration:
                continue
            if wrapped_kernel(op, func) is not None:
                continue  # a wrapper passing weights to its kernel, which is annotated
            try:
                annotate_function(func)
            except UnsupportedOpError as e:
                raise DiagnosticException(
                    f"annotate-abstract-expr: @{func.sym_name.data}: {e}"
                ) from None
