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
