"""`plan-ugraph`: runs the μGraph optimizer on every `kernel.graph` and records its
decisions in the IR as typed attributes (`mirage.lowering.optimize.decisions`), which
`mirage-opt` prints and `convert-kernel-to-gpu` builds from without planning again.

A `mirage.stages` set by hand on a graph forces its pipeline depth, wherever the graph
stands in its function. Options: `arch` (the target: shared memory, tensor cores, bulk
copies) and `loads` (how pipelined tiles are loaded: `cp-async`, `bulk-rows` or `tma`, the
last two on sm_90, see `load_plan`; unset: as the target prefers, which is cp.async
everywhere today), and `matmuls` (how block matmuls run: `auto`, `mma-sync`, `wgmma` on
sm_90a, or `fma`, see `matmul_plan`; unset: `auto`, today's mma.sync where it fits).
Where a matmul cannot run as asked, it falls back and the graph carries a
`mirage.remarks` list saying which and why. `clusters` (default off,
`cluster_join.CLUSTERS_BY_DEFAULT`): a graph that can run in the launch of the graph before
it, as a split-KV pair's combine can, is planned to (`cluster_join`) and carries
`mirage.join`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from mirage.dialects.block import ForLoopOp, ReturnOp, YieldOp
from mirage.dialects.hardware import Target, target_for
from mirage.dialects.kernel import GraphOp
from mirage.dialects.ugraph.from_ir import block_graph, graph_from_func
from mirage.dialects.ugraph.graph import Op
from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT, function_joins, plan_second
from mirage.lowering.optimize.decisions import (
    BARRIERS,
    FUSED,
    JOIN,
    MMA,
    PLAN,
    REMARKS,
    SMEM_BYTES,
    STAGES,
    TILE,
    JoinAttr,
    PlanAttr,
    decode,
    encode,
    stages_override,
)
from mirage.lowering.optimize.load_plan import check_loads
from mirage.lowering.optimize.matmul_plan import AUTO, check_matmuls
from mirage.lowering.optimize.plan import Plan, PlanError, plan_graph_op


class LoweringError(DiagnosticException):
    """A function cannot be lowered; the message names the function and the reason."""


def _body_ops(graph: Operation) -> list[Operation]:
    """The block ops in the order of the search model's numbering."""
    entry = graph.regions[0].block
    loop = entry.first_op
    assert isinstance(loop, ForLoopOp)
    inner = [op for op in loop.body.block.ops if not isinstance(op, YieldOp)]
    after = [op for op in entry.ops if op is not loop and not isinstance(op, ReturnOp)]
    return inner + after


def annotate(graph: Operation, plan: Plan) -> None:
    """Writes `plan` on the IR op `graph` and its block ops, replacing any earlier plan."""
    ops = _body_ops(graph)
    for op in ops:
        for key in (TILE, FUSED, MMA):
            op.attributes.pop(key, None)

    def set_attr(index: int, name: str, attr: Attribute) -> None:
        ops[index].attributes[name] = attr

    graph.attributes[PLAN] = encode(plan, set_attr)
    graph.attributes[SMEM_BYTES] = IntegerAttr(plan.smem_bytes, i64)
    graph.attributes[STAGES] = IntegerAttr(plan.stages, i64)
    graph.attributes[BARRIERS] = IntegerAttr(plan.barriers, i64)
    graph.attributes.pop(REMARKS, None)
    if plan.remarks:
        graph.attributes[REMARKS] = ArrayAttr([StringAttr(r) for r in plan.remarks])


def loads_for(asked: str | None) -> str | None:
    """The load strategy asked for, or None: the planner's default for the target (an
    unknown name is an error)."""
    try:
        return None if asked is None else check_loads(asked)
    except ValueError as e:
        raise LoweringError(str(e)) from None


def matmuls_for(asked: str | None) -> str:
    """The matmul strategy asked for, or `auto`; an unknown name is an error."""
    try:
        return check_matmuls(AUTO if asked is None else asked)
    except ValueError as e:
        raise LoweringError(str(e)) from None


def plan_for(op: Op, target: Target, loads: str | None = None, matmuls: str | None = None) -> Plan:
    """The plan of model graph op `op`: the one `plan-ugraph` recorded on it, or else the
    planner's (honouring the op's own `mirage.stages`)."""
    body = op.body
    assert op.kind == "graph" and body is not None
    recorded = op.annotation(PLAN)
    if isinstance(recorded, PlanAttr):
        planned = recorded.arch.data
        if planned != target.name:
            raise PlanError(f"planned for {planned}, lowered for {target.name}")
        plan = decode(op, recorded)
        remarks = op.annotation(REMARKS)
        if isinstance(remarks, ArrayAttr):
            entries = cast("tuple[Attribute, ...]", remarks.data)  # pyright: ignore[reportUnknownMemberType]
            plan.remarks = [r.data for r in entries if isinstance(r, StringAttr)]
        forced = stages_override(op)
        if forced is not None and forced != plan.stages:
            raise PlanError(
                f"mirage.stages {forced} differs from the {plan.stages} of its mirage.plan "
                "(run plan-ugraph again)"
            )
        return plan
    return plan_graph_op(
        body,
        op.ints_attr("grid"),
        op.ints_attr("block"),
        op.int_attr("forloop_range"),
        target,
        stages_override(op),
        loads_for(loads),
        matmuls_for(matmuls),
    )


@dataclass(frozen=True)
class PlanUgraph(ModulePass):
    """Plans every kernel.graph (tiles, fusion, pipelining, schedule) and annotates it; with
    `clusters`, a graph that can run in the launch of the one before it (`cluster_join`)
    is planned for that and carries `mirage.join`."""

    name = "plan-ugraph"
    arch: str = "sm_90a"
    loads: str | None = None
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = target_for(self.arch)
        # a bad name is an error with or without graphs
        loads = loads_for(self.loads)
        matmuls = matmuls_for(self.matmuls)
        funcs = [f for f in op.walk() if isinstance(f, FuncOp)]
        inside = {id(g) for f in funcs for g in f.body.block.ops if isinstance(g, GraphOp)}
        for f in funcs:
            self._plan_function(f, target, loads, matmuls)
        for graph in op.walk():
            if isinstance(graph, GraphOp) and id(graph) not in inside:
                annotate(graph, _plan(graph, "kernel.graph", target, loads, matmuls))

    def _plan_function(self, f: FuncOp, target: Target, loads: str | None, matmuls: str) -> None:
        graphs = [o for o in f.body.block.ops if isinstance(o, GraphOp)]
        if not graphs:
            return
        plans: dict[int, Plan] = {}
        index_of: dict[int, GraphOp] = {}
        model = graph_from_func(f) if self.clusters else None
        model_indices = (
            [i for i, (o, _) in enumerate(model.result_ids()) if o.kind == "graph"]
            if model is not None
            else list(range(len(graphs)))
        )
        for n, graph in enumerate(graphs):
            where = f"@{f.sym_name.data}, kernel {n}"
            graph.attributes.pop(JOIN, None)
            plan = _plan(graph, where, target, loads, matmuls)
            annotate(graph, plan)
            plans[model_indices[n]] = plan
            index_of[model_indices[n]] = graph
        if model is None:
            return
        ops = list(model.result_ids())
        for second, (join, first) in function_joins(model, plans, target).items():
            plan = plan_second(ops[second][0], join, plans[first], target, matmuls)
            if isinstance(plan, str):
                continue  # planned on its own, launched on its own
            graph = index_of[second]
            annotate(graph, plan)
            graph.attributes[JOIN] = JoinAttr(
                IntAttr(join.axis), IntAttr(join.size), IntAttr(plan.threads)
            )


def _plan(graph: GraphOp, where: str, target: Target, loads: str | None, matmuls: str) -> Plan:
    forced = graph.attributes.get(STAGES)
    try:
        return plan_graph_op(
            block_graph(graph.body.block),
            graph.grid_dims,
            graph.block_dims,
            graph.loop_range,
            target,
            forced.value.data if isinstance(forced, IntegerAttr) else None,
            loads,
            matmuls,
        )
    except PlanError as e:
        raise LoweringError(f"{where}: {e}") from None
