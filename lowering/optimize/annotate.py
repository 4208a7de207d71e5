"""`plan-ugraph`: runs the μGraph optimizer on every `kernel.graph` and records its
decisions in the IR, where `mirage-opt` prints them and `convert-kernel-to-gpu` honours
them (`mirage.stages` may be set by hand to force a pipeline depth).

On the graph: `mirage.smem_bytes`, `mirage.stages`, `mirage.barriers` (per iteration).
On block ops: `mirage.tile` (the shared-memory tile of the result), `mirage.fused` (the
result is computed in registers where it is read), `mirage.mma` (a matmul's strategy).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, UnitAttr, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mirage.lowering.optimize.plan import Plan, plan_graph_op


def _body_ops(graph: Operation) -> list[Operation]:
    """The block ops in the order of the search model's numbering."""
    from mirage.dialects.block import ForLoopOp, ReturnOp, YieldOp

    entry = graph.regions[0].block
    loop = entry.first_op
    assert isinstance(loop, ForLoopOp)
    inner = [op for op in loop.body.block.ops if not isinstance(op, YieldOp)]
    after = [op for op in entry.ops if op is not loop and not isinstance(op, ReturnOp)]
    return inner + after


def annotate(graph: Operation, plan: Plan) -> None:
    graph.attributes["mirage.smem_bytes"] = IntegerAttr(plan.smem_bytes, i64)
    graph.attributes["mirage.stages"] = IntegerAttr(plan.stages, i64)
    graph.attributes["mirage.barriers"] = IntegerAttr(plan.barriers, i64)
    g = plan.graph
    results = [r for _, r in g.result_ids()]
    for index, op in enumerate(_body_ops(graph)):
        v = results[index][0]
        for key in ("mirage.tile", "mirage.fused", "mirage.mma"):
            op.attributes.pop(key, None)
        if v in plan.tiles:
            op.attributes["mirage.tile"] = StringAttr(plan.tiles[v].describe())
        elif v in plan.virtual:
            op.attributes["mirage.fused"] = UnitAttr()
        mm = plan.matmuls.get(index)
        if mm is not None:
            how = "mma.sync.m16n8k16" if mm.tensor_core else "fma"
            parts = "x".join(map(str, mm.parts))
            mode = mm.mode
            if mm.chain_next >= 0:
                mode = "chain"  # the result stays in registers as the next matmul's A
            op.attributes["mirage.mma"] = StringAttr(f"{how} warps {parts} {mode}")


@dataclass(frozen=True)
class PlanUgraph(ModulePass):
    """Plans every kernel.graph (tiles, fusion, pipelining, schedule) and annotates it."""

    name = "plan-ugraph"
    arch: str = "sm_90a"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.dialects.func import FuncOp

        from mirage.dialects.kernel import GraphOp
        from mirage.dialects.ugraph.from_ir import _block_graph  # pyright: ignore[reportPrivateUsage]
        from mirage.lowering.optimize.plan import PlanError
        from mirage.lowering.to_llvm.convert_kernel import LoweringError, _stages_override  # pyright: ignore[reportPrivateUsage]

        for graph in op.walk():
            if not isinstance(graph, GraphOp):
                continue
            func = graph.parent_op()
            where = "kernel.graph"
            if isinstance(func, FuncOp):
                index = [o for o in func.body.block.ops if isinstance(o, GraphOp)].index(graph)
                where = f"@{func.sym_name.data}, kernel {index}"
            body = _block_graph(graph.body.block)
            try:
                plan = plan_graph_op(
                    body,
                    graph.grid_dims,
                    graph.block_dims,
                    graph.loop_range,
                    self.arch,
                    _stages_override(graph),
                )
            except PlanError as e:
                raise LoweringError(f"{where}: {e}") from None
            annotate(graph, plan)
