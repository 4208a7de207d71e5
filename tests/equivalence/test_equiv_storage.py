"""The f16 storage check: a candidate is rejected where a tensor it stores in f16 or bf16
overflows on inputs whose float64 result fits, judged on N(0, 1) inputs (the float32 check's
offset slices of 256 would overflow any product of two inputs in f16, whatever the program
does)."""

from __future__ import annotations

from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions

X, G, W = (8, 512), (1, 512), (96, 512)
"""W as nn.Linear keeps it: (out, in), used transposed."""


def _program(b: KernelBuilder) -> None:
    x, g, w = b.input(X, "f16"), b.input(G, "f16"), b.input(W, "f16")
    b.output(b.matmul(b.mul(b.rms_norm(x), g), b.transpose(w, [1, 0])))


def _gain_first(b: KernelBuilder) -> None:
    # the fused form: the gain scales the raw rows, the matmul runs, the norm divides last
    x, g, w = b.input(X, "f16"), b.input(G, "f16"), b.input(W, "f16")
    product = b.matmul(b.mul(x, g), b.transpose(w, [1, 0]))
    rms = b.sqrt(b.mul_scalar(b.reduce_sum(b.square(x), 1), 1.0 / X[1]))
    b.output(b.div(product, rms))


def _squares_first(b: KernelBuilder) -> None:
    # squares of raw products: N(0, 1) rows of 512 summed after squaring x*g twice overflow
    x, g, w = b.input(X, "f16"), b.input(G, "f16"), b.input(W, "f16")
    xg = b.mul(x, g)
    fourth = b.square(b.square(b.square(xg)))
    b.output(b.matmul(b.div(fourth, fourth), b.transpose(w, [1, 0])))


def test_a_gain_applied_before_the_norm_passes_the_storage_check() -> None:
    program = build(_program)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    candidate = build(_gain_first)
    assert verifier.storage_check(program) is None
    assert verifier.storage_check(candidate) is None
    assert verifier.verify(candidate).equivalent


def test_what_overflows_f16_on_normal_inputs_is_still_rejected() -> None:
    program = build(_program)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    reason = verifier.storage_check(build(_squares_first))
    assert reason is not None and "not finite" in reason


A, WA = (16, 512), (512, 64)


def _fourth_power_norm(b: KernelBuilder) -> None:
    # a^4 of N(0, 1) products over 512 overflows f16 where it is stored between kernels,
    # as PyTorch stores it; the norm's result fits f16 wherever it is finite
    x, w = b.input(A, "f16"), b.input(WA, "f16")
    a = b.matmul(x, w)
    b.output(b.rms_norm(b.square(b.square(a))))


def _scaled_fourth_power_norm(b: KernelBuilder) -> None:
    # the same values (the norm does not see a scale): (4 a)^4 overflows at a quarter of a
    x, w = b.input(A, "f16"), b.input(WA, "f16")
    a = b.mul_scalar(b.matmul(x, w), 4.0)
    b.output(b.rms_norm(b.square(b.square(a))))


def test_a_candidate_as_finite_as_a_program_that_overflows_its_storage_is_equivalent() -> None:
    # a matmul chain whose f16 intermediate overflows on the check's inputs, as an MLP's does
    # at hidden 4096: the program itself, and what computes it the same way, are not
    # numerically unstable rewrites of it
    program = build(_fourth_power_norm)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    assert verifier.storage_check(program) is not None
    assert not verifier.reference_storage_fit()
    verdict = verifier.verify(build(_fourth_power_norm))
    assert verdict.equivalent, verdict
    assert not verdict.storage_fit


def test_a_candidate_that_overflows_where_the_program_does_not_is_still_rejected() -> None:
    program = build(_fourth_power_norm)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    verdict = verifier.verify(build(_scaled_fourth_power_norm))
    assert not verdict.equivalent
    assert "the program's own stored result is finite" in str(verdict), verdict


def test_a_candidate_of_a_program_finite_in_storage_is_storage_fit() -> None:
    program = build(_program)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    verdict = verifier.verify(build(_gain_first))
    assert verdict.equivalent and verdict.storage_fit


def test_a_value_at_the_edge_of_f16_that_a_reordered_sum_overflows_is_no_instability() -> None:
    import numpy as np

    from mirage.passes.equivalence.stability import FloatSample, storage_overflow

    edge = np.array([[-65440.0, 3.0]])
    sample = FloatSample(0, [], [edge], [edge], reference_stored=[edge])
    reordered = np.array([[-np.inf, 3.0]])
    assert storage_overflow(sample, [reordered], ["f16"], as_reference=True) is None
    assert storage_overflow(sample, [np.array([[1.0, np.inf]])], ["f16"], True) == (0, (0, 1))
