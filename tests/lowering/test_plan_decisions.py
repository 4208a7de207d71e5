"""The planner's decisions as typed attributes: what plan-ugraph writes, convert-kernel-to-gpu
builds from, a hand-set pipeline depth wherever its graph stands, and the search model
carrying discardable attributes from IR to IR."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from mirage.dialects.hardware import SM_80, SM_90A
from mirage.dialects.kernel import GraphOp
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.lowering.optimize.annotate import PlanUgraph, plan_for
from mirage.lowering.optimize.decisions import PLAN, PlanAttr, decode
from mirage.lowering.optimize.plan import Plan, PlanError, plan_graph_op
from mirage.lowering.ptx.compile import compile_function, launches_of
from mirage.lowering.to_llvm.convert_kernel import convert_module
from mirage.tools.registry import make_context
from tests.conftest import FIXTURES, get_func, parse_module

SMALL = (FIXTURES / "rmsnorm_linear_small.mlir").read_text()
_START = SMALL.index("  %y = kernel.graph")
GRAPH = SMALL[_START : SMALL.index("  func.return %y", _START)]


def _function(before: str, stages: int | None) -> str:
    """@f: the small Figure 3 graph, after `before` (ops that make %x from %x0)."""
    graph = GRAPH
    if stages is not None:
        graph = graph.replace("forloop 4 :", f"forloop 4 {{mirage.stages = {stages} : i64}} :", 1)
    arg = "%x0: tensor<256xf16>" if before else "%x: tensor<4x64xf16>"
    return (
        f"func.func @f({arg}, %w: tensor<64x96xf16>) -> tensor<4x96xf16> {{\n"
        f"{before}{graph}  func.return %y : tensor<4x96xf16>\n}}\n"
    )


RESHAPE = "  %x = kernel.reshape %x0 : tensor<256xf16> -> tensor<4x64xf16>\n"


def _graph_smem(text: str, via_plan_ugraph: bool) -> int:
    """The dynamic shared memory of the graph's launch, as lowered."""
    func = get_func(parse_module(text), "f")
    if via_plan_ugraph:  # wrap-kernel-ops, plan-ugraph, convert-kernel-to-gpu
        (launch,) = compile_function(func, "sm_90a").launches
        return launch.shared_bytes
    module = ModuleOp([func.clone()])
    convert_module(module, "sm_90a")  # no mirage.plan: convert-kernel-to-gpu plans
    (host,) = [op for op in module.ops if isinstance(op, FuncOp)]
    (launch,) = launches_of(host)[3]
    return launch.shared_bytes


@pytest.mark.parametrize("via_plan_ugraph", [True, False])
def test_a_hand_set_stages_count_holds_wherever_the_graph_stands(via_plan_ugraph: bool) -> None:
    default = _graph_smem(_function("", None), via_plan_ugraph)
    first = _graph_smem(_function("", 2), via_plan_ugraph)
    after_reshape = _graph_smem(_function(RESHAPE, 2), via_plan_ugraph)
    assert first != default  # two stages need less shared memory than the planner's four
    assert after_reshape == first


def _planned_module() -> ModuleOp:
    module = parse_module((FIXTURES / "attention.mlir").read_text())
    PlanUgraph("sm_90a").apply(make_context(), module)
    return module


def test_plan_attributes_print_parse_and_decode_to_the_planners_plan() -> None:
    module = _planned_module()
    reparsed = parse_module(str(module))
    assert str(reparsed) == str(module)
    func = get_func(reparsed, "ugraph")
    model = graph_from_func(func)
    graphs = [op for op in model.ops if op.kind == "graph"]
    assert graphs
    for op in graphs:
        attr = op.annotation(PLAN)
        assert isinstance(attr, PlanAttr)
        assert op.body is not None
        fresh = plan_graph_op(
            op.body,
            op.ints_attr("grid"),
            op.ints_attr("block"),
            op.int_attr("forloop_range"),
            SM_90A,
            loads=None,
        )
        decoded = decode(op, attr)
        for name in Plan.__dataclass_fields__:
            if name != "graph":
                assert getattr(decoded, name) == getattr(fresh, name), name


def test_convert_builds_from_the_recorded_plan_not_a_new_one() -> None:
    module = _planned_module()
    func = get_func(module, "ugraph")
    graph = next(op for op in func.body.block.ops if isinstance(op, GraphOp))
    # a recorded decision the planner would never make: the builder follows it anyway
    text = str(module)
    pitch = re.search(r"pitch (\d+)", text)
    assert pitch is not None
    text = text[: pitch.start()] + f"pitch {int(pitch.group(1)) + 8}" + text[pitch.end() :]
    op = graph_from_func(get_func(parse_module(text), "ugraph")).ops[0]
    recorded = plan_for(op, SM_90A)
    planned = plan_for(graph_from_func(func).ops[0], SM_90A)
    changed = [v for v in planned.tiles if recorded.tiles[v].pitch != planned.tiles[v].pitch]
    assert len(changed) == 1
    with pytest.raises(PlanError, match="planned for sm_90a, lowered for sm_80"):
        plan_for(graph_from_func(func).ops[0], SM_80)
    graph.attributes["mirage.stages"] = IntegerAttr(1, i64)
    with pytest.raises(PlanError, match=r"mirage.stages 1 differs .*run plan-ugraph again"):
        plan_for(graph_from_func(func).ops[0], SM_90A)


def test_the_model_keeps_discardable_attributes_from_ir_to_ir() -> None:
    module = _planned_module()
    func = get_func(module, "ugraph")
    for op in list(func.body.block.ops)[:-1]:  # func.return is no op of the model
        op.attributes["test.note"] = StringAttr("kept")
    back = func_from_graph("ugraph", graph_from_func(func))

    def attributes(f: FuncOp) -> list[tuple[str, dict[str, Attribute]]]:
        return [(o.name, dict(o.attributes)) for o in f.body.walk()]

    assert attributes(back) == attributes(func)  # the plan's too, on every block op
    assert any("mirage.tile" in a for _, a in attributes(back))
    notes = [op.attributes.get("test.note") for op in back.body.block.ops]
    assert notes[:-1] == [StringAttr("kept")] * (len(notes) - 1)
