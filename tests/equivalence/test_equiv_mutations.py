"""Random single mutations of the fixtures, the corpus pairs and random programs: every
mutant whose float64 results differ from the reference's on random inputs is rejected.
(benchmarks/mutation_campaign.py runs 10,000 of them.)"""

from __future__ import annotations

from pathlib import Path

from equivalence.mutation_engine import random_pairs, run_campaign

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph

CORPUS = Path(__file__).parent / "corpus"


def seed_pairs() -> list[tuple[str, Graph, Graph]]:
    pairs: list[tuple[str, Graph, Graph]] = []
    for name in ("rmsnorm_linear_small.mlir", "attention_small.mlir"):
        module = parse_module((FIXTURES / name).read_text())
        program = graph_from_func(get_func(module, "program"))
        ugraph = graph_from_func(get_func(module, "ugraph"))
        pairs += [(f"{name}: ugraph", program, ugraph), (f"{name}: program", program, program)]
    for path in sorted(CORPUS.glob("*.mlir")):
        module = parse_module(path.read_text())
        reference = graph_from_func(get_func(module, "reference"))
        pairs.append((path.stem, reference, graph_from_func(get_func(module, "candidate"))))
    return pairs


def test_every_differing_mutant_is_rejected() -> None:
    pairs = seed_pairs() + random_pairs(12, seed=1)
    report = run_campaign(pairs, total=600, seed=2)
    assert report.escaped == []
    assert report.mutants >= 600
    assert report.differing == report.differing_rejected
    assert report.differing > report.mutants // 2
