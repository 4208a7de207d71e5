"""Shared memory and cost of μGraphs, computed on the model."""

from __future__ import annotations

import pytest
from xdsl.dialects.func import FuncOp

from conftest import FIXTURES, parse_module
from mirage.dialects.hardware import SM_80, SM_90
from mirage.dialects.kernel import GraphOp
from mirage.dialects.smem import peak_shared_memory as ir_peak
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.superoptimize.cost import kernel_lower_bound, op_cost, program_cost
from mirage.passes.superoptimize.resources import check_fit, peak_shared_memory

FIXTURE_NAMES = ("rmsnorm_linear", "rmsnorm_linear_small", "attention", "attention_small")


def _funcs(name: str) -> dict[str, FuncOp]:
    module = parse_module((FIXTURES / f"{name}.mlir").read_text())
    return {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_model_shared_memory_is_the_verifiers(name: str) -> None:
    func = _funcs(name)["ugraph"]
    model_ops = [op for op in graph_from_func(func).ops if op.kind == "graph"]
    ir_ops = [op for op in func.body.block.ops if isinstance(op, GraphOp)]
    assert len(model_ops) == len(ir_ops) > 0
    for m, i in zip(model_ops, ir_ops, strict=True):
        assert m.body is not None
        assert peak_shared_memory(m.body) == ir_peak(i)


def test_shared_memory_limit_depends_on_the_target() -> None:
    graph = graph_from_func(_funcs("attention")["ugraph"])
    first = graph.ops[0]  # 181248 bytes: over sm_80's 163 KB, under sm_90's 227 KB
    assert first.body is not None and peak_shared_memory(first.body) == 181248
    assert check_fit(first, SM_90).ok
    fit = check_fit(first, SM_80)
    assert not fit.ok and "shared memory" in fit.reason


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fused_ugraph_is_cheaper_than_the_program(name: str) -> None:
    funcs = _funcs(name)
    program = program_cost(graph_from_func(funcs["program"]), SM_90)
    fused = program_cost(graph_from_func(funcs["ugraph"]), SM_90)
    assert fused.seconds < program.seconds
    assert len(program.kernels) == len(graph_from_func(funcs["program"]).ops)
    # every kernel costs at least a launch, and more than its bytes at full bandwidth
    graph = graph_from_func(funcs["ugraph"])
    for op, k in zip(graph.ops, fused.kernels, strict=True):
        assert k.seconds >= SM_90.launch_seconds
        assert k.seconds >= kernel_lower_bound(k.dram_bytes, SM_90) * (1 - 1e-12)
        assert op_cost(op, [graph.type_of(v) for v in op.operands], SM_90) == k


def test_sm80_is_slower_than_sm90() -> None:
    graph = graph_from_func(_funcs("rmsnorm_linear")["program"])
    assert program_cost(graph, SM_80).seconds > program_cost(graph, SM_90).seconds
