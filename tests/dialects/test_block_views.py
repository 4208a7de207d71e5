"""block.input / block.output with strided views: the verifier's checks, the reference
evaluator's meaning, and the strides a chain of reshapes and transposes composes to."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from conftest import get_func, parse_module
from mirage.dialects import shapes
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.strides import (
    check_view,
    reshaped_strides,
    row_major,
    store_view,
    transposed,
    view_of,
)
from mirage.dialects.ugraph.from_ir import graph_from_func

VIEWS = Path(__file__).resolve().parents[1] / "lowering" / "data" / "views.mlir"

PROGRAM = """
func.func @f(%x: tensor<8x64xf32>, %w: tensor<96x64xf32>) -> tensor<8x96xf32> {
  %y = kernel.graph(%x, %w) grid [8, 6, 1] block [128, 1, 1] forloop 4 : (tensor<8x64xf32>, tensor<96x64xf32>) -> tensor<8x96xf32> {
  ^bb0(%gx: tensor<8x64xf32>, %gw: tensor<96x64xf32>):
    %acc = block.for_loop : tensor<1x16xf32> {
      %xt = block.input %gx imap [0, -1, -1] forloop_dim 1 : tensor<8x64xf32> -> tensor<1x16xf32>
      %wt = block.input %gw imap [-1, 1, -1] forloop_dim 0 VIEW : tensor<96x64xf32> -> tensor<16x16xf32>
      %p = block.matmul %xt, %wt : tensor<1x16xf32>, tensor<16x16xf32> -> tensor<1x16xf32>
      %a = block.accum_sum %p : tensor<1x16xf32> -> tensor<1x16xf32>
      block.yield %a : tensor<1x16xf32>
    }
    %o = block.output %acc omap [0, 1, -1] : tensor<1x16xf32> -> tensor<8x96xf32>
    block.return %o : tensor<8x96xf32>
  }
  func.return %y : tensor<8x96xf32>
}
"""  # noqa: E501


def _verify(view: str) -> None:
    get_func(parse_module(PROGRAM.replace("VIEW", view)), "f").verify()


def test_a_transposed_view_verifies() -> None:
    _verify("view [64, 96] strides [1, 64]")


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ("view [64, 96]", "needs both view and strides"),
        ("strides [1, 64]", "needs both view and strides"),
        ("view [64, 96] strides [1]", "has 2 dims but 1 strides"),
        # a view of part of the tensor is a window (an input may read one): within it
        ("view [64, 96] strides [1, 64] offset 1", "reaches element 6144, past the 6144"),
        ("view [64, 96] strides [1, 1]", "do not visit every element"),
        ("view [64, 96] strides [2, 64]", "do not visit every element"),
        ("view [96, 64] strides [64, 1]", "does not split evenly into 6 parts"),
        ("", "does not split evenly into 6 parts"),
    ],
)
def test_bad_views_are_rejected(view: str, message: str) -> None:
    with pytest.raises(VerifyException, match=message):
        _verify(view)


def test_the_evaluator_reads_and_writes_through_views() -> None:
    module = parse_module(VIEWS.read_text())
    rng = np.random.default_rng(0)
    f = graph_from_func(get_func(module, "transposed_weight"))
    x, w, b = (rng.uniform(-1, 1, t.shape) for t in f.args)
    (got,) = evaluate(f, [x, w, b], FloatDomain(np.float64))
    assert np.allclose(got, x @ w.T, rtol=1e-12)
    attn = graph_from_func(get_func(module, "head_split_attention"))
    q, k, v = (rng.uniform(-1, 1, t.shape) for t in attn.args)
    (got,) = evaluate(attn, [q, k, v], FloatDomain(np.float64))
    heads = [a.reshape(2, 16, 4, 16).transpose(0, 2, 1, 3) for a in (q, k, v)]
    s = heads[0] @ heads[1].transpose(0, 1, 3, 2) * 0.25
    p = np.exp(s - s.max(-1, keepdims=True))
    o = (p / p.sum(-1, keepdims=True)) @ heads[2]
    assert np.allclose(got, o.transpose(0, 2, 1, 3).reshape(2, 16, 64), rtol=1e-10)


def test_strides_of_reshape_and_transpose_chains() -> None:
    a = np.arange(2 * 16 * 64).reshape(2, 16, 64)
    split = reshaped_strides((2, 16, 64), row_major((2, 16, 64)), (2, 16, 4, 16))
    assert split == (1024, 64, 16, 1)
    assert split is not None
    shape, strides = transposed((2, 16, 4, 16), split, (0, 2, 1, 3))
    assert strides == (1024, 16, 64, 1)
    check_view((2, 16, 64), shape, strides, "q")
    heads = a.reshape(2, 16, 4, 16).transpose(0, 2, 1, 3)
    assert (view_of(a, shape, strides) == heads).all()
    assert (store_view(heads, (2, 16, 64), strides) == a).all()
    # batch and heads are not adjacent in storage: no strides merge them
    assert reshaped_strides(shape, strides, (8, 16, 16)) is None
    assert reshaped_strides((64,), (1,), (1, 64)) is not None
    with pytest.raises(shapes.ShapeError, match="do not visit"):
        check_view((2, 16, 64), shape, (1024, 16, 16, 1), "q")
