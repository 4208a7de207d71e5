"""convert-linalg-to-kernel and convert-kernel-to-linalg without PyTorch: every kind and
kernel op survives the round trip, every fixture round-trips to equal values, the matcher
recognizes computations by value, and errors name their op."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from linalg.programs import Fixture, fixtures, random_inputs, rel_error
from linalg.test_fixtures import function, import_fixture, shapes_of
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.opkinds import BINARY_KINDS, ELEMENTWISE_KINDS, UNARY_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.passes.linalg.constants import module_text
from mirage.passes.linalg.conversion_errors import ConversionError
from mirage.passes.linalg.scalar_match import find_combiner, match_region, match_rms_norm
from mirage.passes.linalg.term_graph import TermGraph
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.passes.linalg.to_linalg import SCALAR_BODIES, ConvertKernelToLinalgPass
from mirage.tools.from_torch import parse_linalg
from mirage.tools.registry import make_context


def round_trip(module: ModuleOp) -> ModuleOp:
    """kernel -> linalg -> (generic text) -> kernel."""
    ctx = make_context()
    ConvertKernelToLinalgPass().apply(ctx, module)
    module.verify()
    assert "kernel." not in str(module)
    again = parse_linalg(module_text(module))
    ConvertLinalgToKernelPass().apply(ctx, again)
    again.verify()
    return again


def kernel_ops(func: FuncOp) -> list[str]:
    return [op.name.removeprefix("kernel.") for op in func.body.block.ops][:-1]


def evaluate(func: FuncOp, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(0.3, 1.0, s) for s in shapes_of(func)]
    return evaluate_function(func, inputs, FloatDomain())


def test_every_kind_has_a_linalg_body() -> None:
    assert set(SCALAR_BODIES) == set(ELEMENTWISE_KINDS)


@pytest.mark.parametrize("kind", [k.name for k in UNARY_KINDS])
def test_unary_kind_round_trips_to_itself(kind: str) -> None:
    text = f"""func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf32> {{
      %y = kernel.{kind} %x : tensor<4x8xf16> -> tensor<4x8xf32>
      func.return %y : tensor<4x8xf32>
    }}"""
    back = function(round_trip(parse_module(text)), "f")
    assert kernel_ops(back) == [kind]


@pytest.mark.parametrize("kind", [k.name for k in BINARY_KINDS])
def test_binary_kind_round_trips_to_itself(kind: str) -> None:
    text = f"""func.func @f(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<4x8xf32> {{
      %z = kernel.{kind} %x, %y : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
      func.return %z : tensor<4x8xf32>
    }}"""
    back = function(round_trip(parse_module(text)), "f")
    assert kernel_ops(back) == ([kind] if kind != "sub" else ["sub"])


PROGRAMS = {
    "reduce_size": """func.func @f(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
      %y = kernel.reduce_sum %x dim 1 size 2 : tensor<4x8xf32> -> tensor<4x2xf32>
      func.return %y : tensor<4x2xf32>
    }""",
    "rms_concat": """func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x3xf32>) -> tensor<4x11xf32> {
      %n = kernel.rms_norm %x : tensor<4x8xf32> -> tensor<4x8xf32>
      %c = kernel.concat %n, %y dim 1 : tensor<4x8xf32>, tensor<4x3xf32> -> tensor<4x11xf32>
      func.return %c : tensor<4x11xf32>
    }""",
    "layout": """func.func @f(%x: tensor<2x4x8xf32>, %w: tensor<6x8xf16>) -> tensor<8x6xf32> {
      %eps = kernel.constant 0.5 : tensor<1x1x1xf32>
      %a = kernel.add %x, %eps : tensor<2x4x8xf32>, tensor<1x1x1xf32> -> tensor<2x4x8xf32>
      %r = kernel.reshape %a : tensor<2x4x8xf32> -> tensor<8x8xf32>
      %wt = kernel.transpose %w permutation [1, 0] : tensor<6x8xf16> -> tensor<8x6xf16>
      %y = kernel.matmul %r, %wt : tensor<8x8xf32>, tensor<8x6xf16> -> tensor<8x6xf32>
      %s = kernel.mul_scalar %y, -2.0 : tensor<8x6xf32> -> tensor<8x6xf32>
      %m = kernel.reduce_max %s dim 0 : tensor<8x6xf32> -> tensor<1x6xf32>
      %d = kernel.sub %s, %m : tensor<8x6xf32>, tensor<1x6xf32> -> tensor<8x6xf32>
      func.return %d : tensor<8x6xf32>
    }""",
    "batched_broadcast_matmul": """
    func.func @f(%a: tensor<3x4x8xf32>, %b: tensor<1x8x5xf32>) -> tensor<3x4x5xf32> {
      %y = kernel.matmul %a, %b : tensor<3x4x8xf32>, tensor<1x8x5xf32> -> tensor<3x4x5xf32>
      func.return %y : tensor<3x4x5xf32>
    }""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_kernel_ops_round_trip_to_equal_values(name: str) -> None:
    original = function(parse_module(PROGRAMS[name]), "f")
    want = evaluate(original)
    back = function(round_trip(parse_module(PROGRAMS[name])), "f")
    for g, w in zip(evaluate(back), want, strict=True):
        assert g.shape == w.shape
        assert rel_error(g, w) < 1e-12


@pytest.mark.parametrize("f", [f for f in fixtures() if not f.benchmark_shape], ids=str)
def test_fixtures_round_trip_linalg_kernel_linalg(f: Fixture) -> None:
    """linalg -> kernel -> linalg -> kernel evaluates equal (linalg is evaluated by
    importing it: the importer is the linalg semantics this project has)."""
    first = import_fixture(f)
    entry = function(first, f.name)
    name = f.name + "_kernel" if f.consts else f.name
    kernel = function(first, name)
    inputs = random_inputs(shapes_of(kernel), seed=5)
    want = evaluate_function(kernel, inputs, FloatDomain())
    again = round_trip(first)
    got = evaluate_function(function(again, name), inputs, FloatDomain())
    # linalg bodies hold scalars in the element type: 1/40 becomes the nearest f32
    assert rel_error(got[0], want[0]) < 1e-7
    del entry


def test_graph_has_no_linalg_form() -> None:
    from conftest import FIXTURES

    module = parse_module((FIXTURES / "rmsnorm_linear_small.mlir").read_text())
    with pytest.raises(ConversionError, match=r"'kernel.graph' op is a superoptimized kernel"):
        ConvertKernelToLinalgPass().apply(make_context(), module)


# --- the matcher -----------------------------------------------------------------------


def _graph() -> tuple[TermGraph, int, int]:
    g = TermGraph()
    return g, g.arg(0, (4, 8), "f32"), g.arg(1, (4, 8), "f32")


def test_relu_min_and_clamp_are_recognized_through_select() -> None:
    g, x, y = _graph()
    zero = g.const(0.0, 2, "f32")
    relu = g.ew("select", [g.ew("cmp_gt", [x, zero], "i1"), x, zero], "f32")
    assert match_region(g, relu).kind == "relu"  # type: ignore[union-attr]
    mn = g.ew("select", [g.ew("cmp_lt", [x, y], "i1"), x, y], "f32")
    m = match_region(g, mn)
    assert m is not None and m.kind == "min" and m.operands == (x, y)
    half = g.const(0.5, 2, "f32")
    clamp = g.ew("select", [g.ew("cmp_lt", [x, half], "i1"), half, x], "f32")
    m = match_region(g, clamp)
    assert m is not None and (m.kind, m.operands, m.const) == ("max", (x, None), 0.5)


def test_epsilon_is_not_mistaken_for_identity() -> None:
    g, x, _ = _graph()
    eps = g.const(1e-6, 2, "f32")
    m = match_region(g, g.ew("add", [x, eps], "f32"))
    assert m is not None and m.kind == "add" and m.const == pytest.approx(1e-6)


def test_silu_spelled_two_ways() -> None:
    g, x, _ = _graph()
    one = g.const(1.0, 2, "f32")
    sig = g.ew(
        "div",
        [one, g.ew("add", [g.ew("exp", [g.ew("neg", [x], "f32")], "f32"), one], "f32")],
        "f32",
    )
    assert match_region(g, g.ew("mul", [x, sig], "f32")).kind == "silu"  # type: ignore[union-attr]
    tanh_form = g.ew(
        "mul",
        [
            g.ew("mul", [x, g.const(0.5, 2, "f32")], "f32"),
            g.ew(
                "add",
                [one, g.ew("tanh", [g.ew("mul", [x, g.const(0.5, 2, "f32")], "f32")], "f32")],
                "f32",
            ),
        ],
        "f32",
    )
    assert match_region(g, tanh_form).kind == "silu"  # type: ignore[union-attr]


def test_reduction_combiners() -> None:
    g, x, _ = _graph()
    out = g.arg(9, (1, 1), "f32")
    assert find_combiner(g, g.ew("add", [out, g.ew("exp", [x], "f32")], "f32"), out) == (
        "sum",
        g.ew("exp", [x], "f32"),
    )
    assert find_combiner(g, g.ew("max", [x, out], "f32"), out) == ("max", x)
    assert find_combiner(g, g.ew("mul", [x, out], "f32"), out) is None


def test_error_names_the_op() -> None:
    text = """#id = affine_map<(d0) -> (d0)>
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %r = math.log %in : f32
        linalg.yield %r : f32
      } -> tensor<4xf32>
      return %y : tensor<4xf32>
    }"""
    module = parse_linalg(text)
    before = str(module)
    with pytest.raises(ConversionError) as info:
        ConvertLinalgToKernelPass().apply(make_context(), module)
    assert info.value.op is not None and info.value.op.name == "math.log"
    assert str(module) == before  # nothing converted


def test_missing_torch_gives_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from mirage.tools import from_torch

    monkeypatch.setitem(sys.modules, "torch_mlir", None)
    with pytest.raises(from_torch.MissingTorchError, match=r"pip install 'mirage-xdsl\[torch\]'"):
        from_torch.import_module(lambda x: x, [])


def test_rms_norm_is_recognized_however_spelled() -> None:
    g, x, _ = _graph()
    sq = g.ew("mul", [x, x], "f32")
    total = g.reduce("sum", sq, [1], (4, 8), "f32")
    n = g.const(8.0, 2, "f32")
    by_rsqrt = g.ew("mul", [x, g.ew("rsqrt", [g.ew("div", [total, n], "f32")], "f32")], "f32")
    by_sqrt = g.ew(
        "div",
        [x, g.ew("sqrt", [g.ew("mul", [total, g.const(0.125, 2, "f32")], "f32")], "f32")],
        "f32",
    )
    assert match_rms_norm(g, by_rsqrt) == x
    assert match_rms_norm(g, by_sqrt) == x
    eps = g.ew("add", [g.ew("div", [total, n], "f32"), g.const(1e-6, 2, "f32")], "f32")
    assert match_rms_norm(g, g.ew("mul", [x, g.ew("rsqrt", [eps], "f32")], "f32")) is None
    over_rows = g.reduce("sum", sq, [0], (4, 8), "f32")
    rows = g.ew(
        "mul",
        [x, g.ew("rsqrt", [g.ew("div", [over_rows, g.const(4.0, 2, "f32")], "f32")], "f32")],
        "f32",
    )
    assert match_rms_norm(g, rows) is None


WIDENED_PRODUCT = """
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>, %w: tensor<8x6xf16>) -> tensor<4x6xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e16 = tensor.empty() : tensor<4x8xf16>
  %p = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e16 : tensor<4x8xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %m = arith.mulf %x, %y : f16
    linalg.yield %m : f16
  } -> tensor<4x8xf16>
  %e32 = tensor.empty() : tensor<4x8xf32>
  %pw = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<4x8xf16>) outs(%e32 : tensor<4x8xf32>) {
  ^bb0(%x: f16, %o: f32):
    %m = arith.extf %x : f16 to f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %w32e = tensor.empty() : tensor<8x6xf32>
  %ww = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x6xf16>) outs(%w32e : tensor<8x6xf32>) {
  ^bb0(%x: f16, %o: f32):
    %m = arith.extf %x : f16 to f32
    linalg.yield %m : f32
  } -> tensor<8x6xf32>
  %acc0 = tensor.empty() : tensor<4x6xf32>
  %acc = linalg.fill ins(%cst : f32) outs(%acc0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = linalg.matmul ins(%pw, %ww : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return %y : tensor<4x6xf32>
}
"""  # noqa: E501


def test_a_widened_half_precision_product_keeps_its_stored_type() -> None:
    # torch's export widens both f16 operands of a matmul to f32; the product keeps the
    # type it is stored in (and the matmul reads f16, on tensor cores)
    module = parse_linalg(WIDENED_PRODUCT)
    ConvertLinalgToKernelPass().apply(make_context(), module)
    entry = function(module, "f")
    assert kernel_ops(entry) == ["mul", "matmul"]
    mul, matmul = list(entry.body.block.ops)[:2]
    assert "f16" in str(mul.results[0].type)
    assert all("f16" in str(o.type) for o in matmul.operands)
