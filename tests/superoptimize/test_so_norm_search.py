"""The search fuses a norm as users write it (eps and gain) with the matmul after it: the
eps and the gain reach the block level, and the result is verified equal."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.superoptimize.module_pass import SuperoptimizePass
from mirage.tools.registry import make_context

PROGRAM = """
func.func @rn(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %w: tensor<64x96xf32>) -> tensor<8x96xf32> {
  %n = kernel.rms_norm %x affine(%g : tensor<1x64xf32>) eps 0.5 : tensor<8x64xf32> -> tensor<8x64xf32>
  %y = kernel.matmul %n, %w : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  func.return %y : tensor<8x96xf32>
}
"""  # noqa: E501


@pytest.mark.slow
def test_norm_with_eps_and_gain_fuses_with_the_matmul() -> None:
    module = parse_module(PROGRAM)
    before = graph_from_func(next(op for op in module.ops if isinstance(op, FuncOp)))
    SuperoptimizePass(time_budget=30, workers=1).apply(make_context(), module)
    after = graph_from_func(next(op for op in module.ops if isinstance(op, FuncOp)))
    assert [op.kind for op in after.ops] == ["graph"]
    rng = np.random.default_rng(2)
    inputs = [rng.uniform(-1, 1, t.shape) for t in before.args]
    (want,) = evaluate(before, inputs, FloatDomain(np.float64))
    (got,) = evaluate(after, inputs, FloatDomain(np.float64))
    assert np.allclose(got, want, rtol=1e-10, atol=1e-12)
    x, g, w = inputs
    ref = x / np.sqrt(np.mean(x * x, -1, keepdims=True) + 0.5) * g @ w
    assert np.allclose(got, ref, rtol=1e-10, atol=1e-12)
