"""Probabilistic equivalence verification over finite fields (Mirage paper §5).

    verifier = Verifier(reference)          # draws the random tests, evaluates the reference
    verdict = verifier.verify(candidate)    # Verdict; bool(verdict) == verdict.equivalent

Both programs run through the one evaluator (`mirage.dialects.semantics`) on a
finite-field value domain: values in Z_P[i] x Z_Q with P = 94_905_743 (the largest safe
prime whose products are exact in float64) and Q = (P - 1) / 2, exp(x) = omega^(x mod Q),
division by the modular inverse, square roots by the canonical modular root (in Z_P[i]
for non-residues). The number of random tests follows from the error bound asked for
(default 1e-12): d / P per test without exponentials, 8 d k^4 / Q + Q^(-1/k^2) with k of
them (`soundness.py` says how d and k are counted and which ops have exact rules). A
candidate that passes is also run in float32 and rejected when it is numerically unstable
where the reference is not (`stability.py`). The mirage-opt pass
`check-equivalence{reference=NAME candidate=NAME}` wraps it for users.

Modules: `field` (modular arithmetic, exact matmul), `domain` (the value domain and the
rule of every elementwise kind), `contraction` (large BLAS calls for block matmuls),
`soundness` (the sound fragment, degrees, the bound), `batch` (programs whose batch
slices are independent tests), `incremental` (op results shared across programs),
`stability`, `verifier`, `check_equivalence` (the pass). The mutation engine that tests
the verifier lives with the tests (`tests/equivalence/mutation_engine.py`).
"""

from mirage.passes.equivalence.verifier import (
    Counterexample,
    ReferenceFingerprint,
    Verdict,
    VerificationError,
    Verifier,
    VerifierOptions,
)

__all__ = [
    "Counterexample",
    "ReferenceFingerprint",
    "Verdict",
    "VerificationError",
    "Verifier",
    "VerifierOptions",
]
