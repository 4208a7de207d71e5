"""An epilogue operand: a block.input after the loop (forloop_dim -1), read once per block.
y = x @ w + b as one launch whose loop walks k, against numpy; its IR round trip; the
verifier proves it equal to the program and tells it from the bias added in the loop."""

from __future__ import annotations

import numpy as np
import pytest
from dialect_programs import only_func, run_text

from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.pruning import AbstractExprs
from mirage.passes.pruning.expr_annotation import variable_names

M, K, N = 8, 32, 16


def _linear_bias(loops: int, grid: int, bias_in_loop: bool = False) -> str:
    """x @ w + b with the loop walking k (`loops` iterations) and the grid cutting n; the
    bias read after the loop, or (wrongly, for loops > 1) added in every iteration."""
    nt, kt = N // grid, K // loops
    bias = f"%bt = block.input %B imap [1, -1, -1] : tensor<1x{N}xf32> -> tensor<1x{nt}xf32>"
    if bias_in_loop:
        in_loop = f"""
      {bias}
      %q = block.add %p, %bt : tensor<{M}x{nt}xf32>, tensor<1x{nt}xf32> -> tensor<{M}x{nt}xf32>
      %s = block.accum_sum %q : tensor<{M}x{nt}xf32> -> tensor<{M}x{nt}xf32>"""
        post = ""
        result = "%acc"
    else:
        in_loop = f"""
      %s = block.accum_sum %p : tensor<{M}x{nt}xf32> -> tensor<{M}x{nt}xf32>"""
        post = f"""{bias}
    %r = block.add %acc, %bt : tensor<{M}x{nt}xf32>, tensor<1x{nt}xf32> -> tensor<{M}x{nt}xf32>"""
        result = "%r"
    return f"""
func.func @f(%x: tensor<{M}x{K}xf32>, %w: tensor<{K}x{N}xf32>, %b: tensor<1x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %y = kernel.graph(%x, %w, %b) grid [{grid}, 1, 1] block [128, 1, 1] forloop {loops} : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>, tensor<1x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  ^bb0(%X: tensor<{M}x{K}xf32>, %W: tensor<{K}x{N}xf32>, %B: tensor<1x{N}xf32>):
    %acc = block.for_loop : tensor<{M}x{nt}xf32> {{
      %xt = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<{M}x{K}xf32> -> tensor<{M}x{kt}xf32>
      %wt = block.input %W imap [1, -1, -1] forloop_dim 0 : tensor<{K}x{N}xf32> -> tensor<{kt}x{nt}xf32>
      %p = block.matmul %xt, %wt : tensor<{M}x{kt}xf32>, tensor<{kt}x{nt}xf32> -> tensor<{M}x{nt}xf32>{in_loop}
      block.yield %s : tensor<{M}x{nt}xf32>
    }}
    {post}
    %o = block.output {result} omap [1, -1, -1] : tensor<{M}x{nt}xf32> -> tensor<{M}x{N}xf32>
    block.return %o : tensor<{M}x{N}xf32>
  }}
  func.return %y : tensor<{M}x{N}xf32>
}}
"""  # noqa: E501


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s) for s in ((M, K), (K, N), (1, N))]


@pytest.mark.parametrize(("loops", "grid"), [(1, 1), (4, 1), (4, 2), (2, 4)])
def test_epilogue_input_evaluates_like_numpy(loops: int, grid: int) -> None:
    x, w, b = _inputs()
    (got,) = run_text(_linear_bias(loops, grid), [x, w, b])
    np.testing.assert_allclose(got, x @ w + b, rtol=1e-12, atol=1e-12)
    # added in the loop instead, the bias counts once per iteration
    (in_loop,) = run_text(_linear_bias(loops, grid, bias_in_loop=True), [x, w, b])
    np.testing.assert_allclose(in_loop, x @ w + loops * b, rtol=1e-12, atol=1e-12)


def test_epilogue_input_stays_after_the_loop_through_the_model() -> None:
    graph = graph_from_func(only_func(_linear_bias(4, 2)))
    (launch,) = graph.ops
    body = launch.body
    assert body is not None
    kinds = [op.kind for op in body.ops]
    assert kinds == ["input", "input", "matmul", "accum_sum", "input", "add", "output"]
    assert body.loop_end == 4
    again = graph_from_func(func_from_graph("f", graph))
    assert again == graph
    func_from_graph("f", graph).verify()


def _program() -> Graph:
    x, w, b = (TensorType(s, "f32") for s in ((M, K), (K, N), (1, N)))
    y = TensorType((M, N), "f32")
    ops = (make_op("matmul", [0, 1], [y]), make_op("add", [3, 2], [y]))
    return Graph((x, w, b), ops, (4,))


def test_verifier_tells_the_epilogue_form_from_the_bias_added_in_the_loop() -> None:
    verifier = Verifier(_program())
    verdict = verifier.verify(graph_from_func(only_func(_linear_bias(4, 2))))
    assert verdict.equivalent and verdict.sound, verdict
    once = verifier.verify(graph_from_func(only_func(_linear_bias(1, 2, bias_in_loop=True))))
    assert once.equivalent, once  # one iteration: adding in the loop is adding once
    wrong = verifier.verify(graph_from_func(only_func(_linear_bias(4, 2, bias_in_loop=True))))
    assert not wrong.equivalent, wrong


def test_abstract_expressions_add_the_bias_once_after_the_loop() -> None:
    names = variable_names(["x", "w", "b"])

    def result(graph: Graph) -> str:
        return str(list(AbstractExprs.of(graph, names=names).results())[-1][1])

    want = result(_program())
    assert want == "add(sum(32, mul(x, w)), b)"
    assert result(graph_from_func(only_func(_linear_bias(4, 2)))) == want
    in_loop = result(graph_from_func(only_func(_linear_bias(4, 2, bias_in_loop=True))))
    assert in_loop == "sum(4, add(sum(8, mul(x, w)), b))"
