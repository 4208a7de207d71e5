"""The verifier API: fixtures verify, counterexamples reproduce, shared prefixes are not
recomputed, zero denominators and unstable rewrites are handled."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.semantics import evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.passes.equivalence.stability import StabilityOptions
from mirage.passes.equivalence.verifier import (
    ReferenceFingerprint,
    VerificationError,
    Verifier,
    VerifierOptions,
    draw_inputs,
)

T = TensorType((4, 8), "f32")


def _load(name: str) -> tuple[Graph, Graph]:
    module = parse_module((FIXTURES / name).read_text())
    return graph_from_func(get_func(module, "program")), graph_from_func(get_func(module, "ugraph"))


@pytest.mark.parametrize("name", ["rmsnorm_linear_small.mlir", "attention_small.mlir"])
def test_small_fixtures_verify(name: str) -> None:
    program, ugraph = _load(name)
    verdict = Verifier(program).verify(ugraph)
    assert verdict.equivalent and verdict.sound, verdict
    assert verdict.error_bound <= 1e-12
    assert verdict.tests == verdict.bound.tests_for(1e-12)
    assert str(verdict).startswith("equivalent (")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rmsnorm_linear.mlir", "attention.mlir"])
def test_benchmark_fixtures_verify(name: str) -> None:
    program, ugraph = _load(name)
    verdict = Verifier(program).verify(ugraph)
    assert verdict.equivalent and verdict.sound, verdict
    assert verdict.error_bound <= 1e-12


def _program(*ops: tuple[str, list[int]], args: int = 2) -> Graph:
    return Graph((T,) * args, tuple(make_op(k, o, [T]) for k, o in ops), (args + len(ops) - 1,))


def test_counterexample_reproduces_from_its_seed() -> None:
    reference = _program(("div", [0, 1]))
    candidate = _program(("div", [1, 0]))
    verdict = Verifier(reference).verify(candidate)
    assert not verdict.equivalent
    cx = verdict.counterexample
    assert cx is not None and cx.output == 0
    domain, inputs = draw_inputs(reference, cx.seed)
    (want,) = evaluate(reference, inputs, domain)
    (got,) = evaluate(candidate, inputs, domain)
    same = want.same_as(got)
    assert not same[cx.index]
    assert same.ravel()[: int(np.ravel_multi_index(cx.index, T.shape))].all()
    assert str(verdict).startswith(f"not equivalent: output 0 differs at index {list(cx.index)}")


def test_shared_prefixes_are_not_recomputed() -> None:
    reference = _program(("mul", [0, 1]), ("exp", [2]), ("add", [3, 0]))
    verifier = Verifier(reference)
    cache = verifier.fingerprint.cache
    samples = verifier.fingerprint.float_samples()
    misses = cache.misses
    # Same first two ops as the reference: only the last op is evaluated, once per random
    # test and once per float32 sample.
    candidate = _program(("mul", [0, 1]), ("exp", [2]), ("add", [0, 3]))
    verdict = verifier.verify(candidate)
    assert verdict.equivalent
    assert cache.misses - misses == verdict.tests + len(samples)
    misses = cache.misses
    assert verifier.verify(candidate).equivalent
    assert cache.misses == misses


def test_zero_denominators() -> None:
    reference = _program(("mul", [0, 1]))
    zero = _program(("sub", [0, 0]), ("div", [1, 2]))
    verdict = Verifier(reference).verify(zero)
    assert not verdict.equivalent and "zero denominator" in verdict.reason
    with pytest.raises(VerificationError, match="divides by zero"):
        Verifier(zero)


def test_signature_mismatch() -> None:
    reference = _program(("mul", [0, 1]))
    other = Graph((T, TensorType((8, 4), "f32")), (make_op("exp", [0], [T]),), (2,))
    verdict = Verifier(reference).verify(other)
    assert not verdict.equivalent and "argument shapes" in verdict.reason


def test_unsound_ops_are_reported() -> None:
    reference = _program(("relu", [0]), ("mul", [2, 1]))
    candidate = _program(("relu", [0]), ("mul", [1, 2]))
    verdict = Verifier(reference).verify(candidate)
    assert verdict.equivalent and not verdict.sound
    assert verdict.unsound_ops == ("relu",)
    assert str(verdict).startswith("equivalent, unsound ops: relu (")


def _variance(stable: bool) -> Graph:
    x, col = TensorType((4, 64), "f32"), TensorType((4, 1), "f32")

    if stable:  # mean((x - mean x)^2)
        ops = [
            make_op("reduce_sum", [0], [col], dim=1, size=1),  # 1
            make_op("mul_scalar", [1], [col], scalar=1 / 64),  # 2: mean x
            make_op("sub", [0, 2], [x]),  # 3
            make_op("square", [3], [x]),  # 4
            make_op("reduce_sum", [4], [col], dim=1, size=1),  # 5
            make_op("mul_scalar", [5], [col], scalar=1 / 64),  # 6
        ]
        return Graph((x,), tuple(ops), (6,))
    ops = [  # mean(x^2) - mean(x)^2
        make_op("square", [0], [x]),  # 1
        make_op("reduce_sum", [1], [col], dim=1, size=1),  # 2
        make_op("mul_scalar", [2], [col], scalar=1 / 64),  # 3
        make_op("reduce_sum", [0], [col], dim=1, size=1),  # 4
        make_op("mul_scalar", [4], [col], scalar=1 / 64),  # 5
        make_op("square", [5], [col]),  # 6
        make_op("sub", [3, 6], [col]),  # 7
    ]
    return Graph((x,), tuple(ops), (7,))


def test_unstable_rewrites_are_rejected() -> None:
    stable, unstable = _variance(True), _variance(False)
    verdict = Verifier(stable).verify(unstable)
    assert not verdict.equivalent and verdict.reason.startswith("numerically unstable")
    assert verdict.float32_drift is not None and verdict.reference_float32_drift is not None
    assert verdict.float32_drift > 1024 * np.finfo(np.float32).eps > verdict.reference_float32_drift
    # The exact part alone proves them equal.
    assert Verifier(stable, VerifierOptions(stability=None)).verify(unstable).equivalent
    # With inputs near zero there is no cancellation to see.
    calm = VerifierOptions(stability=StabilityOptions(offset=0.0))
    assert Verifier(stable, calm).verify(unstable).equivalent


def test_a_tighter_bound_runs_more_tests() -> None:
    reference = _program(("mul", [0, 1]), ("exp", [2]))
    loose = Verifier(reference, VerifierOptions(error_bound=1e-6)).verify(reference)
    tight = Verifier(reference, VerifierOptions(error_bound=1e-30)).verify(reference)
    assert loose.tests < tight.tests
    assert loose.error_bound <= 1e-6 and tight.error_bound <= 1e-30


def test_fingerprint_is_reusable_and_seeded() -> None:
    reference = _program(("add", [0, 1]), ("exp", [2]))
    fp = ReferenceFingerprint(reference, VerifierOptions(seed=7))
    a, b = Verifier(fp), Verifier(fp)
    assert a.fingerprint is b.fingerprint
    candidate = _program(("exp", [0]), ("exp", [1]), ("mul", [2, 3]))
    assert a.verify(candidate).equivalent and b.verify(candidate).equivalent
    other = ReferenceFingerprint(reference, VerifierOptions(seed=8))
    assert [t.seed for t in fp.tests] != [t.seed for t in other.tests]


def test_candidates_undefined_where_the_reference_is_defined_are_rejected() -> None:
    # sqrt(x) - sqrt(x) = 0 = x - x wherever sqrt is defined; in floats it is NaN for x < 0.
    reference = _program(("sub", [0, 0]), args=1)
    candidate = _program(("sqrt", [0]), ("sub", [1, 1]), args=1)
    assert Verifier(reference, VerifierOptions(stability=None)).verify(candidate)
    verdict = Verifier(reference).verify(candidate)
    assert not verdict.equivalent
    assert "is not finite at output 0" in verdict.reason
    # The other way round is fine: the candidate is defined wherever the reference is.
    assert Verifier(candidate).verify(reference)


def test_input_products_are_reused_and_change_nothing() -> None:
    program, ugraph = _load("rmsnorm_linear_small.mlir")
    with_products = Verifier(program)
    verdict = with_products.verify(ugraph)
    assert verdict.equivalent
    # The block matmul of every test contracted back into the whole X @ W.
    reused = [with_products.fingerprint.drawn(t)[0].reused for t in with_products.fingerprint.tests]
    assert all(r >= 1 for r in reused), reused
    assert with_products.fingerprint.f32.reused >= 1
    without = Verifier(program, VerifierOptions(input_products=False))
    assert without.verify(ugraph).equivalent
    assert all(without.fingerprint.drawn(t)[0].reused == 0 for t in without.fingerprint.tests)


C = TensorType((1, 1), "f32")


def _with_constant(binary: str, value: float, first: bool = False) -> Graph:
    """x <binary> c (c <binary> x with `first`), c a kernel.constant."""
    ops = (
        make_op("constant", [], [C], value=value),
        make_op(binary, [1, 0] if first else [0, 1], [T]),
    )
    return Graph((T,), ops, (2,))


def _immediate(form: str, value: float) -> Graph:
    return Graph((T,), (make_op(form, [0], [T], scalar=value),), (1,))


@pytest.mark.parametrize("form", ["add_scalar", "sub_scalar", "div_scalar", "pow_scalar"])
@pytest.mark.parametrize("value", [2.0, 0.1, 0.044714998453855515, -3.5])
def test_an_immediate_form_is_its_binary_kind_with_a_constant_operand(
    form: str, value: float
) -> None:
    binary = form.removesuffix("_scalar")
    if binary == "pow" and value != 2.0:
        value = 3.0  # the stand-in of pow agrees with x ** c for integral exponents only
    verdict = Verifier(_with_constant(binary, value)).verify(_immediate(form, value))
    assert verdict.equivalent, verdict
    assert verdict.sound == (binary != "pow"), verdict


@pytest.mark.parametrize("form", ["add_scalar", "sub_scalar", "div_scalar"])
def test_an_immediate_constant_is_exact_in_the_field(form: str) -> None:
    # A non-integer constant is its exact binary rational mod P: a constant one unit in
    # the last place away is another program, and c - x is not x - c.
    binary = form.removesuffix("_scalar")
    value = 0.044714998453855515
    near = float(np.nextafter(value, 1.0))
    assert not Verifier(_with_constant(binary, value)).verify(_immediate(form, near)).equivalent
    if binary != "add":
        reversed_ = _with_constant(binary, value, first=True)
        assert not Verifier(reversed_).verify(_immediate(form, value)).equivalent


def test_x_minus_c_is_x_plus_minus_c() -> None:
    verdict = Verifier(_with_constant("sub", 0.1)).verify(_immediate("add_scalar", -0.1))
    assert verdict.equivalent and verdict.sound, verdict


def test_large_draws_are_the_same_on_any_number_of_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    from mirage.passes.equivalence import verifier
    from mirage.passes.equivalence.field import P

    monkeypatch.setattr(verifier, "DRAW_CHUNK", 1000)
    shape = (37, 101)  # four chunks, the last one short
    draws = []
    for threads in (1, 3, 8):
        monkeypatch.setattr(verifier, "MAX_DRAW_THREADS", threads)
        monkeypatch.setattr(verifier, "usable_cpus", lambda: 8)
        draws.append(verifier.uniform_residues(np.random.default_rng(11), shape, P))
    first = draws[0]
    assert all(np.array_equal(first, d) for d in draws[1:])
    assert first.shape == shape and first.dtype == np.float64
    assert (first >= 0).all() and (first < P).all() and (first == np.floor(first)).all()
    # each chunk a stream of its own: no chunk repeats another, another seed differs
    chunks = first.ravel()[:3000].reshape(3, 1000)
    assert len({c.tobytes() for c in chunks}) == 3
    assert not np.array_equal(first, verifier.uniform_residues(np.random.default_rng(12), shape, P))
    assert abs(first.mean() / P - 0.5) < 0.05
