"""The importer recognizes norms as PyTorch users write them (RMSNorm with eps and gain,
T5's norm, F.rms_norm, nn.LayerNorm, F.layer_norm, a hand-written LayerNorm in any operand
order) as one kernel.rms_norm, and merges ops that come out the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from linalg.programs import rel_error
from xdsl.dialects.func import FuncOp

from mirage.dialects import kernel
from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.passes.linalg.scalar_match import match_norm
from mirage.passes.linalg.term_graph import TermGraph
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.tools.from_torch import parse_linalg
from mirage.tools.registry import make_context

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"


def _import(text: str) -> FuncOp:
    module = parse_linalg(text)
    ConvertLinalgToKernelPass().apply(make_context(), module)
    module.verify()
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return func


def _ops(func: FuncOp, cls: type) -> list[kernel.RmsNormOp]:
    return [op for op in func.body.block.ops if isinstance(op, cls)]  # type: ignore[misc]


def _rms(x: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, -1, keepdims=True) + eps)


def _ln(x: np.ndarray, eps: float) -> np.ndarray:
    c = x - x.mean(-1, keepdims=True)
    return c / np.sqrt(np.mean(c * c, -1, keepdims=True) + eps)


# corpus file -> (eps, affine operands, centered, numpy reference of (x, *params))
NORMS = {
    "rmsnorm_small": (1e-6, 1, False, lambda x, g: _rms(x, 1e-6) * g),
    "t5_norm_small": (1e-6, 1, False, lambda x, g: _rms(x, 1e-6) * g),
    "layernorm_small": (1e-5, 2, True, lambda x, g, b: _ln(x, 1e-5) * g + b),
    "f_layer_norm_small": (1e-5, 2, True, lambda x, g, b: _ln(x, 1e-5) * g + b),
    "layernorm_handwritten_small": (1e-5, 2, True, lambda x, g, b: _ln(x, 1e-5) * g + b),
}


@pytest.mark.parametrize("stem", sorted(NORMS))
def test_exported_norm_is_one_rms_norm_with_eps_and_affine(stem: str) -> None:
    eps, affine, centered, reference = NORMS[stem]
    func = _import((CORPUS / f"{stem}.mlir").read_text())
    (norm,) = _ops(func, kernel.RmsNormOp)
    assert norm.epsilon == pytest.approx(eps, rel=1e-6)
    assert len(norm.affine) == affine
    # The mean is computed once: torch's f64 statistics merge with their f32 twins.
    assert len(_ops(func, kernel.ReduceSumOp)) == (1 if centered else 0)
    rng = np.random.default_rng(0)
    shapes = [tuple(a.type.get_shape()) for a in func.body.block.args]  # type: ignore[attr-defined]
    inputs = [rng.uniform(-1.0, 1.0, s) for s in shapes]
    (got,) = evaluate_function(func, inputs, FloatDomain())
    assert rel_error(got, reference(*inputs)) < 1e-6  # eps was rounded to f32


def test_rms_norm_before_a_linear_layer_keeps_its_gain_and_eps() -> None:
    func = _import((CORPUS / "f_rms_norm_linear_small.mlir").read_text())
    (norm,) = _ops(func, kernel.RmsNormOp)
    assert norm.epsilon == pytest.approx(1e-5, rel=1e-6)
    assert len(norm.affine) == 1
    assert len(_ops(func, kernel.MatmulOp)) == 1


def _graph() -> tuple[TermGraph, int, int, int]:
    g = TermGraph()
    return g, g.arg(0, (4, 8), "f32"), g.arg(1, (1, 8), "f32"), g.arg(2, (1, 8), "f32")


def _stats(g: TermGraph, x: int, centered: bool, eps: float) -> tuple[int, int]:
    """(the value normed, rsqrt(mean(it^2) + eps))."""
    if centered:
        mean = g.ew("div", [g.reduce("sum", x, [1], (4, 8), "f32"), g.const(8.0, 2, "f32")], "f32")
        x = g.ew("sub", [x, mean], "f32")
    sq = g.reduce("sum", g.ew("mul", [x, x], "f32"), [1], (4, 8), "f32")
    var = g.ew("mul", [sq, g.const(0.125, 2, "f32")], "f32")
    return x, g.ew("rsqrt", [g.ew("add", [g.const(eps, 2, "f32"), var], "f32")], "f32")


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("order", range(4))
def test_norm_is_recognized_in_any_operand_order(centered: bool, order: int) -> None:
    g, x, w, b = _graph()
    c, r = _stats(g, x, centered, 0.5)
    spellings = [
        lambda: g.ew("add", [g.ew("mul", [g.ew("mul", [c, r], "f32"), w], "f32"), b], "f32"),
        lambda: g.ew("add", [b, g.ew("mul", [w, g.ew("mul", [r, c], "f32")], "f32")], "f32"),
        lambda: g.ew("add", [g.ew("mul", [g.ew("mul", [c, w], "f32"), r], "f32"), b], "f32"),
        lambda: g.ew(
            "add",
            [g.ew("div", [g.ew("mul", [w, c], "f32"), g.ew("sqrt", [r], "f32")], "f32"), b],
            "f32",
        ),
    ]
    root = spellings[order]()
    m = match_norm(g, root)
    if order == 3:  # divides by sqrt(rsqrt(...)): not a norm
        assert m is None
        return
    assert m is not None
    assert (m.x, m.centered, m.gain, m.bias, m.eps) == (x, centered, w, b, 0.5)


def test_norm_without_gain_or_with_a_non_constant_eps() -> None:
    g, x, w, _ = _graph()
    c, r = _stats(g, x, False, 0.0)
    m = match_norm(g, g.ew("mul", [c, r], "f32"))
    assert m is not None and (m.gain, m.bias, m.eps) == (None, None, 0.0)
    # mean(x^2) + w is no eps: w varies
    sq = g.reduce("sum", g.ew("mul", [x, x], "f32"), [1], (4, 8), "f32")
    var = g.ew("div", [sq, g.const(8.0, 2, "f32")], "f32")
    odd = g.ew("mul", [x, g.ew("rsqrt", [g.ew("add", [var, w], "f32")], "f32")], "f32")
    assert match_norm(g, odd) is None


DUPLICATED = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @f(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
    %cst = arith.constant 0.0 : f32
    %cst64 = arith.constant 0.0 : f64
    %e32 = tensor.empty() : tensor<4x1xf32>
    %z32 = linalg.fill ins(%cst : f32) outs(%e32 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %s32 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z32 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %out : f32
      linalg.yield %a : f32
    } -> tensor<4x1xf32>
    %e64 = tensor.empty() : tensor<4x1xf64>
    %z64 = linalg.fill ins(%cst64 : f64) outs(%e64 : tensor<4x1xf64>) -> tensor<4x1xf64>
    %s64 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z64 : tensor<4x1xf64>) {
    ^bb0(%in: f32, %out: f64):
      %w = arith.extf %in : f32 to f64
      %a = arith.addf %w, %out : f64
      linalg.yield %a : f64
    } -> tensor<4x1xf64>
    %t = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%s32, %s64 : tensor<4x1xf32>, tensor<4x1xf64>) outs(%e32 : tensor<4x1xf32>) {
    ^bb0(%a: f32, %b: f64, %out: f32):
      %bt = arith.truncf %b : f64 to f32
      %m = arith.subf %a, %bt : f32
      %n = arith.addf %m, %a : f32
      linalg.yield %n : f32
    } -> tensor<4x1xf32>
    return %t : tensor<4x1xf32>
  }
}
"""  # noqa: E501


def test_the_same_op_twice_is_imported_once() -> None:
    """A sum in f32 and the same sum in f64 (as torch's layer_norm statistics) are one
    kernel op: the kernel dialect computes both in f32."""
    func = _import(DUPLICATED)
    assert len(_ops(func, kernel.ReduceSumOp)) == 1
    x = np.random.default_rng(1).uniform(-1, 1, (4, 8))
    (got,) = evaluate_function(func, [x], FloatDomain())
    assert np.allclose(got, x.sum(-1, keepdims=True))


AFFINE = """
func.func @f(%x: tensor<4x8xf32>, %g: tensor<1x8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %n = kernel.rms_norm %x affine(%g, %b : tensor<1x8xf32>, tensor<1x8xf32>) eps 0.25 : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return %n : tensor<4x8xf32>
}
"""  # noqa: E501


def test_norm_with_eps_and_affine_round_trips_through_linalg() -> None:
    from linalg.test_convert import round_trip
    from linalg.test_fixtures import function

    from conftest import parse_module

    original = function(parse_module(AFFINE), "f")
    back = function(round_trip(parse_module(AFFINE)), "f")
    (norm,) = _ops(back, kernel.RmsNormOp)
    assert norm.epsilon == 0.25 and len(norm.affine) == 2
    rng = np.random.default_rng(4)
    inputs = [rng.uniform(-1, 1, (4, 8)), rng.uniform(-1, 1, (1, 8)), rng.uniform(-1, 1, (1, 8))]
    (want,) = evaluate_function(original, inputs, FloatDomain())
    (got,) = evaluate_function(back, inputs, FloatDomain())
    assert rel_error(got, want) < 1e-12
