"""Dimension typing: a candidate computes with the program's dims."""

from __future__ import annotations

import pytest
from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.passes.superoptimize.dims import DimMismatch, DimTypes


def _gated_mlp(b: KernelBuilder) -> None:
    x, w1, w2 = b.input((8, 32)), b.input((32, 48)), b.input((32, 48))
    b.output(b.mul(b.silu(b.matmul(x, w1)), b.matmul(x, w2)))


def test_program_dims_unify_and_reduce() -> None:
    t = DimTypes(build(_gated_mlp))
    (_, k), (k1, n1), (k2, n2) = t.args
    assert t.root(k) == t.root(k1) == t.root(k2)
    assert t.root(n1) == t.root(n2)  # silu(X W1) * (X W2) aligns the two output dims
    assert t.reduced == frozenset({t.root(k)})


def test_candidate_ops_follow_the_program_dims() -> None:
    t = DimTypes(build(_gated_mlp))
    x, w1, w2 = t.args
    assert t.infer("matmul", {}, [x, w1], [(8, 32), (32, 48)], (8, 48)) == (x[0], w1[1])
    with pytest.raises(DimMismatch):  # contracts W1's output dim with W2's input dim
        t.infer("matmul", {}, [w1, w2], [(32, 48), (32, 48)], (32, 48))
    with pytest.raises(DimMismatch):  # sums over rows, which the program never does
        t.infer("reduce_sum", {"dim": 0}, [x], [(8, 32)], (1, 32))
    with pytest.raises(DimMismatch):  # a reduction of an extent-1 dim is a no-op
        t.infer("reduce_sum", {"dim": 1}, [(x[0], None)], [(8, 1)], (8, 1))


def test_partial_results_take_linear_ops_and_sums_only() -> None:
    t = DimTypes(build(_gated_mlp))
    x = t.args[0]
    p = t.partial_var(16)
    parts = (x[0], p)  # four partials of 16 side by side
    with pytest.raises(DimMismatch):
        t.infer("exp", {}, [parts], [(8, 64)], (8, 64))
    assert t.infer("reduce_sum", {"dim": 1, "size": 16}, [parts], [(8, 64)], (8, 16)) == (
        x[0],
        None,
    )
    with pytest.raises(DimMismatch):  # 12 does not divide the partials' extent
        t.infer("reduce_sum", {"dim": 1, "size": 12}, [parts], [(8, 60)], (8, 12))
    with pytest.raises(DimMismatch):
        t.infer("mul", {}, [parts, parts], [(8, 64), (8, 64)], (8, 64))
    assert t.infer("mul_scalar", {"scalar": 0.5}, [parts], [(8, 64)], (8, 64)) == parts


GAINED_NORM = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %y = kernel.rms_norm %x affine(%g, %b : tensor<1x64xf32>, tensor<1x64xf32>) eps 1.0e-05 : tensor<8x64xf32> -> tensor<8x64xf32>
  %z = kernel.matmul %y, %w : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
  func.return %z : tensor<8x32xf32>
}
"""  # noqa: E501


def test_a_norms_gain_and_bias_take_the_dims_of_what_it_normalizes() -> None:
    from xdsl.dialects.func import FuncOp

    from conftest import parse_module
    from mirage.dialects.ugraph.from_ir import graph_from_func

    module = parse_module(GAINED_NORM)
    t = DimTypes(graph_from_func(next(op for op in module.ops if isinstance(op, FuncOp))))
    x, g, b, w = t.args
    assert t.root(x[1]) == t.root(g[1]) == t.root(b[1]) == t.root(w[0])
    # the gain applied to x before the contraction, the norm's division after it (the one
    # launch of an RMSNorm with its gain and a linear, the loop over the normalized dim)
    assert t.infer("mul", {}, [x, g], [(8, 64), (1, 64)], (8, 64)) == x
    assert t.infer("rms_norm", {}, [x, g], [(8, 64), (1, 64)], (8, 64)) == x
    with pytest.raises(DimMismatch):  # a gain along w's output dim, which x never meets
        t.infer("rms_norm", {}, [x, (None, w[1])], [(8, 64), (1, 64)], (8, 64))
