"""Semantics of kernel.constant, kernel.transpose and kernel.reshape through the one
evaluator, and their round trip through the search model."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f32
from xdsl.dialects.func import FuncOp, ReturnOp

from mirage.dialects import kernel, shapes
from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.to_ir import func_from_graph


def _program() -> FuncOp:
    x_t = TensorType(f32, (2, 3, 4))
    f = FuncOp("layout", ([x_t], [TensorType(f32, (4, 6))]))
    x = f.body.block.args[0]
    c = kernel.ConstantOp(0.5, TensorType(f32, (1, 1, 1)))
    a = kernel.ELEMENTWISE_OPS["add"](x, c)
    t = kernel.TransposeOp(a, [2, 0, 1])
    r = kernel.ReshapeOp(t, TensorType(f32, (4, 6)))
    f.body.block.add_ops([c, a, t, r, ReturnOp(r)])
    f.verify()
    return f


def test_constant_transpose_reshape_semantics() -> None:
    x = np.arange(24.0).reshape(2, 3, 4)
    (got,) = evaluate_function(_program(), [x], FloatDomain())
    np.testing.assert_array_equal(got, (x + 0.5).transpose(2, 0, 1).reshape(4, 6))


def test_round_trip_through_the_model() -> None:
    graph = graph_from_func(_program())
    assert [op.kind for op in graph.ops] == ["constant", "add", "transpose", "reshape"]
    again = graph_from_func(func_from_graph("layout", graph))
    assert again == graph


def test_constant_in_a_domain_of_lower_precision() -> None:
    f = _program()
    x = np.ones((2, 3, 4), dtype=np.float32)
    (got,) = evaluate_function(f, [x], FloatDomain(np.float32))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.full((4, 6), 1.5, dtype=np.float32))


@pytest.mark.parametrize(
    ("shape", "perm", "want"),
    [((2, 3), (1, 0), (3, 2)), ((2, 3, 4), (0, 2, 1), (2, 4, 3)), ((5,), (0,), (5,))],
)
def test_transpose_shape_rule(
    shape: tuple[int, ...], perm: tuple[int, ...], want: tuple[int, ...]
) -> None:
    assert shapes.transpose(shape, perm) == want


def test_shape_rules_reject() -> None:
    with pytest.raises(shapes.ShapeError, match="not a permutation"):
        shapes.transpose((2, 3), (0, 0))
    with pytest.raises(shapes.ShapeError, match="changes the number of elements"):
        shapes.reshape((2, 3), (4, 2))
