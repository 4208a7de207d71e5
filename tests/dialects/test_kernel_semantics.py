"""Kernel-level ops, parsed from IR text and evaluated, against direct numpy."""

from __future__ import annotations

import numpy as np
import pytest
from dialect_programs import (
    POSITIVE_ONLY,
    REFERENCE,
    Array,
    Shape,
    only_func,
    run_text,
    sample,
    tensor,
)

from mirage.dialects import block, kernel, thread
from mirage.dialects.opkinds import BINARY_KINDS, ELEMENTWISE_KINDS, UNARY_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.semantics.evaluate import EvaluationError
from mirage.dialects.ugraph.from_ir import graph_from_func

UNARY = [k.name for k in UNARY_KINDS]
BINARY = [k.name for k in BINARY_KINDS]


def test_reference_covers_every_kind() -> None:
    assert set(REFERENCE) == set(ELEMENTWISE_KINDS)


@pytest.mark.parametrize("module", [kernel, block, thread], ids=lambda m: m.__name__)
def test_every_kind_is_an_op_at_every_level(module: object) -> None:
    ops = module.ELEMENTWISE_OPS  # type: ignore[attr-defined]
    assert set(ops) == set(ELEMENTWISE_KINDS)
    level = module.__name__.rsplit(".", 1)[-1]  # type: ignore[attr-defined]
    for kind, cls in ops.items():
        assert cls.name == f"{level}.{kind}"


def test_arities_match_the_table() -> None:
    for name, kind in ELEMENTWISE_KINDS.items():
        assert (name in UNARY) == (kind.arity == 1)
        assert (name in BINARY) == (kind.arity == 2)


def _unary_text(kind: str, shape: Shape) -> str:
    t = tensor(shape)
    return f"""
func.func @f(%x: {t}) -> {t} {{
  %y = kernel.{kind} %x : {t} -> {t}
  func.return %y : {t}
}}"""


def _binary_text(kind: str, a: Shape, b: Shape) -> str:
    out = tuple(np.broadcast_shapes(a, b))
    return f"""
func.func @f(%a: {tensor(a)}, %b: {tensor(b)}) -> {tensor(out)} {{
  %y = kernel.{kind} %a, %b : {tensor(a)}, {tensor(b)} -> {tensor(out)}
  func.return %y : {tensor(out)}
}}"""


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4)])
@pytest.mark.parametrize("kind", UNARY)
def test_unary(kind: str, shape: Shape) -> None:
    rng = np.random.default_rng(1)
    x = sample(rng, shape, positive=kind in POSITIVE_ONLY)
    (y,) = run_text(_unary_text(kind, shape), [x])
    assert y.shape == shape
    np.testing.assert_allclose(y, REFERENCE[kind](x), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    ("a", "b"),
    [((3, 5), (3, 5)), ((4, 1), (1, 6)), ((2, 1, 4), (2, 3, 1)), ((1,), (5,)), ((5, 2), (1, 1))],
)
@pytest.mark.parametrize("kind", BINARY)
def test_binary_broadcasting(kind: str, a: Shape, b: Shape) -> None:
    rng = np.random.default_rng(2)
    positive = kind in POSITIVE_ONLY
    x, y = sample(rng, a, positive), sample(rng, b, positive)
    (z,) = run_text(_binary_text(kind, a, b), [x, y])
    want = REFERENCE[kind](np.broadcast_to(x, z.shape), np.broadcast_to(y, z.shape))
    assert z.shape == tuple(np.broadcast_shapes(a, b))
    np.testing.assert_allclose(z, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ((4, 8), (8, 3)),
        ((2, 4, 8), (2, 8, 3)),
        ((2, 4, 8), (1, 8, 3)),
        ((1, 3, 4, 5), (2, 1, 5, 2)),
        ((1, 1), (1, 1)),
    ],
)
def test_matmul_with_batch_dims(a: Shape, b: Shape) -> None:
    out = (*np.broadcast_shapes(a[:-2], b[:-2]), a[-2], b[-1])
    text = f"""
func.func @f(%a: {tensor(a)}, %b: {tensor(b)}) -> {tensor(out)} {{
  %y = kernel.matmul %a, %b : {tensor(a)}, {tensor(b)} -> {tensor(out)}
  func.return %y : {tensor(out)}
}}"""
    rng = np.random.default_rng(3)
    x, y = sample(rng, a), sample(rng, b)
    (z,) = run_text(text, [x, y])
    want = np.zeros(out)
    xb = np.broadcast_to(x, (*out[:-2], *a[-2:]))
    yb = np.broadcast_to(y, (*out[:-2], *b[-2:]))
    for k in range(a[-1]):
        want += xb[..., :, k : k + 1] * yb[..., k : k + 1, :]
    np.testing.assert_allclose(z, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scalar", ["0.5", "-3.25", "0.0", "1.0e-03", "0.1"])
def test_mul_scalar(scalar: str) -> None:
    t = tensor((3, 4))
    text = f"""
func.func @f(%x: {t}) -> {t} {{
  %y = kernel.mul_scalar %x, {scalar} : {t} -> {t}
  func.return %y : {t}
}}"""
    x = sample(np.random.default_rng(4), (3, 4))
    (y,) = run_text(text, [x])
    np.testing.assert_array_equal(y, x * float(scalar))


@pytest.mark.parametrize(
    ("form", "scalar", "numpy_op"),
    [("add_scalar", "1.0", np.add), ("sub_scalar", "0.1", np.subtract),
     ("div_scalar", "3.0", np.divide), ("pow_scalar", "3.0", np.power)],
)  # fmt: skip
def test_immediate_forms(form: str, scalar: str, numpy_op: np.ufunc) -> None:
    # x <op> c, c the property, is the binary op with a constant operand, bit for bit
    t, c = tensor((3, 4)), tensor((1, 1))
    binary = form.removesuffix("_scalar")
    text = f"""
func.func @f(%x: {t}) -> ({t}, {t}) {{
  %y = kernel.{form} %x, {scalar} : {t} -> {t}
  %c = kernel.constant {scalar} : {c}
  %z = kernel.{binary} %x, %c : {t}, {c} -> {t}
  func.return %y, %z : {t}, {t}
}}"""
    x = sample(np.random.default_rng(5), (3, 4))
    y, z = run_text(text, [x])
    np.testing.assert_array_equal(y, numpy_op(x, float(scalar)))
    np.testing.assert_array_equal(y, z)


def _reduce_reference(x: Array, dim: int, size: int, kind: str) -> Array:
    """Element j of the result combines elements j, j+size, j+2*size, ... of the operand."""
    n = x.shape[dim]
    parts = []
    for j in range(size):
        picked = np.take(x, list(range(j, n, size)), axis=dim)
        acc = picked.sum(axis=dim) if kind == "sum" else picked.max(axis=dim)
        parts.append(acc)
    return np.stack(parts, axis=dim)


@pytest.mark.parametrize("kind", ["sum", "max"])
@pytest.mark.parametrize(
    ("shape", "dim", "size"),
    [
        ((4, 6, 8), 0, 1),
        ((4, 6, 8), 1, 2),
        ((4, 6, 8), 1, 3),
        ((4, 6, 8), 2, 4),
        ((4, 6, 8), 2, 8),
        ((12,), 0, 6),
        ((3, 1), 1, 1),
    ],
)
def test_reduce(kind: str, shape: Shape, dim: int, size: int) -> None:
    out = tuple(size if d == dim else n for d, n in enumerate(shape))
    size_text = f" size {size}" if size != 1 else ""
    text = f"""
func.func @f(%x: {tensor(shape)}) -> {tensor(out)} {{
  %y = kernel.reduce_{kind} %x dim {dim}{size_text} : {tensor(shape)} -> {tensor(out)}
  func.return %y : {tensor(out)}
}}"""
    x = sample(np.random.default_rng(5), shape)
    (y,) = run_text(text, [x])
    np.testing.assert_allclose(y, _reduce_reference(x, dim, size, kind), rtol=1e-12)


@pytest.mark.parametrize("shape", [(5,), (3, 8), (2, 3, 4), (4, 1)])
def test_rms_norm(shape: Shape) -> None:
    text = f"""
func.func @f(%x: {tensor(shape)}) -> {tensor(shape)} {{
  %y = kernel.rms_norm %x : {tensor(shape)} -> {tensor(shape)}
  func.return %y : {tensor(shape)}
}}"""
    x = sample(np.random.default_rng(6), shape)
    (y,) = run_text(text, [x])
    n = shape[-1]
    rms = np.sqrt((x * x).sum(axis=-1, keepdims=True) / n)
    np.testing.assert_allclose(y, x / rms, rtol=1e-12)


@pytest.mark.parametrize(
    ("shapes", "dim"),
    [
        ([(2, 3), (2, 5)], 1),
        ([(1, 4), (3, 4), (2, 4)], 0),
        ([(2, 1, 3), (2, 2, 3)], 1),
        ([(2, 2, 3), (2, 2, 1)], 2),
    ],
)
def test_concat(shapes: list[Shape], dim: int) -> None:
    out = list(shapes[0])
    out[dim] = sum(s[dim] for s in shapes)
    names = ", ".join(f"%a{i}" for i in range(len(shapes)))
    args = ", ".join(f"%a{i}: {tensor(s)}" for i, s in enumerate(shapes))
    types = ", ".join(tensor(s) for s in shapes)
    text = f"""
func.func @f({args}) -> {tensor(out)} {{
  %y = kernel.concat {names} dim {dim} : {types} -> {tensor(out)}
  func.return %y : {tensor(out)}
}}"""
    rng = np.random.default_rng(7)
    xs = [sample(rng, s) for s in shapes]
    (y,) = run_text(text, xs)
    # Written with slicing rather than np.concatenate.
    offset = 0
    for x in xs:
        index = [slice(None)] * len(out)
        index[dim] = slice(offset, offset + x.shape[dim])
        np.testing.assert_array_equal(y[tuple(index)], x)
        offset += x.shape[dim]
    assert offset == y.shape[dim]


CHAIN = """
func.func @chain(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %v: tensor<4x8xf32>)
    -> (tensor<4x2xf32>, tensor<4x8xf32>) {
  %n = kernel.rms_norm %x : tensor<4x16xf32> -> tensor<4x16xf32>
  %m = kernel.matmul %n, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %s = kernel.silu %m : tensor<4x8xf32> -> tensor<4x8xf32>
  %g = kernel.mul %s, %v : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = kernel.reduce_max %g dim 1 size 2 : tensor<4x8xf32> -> tensor<4x2xf32>
  %h = kernel.mul_scalar %g, 0.5 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %r, %h : tensor<4x2xf32>, tensor<4x8xf32>
}
"""


def _chain_reference(x: Array, w: Array, v: Array) -> tuple[Array, Array]:
    n = x / np.sqrt((x * x).mean(axis=-1, keepdims=True))
    g = REFERENCE["silu"](n @ w) * v
    return _reduce_reference(g, 1, 2, "max"), g * 0.5


def test_chain_of_ops() -> None:
    rng = np.random.default_rng(8)
    x, w, v = sample(rng, (4, 16)), sample(rng, (16, 8)), sample(rng, (4, 8))
    r, h = run_text(CHAIN, [x, w, v])
    want_r, want_h = _chain_reference(x, w, v)
    np.testing.assert_allclose(r, want_r, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(h, want_h, rtol=1e-12, atol=1e-12)


def test_float32_domain() -> None:
    rng = np.random.default_rng(9)
    x, w, v = sample(rng, (4, 16)), sample(rng, (16, 8)), sample(rng, (4, 8))
    r32, h32 = run_text(CHAIN, [x, w, v], FloatDomain(np.float32))
    assert r32.dtype == np.float32 and h32.dtype == np.float32
    want_r, want_h = _chain_reference(x, w, v)
    np.testing.assert_allclose(r32, want_r, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h32, want_h, rtol=1e-5, atol=1e-6)


def test_evaluate_checks_its_inputs() -> None:
    graph = graph_from_func(only_func(CHAIN))
    dom = FloatDomain()
    x = np.ones((4, 16))
    with pytest.raises(EvaluationError, match="expected 3 inputs, got 1"):
        evaluate(graph, [x], dom)
    with pytest.raises(EvaluationError, match=r"input 1 has shape \(8, 16\)"):
        evaluate(graph, [x, np.ones((8, 16)), np.ones((4, 8))], dom)
