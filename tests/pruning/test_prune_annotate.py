"""The annotate-abstract-expr pass."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.utils.exceptions import DiagnosticException

from conftest import FIXTURES, parse_module
from mirage.passes.pruning import AnnotateAbstractExprPass
from mirage.passes.pruning.expr_annotation import ATTRIBUTE, variable_names
from mirage.tools.registry import get_all_passes, make_context


def test_the_pass_is_registered() -> None:
    assert get_all_passes()["annotate-abstract-expr"]() is AnnotateAbstractExprPass


def test_every_op_of_every_level_is_annotated() -> None:
    module = parse_module((FIXTURES / "attention_small.mlir").read_text())
    AnnotateAbstractExprPass().apply(make_context(), module)
    module.verify()
    annotated = {op.name for op in module.walk() if ATTRIBUTE in op.attributes}
    assert annotated >= {
        "kernel.matmul",
        "kernel.exp",
        "kernel.graph",
        "block.input",
        "block.matmul",
        "block.accum_sum",
        "block.accum_sum_last",
        "block.output",
        "block.div",
    }
    unannotated = {op.name for op in module.walk() if ATTRIBUTE not in op.attributes}
    assert unannotated <= {
        "builtin.module",
        "func.func",
        "func.return",
        "block.for_loop",
        "block.yield",
        "block.return",
    }
    graphs = [op for op in module.walk() if op.name == "kernel.graph"]
    two = graphs[0].attributes[ATTRIBUTE]
    assert isinstance(two, ArrayAttr) and len(two.data) == 2
    last = graphs[1].attributes[ATTRIBUTE]
    assert isinstance(last, StringAttr)
    assert last.data == (
        "div(sum(32, mul(exp(sum(4, mul(q, k))), v)), sum(32, exp(sum(4, mul(q, k)))))"
    )


def test_non_ugraph_functions_are_refused() -> None:
    module = parse_module(
        "func.func @f(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32\n  func.return %b : f32\n}"
    )
    with pytest.raises(DiagnosticException, match=r"@f: 'arith\.addf' is not an op"):
        AnnotateAbstractExprPass().apply(make_context(), module)


def test_variable_names() -> None:
    assert variable_names(["x", None, "sum", "x", "0a", "a-b"]) == [
        "x",
        "arg1",
        "v_sum",
        "x_1",
        "v_0a",
        "a_b",
    ]
