"""The Python builder: programs in a few lines, equal to their written-out IR."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from conftest import get_func, parse_module
from mirage.dialects.builder import KernelBuilder
from mirage.dialects.opkinds import ELEMENTWISE_KINDS, UNARY_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate_function


def test_rmsnorm_linear_in_five_lines() -> None:
    b = KernelBuilder()
    x = b.input((16, 4096), "f16")
    w = b.input((4096, 6144), "f16")
    b.output(b.matmul(b.rms_norm(x), w))
    module = b.build("rmsnorm_linear")
    written = parse_module(
        """func.func @rmsnorm_linear(%0: tensor<16x4096xf16>, %1: tensor<4096x6144xf16>)
            -> tensor<16x6144xf16> {
          %2 = kernel.rms_norm %0 : tensor<16x4096xf16> -> tensor<16x4096xf16>
          %3 = kernel.matmul %2, %1 : tensor<16x4096xf16>, tensor<4096x6144xf16>
            -> tensor<16x6144xf16>
          func.return %3 : tensor<16x6144xf16>
        }"""
    )
    assert str(module) == str(written)


def test_every_kind_has_a_builder_method() -> None:
    for kind in ELEMENTWISE_KINDS:
        assert callable(getattr(KernelBuilder, kind)), kind


def test_attention_with_scalars_and_layout_ops() -> None:
    b = KernelBuilder()
    q = b.input((2, 8, 16), "f32", name="q")
    k = b.input((2, 32, 16), "f32", name="k")
    v = b.input((2, 32, 16), "f32", name="v")
    s = b.exp(b.mul(b.matmul(q, b.transpose(k, (0, 2, 1))), 0.25))
    o = b.matmul(b.div(s, b.reduce_sum(s, 2)), v)
    b.output(b.reshape(b.add(o, 1e-3), (16, 16)))
    func = get_func(b.build("attention"), "attention")
    names = [op.name for op in func.body.block.ops]
    assert "kernel.mul_scalar" in names and "kernel.constant" in names
    rng = np.random.default_rng(0)
    qa, ka, va = (rng.uniform(-1, 1, (2, n, 16)) for n in (8, 32, 32))
    (got,) = evaluate_function(func, [qa, ka, va], FloatDomain())
    e = np.exp(qa @ ka.transpose(0, 2, 1) * 0.25)
    want = ((e / e.sum(2, keepdims=True)) @ va + 1e-3).reshape(16, 16)
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("kind", [k.name for k in UNARY_KINDS])
def test_unary_methods_build_their_kind(kind: str) -> None:
    b = KernelBuilder()
    x = b.input((4, 8), "bf16")
    b.output(getattr(b, kind)(x, dtype="f32"))
    func = b.function("f")
    assert isinstance(func, FuncOp)
    op = func.body.block.first_op
    assert op is not None and op.name == f"kernel.{kind}"
    assert str(op.results[0].type) == "tensor<4x8xf32>"


def test_bad_shapes_and_missing_outputs_are_refused() -> None:
    b = KernelBuilder()
    x = b.input((4, 8), "f16")
    with pytest.raises(ValueError, match="matmul contraction dims differ"):
        b.matmul(x, x)
    with pytest.raises(ValueError, match="no outputs"):
        b.build()
