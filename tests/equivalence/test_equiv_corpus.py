"""The corpus: pairs of programs (identities and near misses) in corpus/*.mlir, each with its
expected verdict in comments:

    // EXPECT: equivalent | different | unstable
    // UNSOUND: op, op        (the unsound ops the verdict must list; none if absent)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from equivalence.mutation_engine import differs, evaluate_float, float_inputs

from conftest import get_func, parse_module
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.mlir"))


def _load(path: Path) -> tuple[Graph, Graph, str, tuple[str, ...]]:
    text = path.read_text()
    expect = re.search(r"// EXPECT: (\w+)", text)
    assert expect is not None, f"{path.name} has no EXPECT line"
    unsound = re.search(r"// UNSOUND: (.*)", text)
    ops = tuple(s.strip() for s in unsound.group(1).split(",")) if unsound else ()
    module = parse_module(text)
    reference = graph_from_func(get_func(module, "reference"))
    candidate = graph_from_func(get_func(module, "candidate"))
    return reference, candidate, expect.group(1), ops


def test_corpus_is_large_enough() -> None:
    kinds = [_load(p)[2] for p in CORPUS]
    assert len(kinds) >= 40
    assert kinds.count("equivalent") >= 15 and kinds.count("different") >= 15


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_pair(path: Path) -> None:
    reference, candidate, expect, unsound = _load(path)
    verdict = Verifier(reference).verify(candidate)
    assert verdict.unsound_ops == unsound
    assert verdict.sound == (not unsound)
    # The pair itself is what it says, in float64 on random inputs.
    inputs = float_inputs(reference, 0)
    float_differs = differs(evaluate_float(reference, inputs), evaluate_float(candidate, inputs))
    assert float_differs == (expect == "different")
    if expect == "equivalent":
        assert verdict.equivalent, verdict
        assert verdict.error_bound <= 1e-12
    elif expect == "different":
        assert not verdict.equivalent and verdict.counterexample is not None, verdict
    else:
        assert expect == "unstable"
        assert not verdict.equivalent and verdict.reason.startswith("numerically unstable")
        exact = Verifier(reference, VerifierOptions(stability=None)).verify(candidate)
        assert exact.equivalent, exact


def test_verdicts_do_not_depend_on_the_seed() -> None:
    for path in CORPUS[::6]:
        reference, candidate, expect, _ = _load(path)
        verdicts = {
            Verifier(reference, VerifierOptions(seed=s)).verify(candidate).equivalent
            for s in (1, 2, 3)
        }
        assert verdicts == {expect == "equivalent"}, path.name


def test_remembered_input_products_do_not_change_verdicts() -> None:
    for path in CORPUS:
        reference, candidate, _, _ = _load(path)
        plain = VerifierOptions(input_products=False)
        a = Verifier(reference).verify(candidate)
        b = Verifier(reference, plain).verify(candidate)
        assert (a.equivalent, a.counterexample) == (b.equivalent, b.counterexample), path.name
