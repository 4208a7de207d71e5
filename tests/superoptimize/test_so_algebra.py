"""Norms distributed over the matmuls that read them (`algebra.py`): the product and the
row statistics become sums over the contracted dim, so one loop walks it for all of them
and the norm is applied after the loop."""

from __future__ import annotations

from superoptimize.so_helpers import assert_same_values
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.algebra import distribute_norms
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.passes.superoptimize.search_record import SearchRecord


def _graph(text: str) -> Graph:
    module = parse_module(text)
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return graph_from_func(func)


LAYER_NORM_LINEAR = """
func.func @f(%x: tensor<{r}x{k}xf16>, %g: tensor<1x{k}xf16>, %b: tensor<1x{k}xf16>, %w: tensor<{k}x{n}xf16>, %c: tensor<1x{n}xf16>) -> tensor<{r}x{n}xf16> {{
  %s = kernel.reduce_sum %x dim 1 : tensor<{r}x{k}xf16> -> tensor<{r}x1xf32>
  %m = kernel.mul_scalar %s, {inv} : tensor<{r}x1xf32> -> tensor<{r}x1xf32>
  %d = kernel.sub %x, %m : tensor<{r}x{k}xf16>, tensor<{r}x1xf32> -> tensor<{r}x{k}xf32>
  %n = kernel.rms_norm %d affine(%g, %b : tensor<1x{k}xf16>, tensor<1x{k}xf16>) eps 1.0e-05 : tensor<{r}x{k}xf32> -> tensor<{r}x{k}xf16>
  %y = kernel.matmul %n, %w : tensor<{r}x{k}xf16>, tensor<{k}x{n}xf16> -> tensor<{r}x{n}xf32>
  %z = kernel.add %y, %c : tensor<{r}x{n}xf32>, tensor<1x{n}xf16> -> tensor<{r}x{n}xf16>
  func.return %z : tensor<{r}x{n}xf16>
}}
"""  # noqa: E501

GATED_NORM = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %w1: tensor<64x96xf32>, %w2: tensor<64x96xf32>) -> tensor<8x96xf32> {
  %n = kernel.rms_norm %x eps 1.0e-06 : tensor<8x64xf32> -> tensor<8x64xf32>
  %h = kernel.mul %g, %n : tensor<1x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %a = kernel.matmul %h, %w1 : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  %b = kernel.matmul %h, %w2 : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  %y = kernel.mul %a, %b : tensor<8x96xf32>, tensor<8x96xf32> -> tensor<8x96xf32>
  func.return %y : tensor<8x96xf32>
}
"""  # noqa: E501

NORM_ALSO_OUTPUT = """
func.func @f(%x: tensor<8x64xf32>, %w: tensor<64x96xf32>) -> (tensor<8x96xf32>, tensor<8x64xf32>) {
  %n = kernel.rms_norm %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %y = kernel.matmul %n, %w : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  func.return %y, %n : tensor<8x96xf32>, tensor<8x64xf32>
}
"""


def _layer_norm_linear(r: int, k: int, n: int) -> Graph:
    return _graph(LAYER_NORM_LINEAR.format(r=r, k=k, n=n, inv=1.0 / k))


def test_a_layer_norm_before_a_linear_layer_becomes_sums_over_the_contraction() -> None:
    program = _layer_norm_linear(8, 64, 96)
    out = distribute_norms(program)
    assert out is not None
    kinds = [op.kind for op in out.ops]
    assert "rms_norm" not in kinds and "sub" in kinds
    # the product, the gain's and the bias's rows through the weight
    assert kinds.count("matmul") == 3
    assert_same_values(program, out)


def test_a_norm_read_by_two_matmuls_shares_its_statistics() -> None:
    program = _graph(GATED_NORM)
    out = distribute_norms(program)
    assert out is not None
    kinds = [op.kind for op in out.ops]
    assert kinds.count("sqrt") == 1 and kinds.count("matmul") == 2 and "rms_norm" not in kinds
    assert_same_values(program, out)


def test_a_norm_that_anything_but_matmuls_reads_stays() -> None:
    assert distribute_norms(_graph(NORM_ALSO_OUTPUT)) is None


def test_a_layer_norm_and_its_linear_layer_become_one_launch_walking_the_contraction() -> None:
    # rows of 4096 f16: as written the norm needs each whole row before the first
    # product, and a block holds a few rows beside the weight's tiles at most
    program = _layer_norm_linear(32, 4096, 512)
    record = SearchRecord("layer norm linear")
    options = SearchOptions(time_budget=30.0, workers=1, target=SM_90, keep=1)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    result = Search(program, options, PrunerFactory(None), verifier, record=record).run()
    assert any(c.source == "distributed norms" and c.equivalent for c in record.candidates.values())
    (best,) = result.ranked
    (op,) = best.graph.ops
    assert op.kind == "graph" and op.int_attr("forloop_range") > 1
    assert op.body is not None and "rms_norm" not in [b.kind for b in op.body.ops]
    assert_same_values(program, best.graph)


def test_the_shifted_statistics_pass_the_stability_check_the_plain_ones_fail() -> None:
    # rows of mean 256 and spread 1 (the verifier's offset draws): the mean of squares
    # less the squared mean cancels sixteen bits unless the row is shifted first
    from mirage.passes.equivalence.stability import StabilityOptions, stability_inputs
    from mirage.passes.superoptimize.normalize import normalize

    program = _layer_norm_linear(8, 64, 96)
    distributed = distribute_norms(program)
    assert distributed is not None and "slice" in [op.kind for op in distributed.ops]
    norm = normalize(distributed)
    assert norm is not None
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    assert verifier.verify(norm.restore(norm.program, SM_90)).equivalent
    inputs = stability_inputs(program, StabilityOptions())
    assert inputs[0][0].mean() > 200
