"""Norms as users write them: eps, gain and bias on rms_norm, eps on the last-dim mean
accumulators. Their meaning (float evaluator), finite-field verification, abstract
expressions, degree bounds and the search's vocabulary."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import parse_module
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.soundness import analyze
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.pruning.exprs import AbstractExprs
from mirage.passes.superoptimize.vocabulary import vocabulary_of

NORM = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.rms_norm %x affine(%g, %b : tensor<1x64xf32>, tensor<1x64xf32>) eps EPS : tensor<8x64xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""  # noqa: E501

# x * rsqrt(mean(x^2) + eps) * g + b, as the importer saw it before rms_norm had an eps.
SPELLED = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<8x64xf32> {
  %s = kernel.square %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %r = kernel.reduce_sum %s dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %m = kernel.mul_scalar %r, 1.562500e-02 : tensor<8x1xf32> -> tensor<8x1xf32>
  %e = kernel.constant EPS : tensor<1x1xf32>
  %a = kernel.add %m, %e : tensor<8x1xf32>, tensor<1x1xf32> -> tensor<8x1xf32>
  %q = kernel.rsqrt %a : tensor<8x1xf32> -> tensor<8x1xf32>
  %n = kernel.mul %x, %q : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  %h = kernel.mul %g, %n : tensor<1x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %y = kernel.add %h, %b : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""

# The same norm across a loop of 4 iterations: accum_rms_last with the eps, the gain and
# bias after it.
LOOPED = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.graph(%x, %g, %b) grid [1, 1, 1] block [128, 1, 1] forloop 4
      : (tensor<8x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32> {
  ^bb0(%X: tensor<8x64xf32>, %G: tensor<1x64xf32>, %B: tensor<1x64xf32>):
    %acc:4 = block.for_loop : tensor<8x1xf32>, tensor<8x64xf32>, tensor<1x64xf32>, tensor<1x64xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x64xf32> -> tensor<8x16xf32>
      %w = block.input %X imap [-1, -1, -1] : tensor<8x64xf32> -> tensor<8x64xf32>
      %gt = block.input %G imap [-1, -1, -1] : tensor<1x64xf32> -> tensor<1x64xf32>
      %bt = block.input %B imap [-1, -1, -1] : tensor<1x64xf32> -> tensor<1x64xf32>
      %r = block.accum_rms_last %t eps EPS : tensor<8x16xf32> -> tensor<8x1xf32>
      %v = block.accum_max %w : tensor<8x64xf32> -> tensor<8x64xf32>
      %gm = block.accum_max %gt : tensor<1x64xf32> -> tensor<1x64xf32>
      %bm = block.accum_max %bt : tensor<1x64xf32> -> tensor<1x64xf32>
      block.yield %r, %v, %gm, %bm : tensor<8x1xf32>, tensor<8x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>
    }
    %n = thread.fuse(%acc#1, %acc#0, %acc#2, %acc#3) : (tensor<8x64xf32>, tensor<8x1xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32> {
    ^bb1(%p: f32, %q: f32, %u: f32, %c: f32):
      %d = thread.div %p, %q : f32
      %m = thread.mul %d, %u : f32
      %o = thread.add %m, %c : f32
      thread.yield %o : f32
    }
    %o = block.output %n omap [-1, -1, -1] : tensor<8x64xf32> -> tensor<8x64xf32>
    block.return %o : tensor<8x64xf32>
  }
  func.return %y : tensor<8x64xf32>
}
"""  # noqa: E501


def _graph(text: str, eps: str = "1.0e-05") -> Graph:
    module = parse_module(text.replace("EPS", eps))
    func = next(iter(module.ops))
    return graph_from_func(func)  # type: ignore[arg-type]


def _inputs(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.uniform(-1, 1, (8, 64)),
        rng.uniform(0.5, 1.5, (1, 64)),
        rng.uniform(-1, 1, (1, 64)),
    ]


def _want(x: np.ndarray, g: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g + b


@pytest.mark.parametrize("text", [NORM, SPELLED, LOOPED], ids=["op", "spelled", "looped"])
def test_norm_with_eps_gain_and_bias_evaluates_as_torch_defines_it(text: str) -> None:
    # An eps of 0.5 is large beside mean(x^2) ~ 1/3, so a missing or misplaced one shows.
    graph = _graph(text, "0.5")
    x, g, b = _inputs()
    (got,) = evaluate(graph, [x, g, b], FloatDomain(np.float64))
    assert np.allclose(got, _want(x, g, b, 0.5), rtol=1e-12, atol=1e-12)


def test_accum_mean_last_adds_eps_to_the_mean() -> None:
    text = """
    func.func @f(%x: tensor<4x32xf32>) -> tensor<4x1xf32> {
      %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2
          : (tensor<4x32xf32>) -> tensor<4x1xf32> {
      ^bb0(%X: tensor<4x32xf32>):
        %a = block.for_loop : tensor<4x1xf32> {
          %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<4x32xf32> -> tensor<4x16xf32>
          %m = block.accum_mean_last %t eps 0.25 : tensor<4x16xf32> -> tensor<4x1xf32>
          block.yield %m : tensor<4x1xf32>
        }
        %o = block.output %a omap [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
        block.return %o : tensor<4x1xf32>
      }
      func.return %y : tensor<4x1xf32>
    }"""
    x = np.random.default_rng(3).uniform(-1, 1, (4, 32))
    (got,) = evaluate(_graph(text), [x], FloatDomain(np.float64))
    assert np.allclose(got, x.mean(-1, keepdims=True) + 0.25)


@pytest.mark.parametrize("candidate", [NORM, LOOPED], ids=["op", "looped"])
def test_verifier_proves_the_spelled_norm_equal_and_tells_eps_apart(candidate: str) -> None:
    reference = _graph(SPELLED)
    assert Verifier(reference).verify(_graph(candidate)).equivalent
    # A different eps is a different program, and the finite-field test sees it.
    assert not Verifier(reference).verify(_graph(candidate, "1.0e-06")).equivalent


def test_abstract_expression_counts_gain_and_bias_not_eps() -> None:
    with_all = str(AbstractExprs.of(_graph(NORM)).outputs[0])
    plain = """
    func.func @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %y = kernel.rms_norm %x eps 1.0e-05 : tensor<8x64xf32> -> tensor<8x64xf32>
      func.return %y : tensor<8x64xf32>
    }"""
    bare = str(AbstractExprs.of(_graph(plain)).outputs[0])
    # eps is a constant, not part of the abstraction (as mul_scalar's factor is not)
    assert bare == "div(arg0, sqrt(sum(64, mul(arg0, arg0))))"
    assert with_all == f"add(mul({bare}, arg1), arg2)"
    looped = str(AbstractExprs.of(_graph(LOOPED)).outputs[0])
    assert "sqrt(sum(64, mul(arg0, arg0)))" in looped


def test_degree_bound_counts_the_affine_operands() -> None:
    facts = analyze(_graph(NORM))
    bare = analyze(_graph(NORM.replace("affine(%g, %b : tensor<1x64xf32>, tensor<1x64xf32>) ", "")))
    (deg,) = facts.outputs
    (bare_deg,) = bare.outputs
    assert deg.num > bare_deg.num  # the gain multiplies, the bias adds over the root


def test_vocabulary_offers_the_programs_eps_and_the_gain_and_bias_ops() -> None:
    vocab = vocabulary_of(_graph(NORM))
    assert vocab.norm_eps == (1e-05,)
    assert {"mul", "add", "div"} <= set(vocab.binary)
    assert (("eps", 1e-05),) in vocab.eps_variants("accum_rms_last")
    assert vocab.eps_variants("accum_sum") == [()]
