"""Shared pytest fixtures: the context with our dialects, parsing helpers, GPU detection."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from mirage.tools.registry import make_context

if TYPE_CHECKING:
    from mirage.dialects.hardware import Target
    from mirage.dialects.ugraph.graph import Op
    from mirage.lowering.optimize.plan import Plan

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def ctx() -> Context:
    return make_context()


def parse_module(text: str, ctx: Context | None = None) -> ModuleOp:
    module = Parser(ctx or make_context(), text).parse_module()
    module.verify()
    return module


def get_func(module: ModuleOp, name: str) -> FuncOp:
    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == name:
            return op
    raise KeyError(name)


def plan_op(op: Op, target: Target, **options: Any) -> Plan:
    """The plan of graph op `op` (`options`: the planner's keyword arguments: stages,
    loads, matmuls)."""
    from mirage.lowering.optimize.plan import plan_graph_op

    assert op.body is not None
    return plan_graph_op(
        op.body,
        op.ints_attr("grid"),
        op.ints_attr("block"),
        op.int_attr("forloop_range"),
        target,
        **options,
    )


def plan_function(
    path: Path, func: str, target: Target, *, kernel: int = -1, **options: Any
) -> Plan:
    """The plan of graph op `kernel` of function `func` in `path`."""
    from mirage.dialects.ugraph.from_ir import graph_from_func

    graph = graph_from_func(get_func(parse_module(path.read_text()), func))
    return plan_op([o for o in graph.ops if o.kind == "graph"][kernel], target, **options)


def _has_gpu() -> bool:
    try:
        from cuda.bindings import driver  # pyright: ignore[reportMissingImports]

        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return False
        err, count = driver.cuDeviceGetCount()
        return err == driver.CUresult.CUDA_SUCCESS and count > 0
    except Exception:
        return False


HAS_GPU = _has_gpu()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="no CUDA device found")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
