"""The hand-written μGraph fixtures evaluate equal to their kernel-level programs, and
mutating one map or one accumulator in them breaks that equality."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from xdsl.utils.exceptions import DiagnosticException

from conftest import FIXTURES, get_func, parse_module
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.shapes import REPLICATE
from mirage.dialects.ugraph import Graph, Op
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS
from mirage.dialects.ugraph.to_ir import func_from_graph

FIXTURE_FILES = [
    "rmsnorm_linear.mlir",
    "rmsnorm_linear_small.mlir",
    "attention.mlir",
    "attention_small.mlir",
]


def load(name: str) -> tuple[Graph, Graph]:
    module = parse_module((FIXTURES / name).read_text())
    return (
        graph_from_func(get_func(module, "program")),
        graph_from_func(get_func(module, "ugraph")),
    )


def random_inputs(graph: Graph, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    # Positive-leaning values keep rms_norm and the softmax denominators away from zero
    # while staying random (never zeros).
    return [rng.uniform(0.1, 1.0, size=t.shape) * rng.choice([-1, 1], t.shape) for t in graph.args]


def rel_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_fixture_equals_program(name: str) -> None:
    program, ugraph = load(name)
    domain = FloatDomain(np.float64)
    inputs = random_inputs(program, seed=hash(name) % 1000)
    want = evaluate(program, inputs, domain)
    got = evaluate(ugraph, inputs, domain)
    assert len(want) == len(got)
    for w, g in zip(want, got, strict=True):
        assert w.shape == g.shape
        assert rel_error(g, w) < 1e-9


# --- mutations ---------------------------------------------------------------------------


def _replace_op(graph: Graph, path: tuple[int, ...], new: Op) -> Graph:
    """The graph with the op at `path` (kernel op index, then block op index) replaced."""
    ops = list(graph.ops)
    if len(path) == 1:
        ops[path[0]] = new
    else:
        outer = ops[path[0]]
        assert outer.body is not None
        ops[path[0]] = dataclasses.replace(outer, body=_replace_op(outer.body, path[1:], new))
    return dataclasses.replace(graph, ops=tuple(ops))


def _with_attr(op: Op, name: str, value: object) -> Op:
    attrs = tuple(sorted({**dict(op.attrs), name: value}.items()))
    return dataclasses.replace(op, attrs=attrs)  # type: ignore[arg-type]


def _maps(rank: int, grid: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every map: each grid dim of extent > 1 to a distinct tensor dim or to -1."""
    choices = [(REPLICATE, *range(rank)) if grid[g] > 1 else (REPLICATE,) for g in range(3)]
    for dims in itertools.product(*choices):
        mapped = [d for d in dims if d != REPLICATE]
        if len(mapped) == len(set(mapped)):
            yield dims


def mutations(graph: Graph) -> Iterator[tuple[str, Graph]]:
    """Every other choice of one input iterator's map (imap with forloop dim) or one output
    saver's omap, and every other kind of one accumulator."""
    for k, kop in enumerate(graph.ops):
        if kop.body is None:
            continue
        grid = kop.ints_attr("grid")
        for b, bop in enumerate(kop.body.ops):
            path = (k, b)
            rank = len(kop.body.type_of(bop.operands[0]).shape)
            if bop.kind == "input":
                for imap in _maps(rank, grid):
                    for fdim in (REPLICATE, *range(rank)):
                        if (imap, fdim) != (bop.ints_attr("imap"), bop.int_attr("forloop_dim")):
                            new = _with_attr(_with_attr(bop, "imap", imap), "forloop_dim", fdim)
                            yield "map", _replace_op(graph, path, new)
            if bop.kind == "output":
                for omap in _maps(rank, grid):
                    if omap != bop.ints_attr("omap"):
                        yield "map", _replace_op(graph, path, _with_attr(bop, "omap", omap))
            if bop.kind in ACCUMULATOR_KINDS and bop.kind != "accum_rescale":
                last = kop.body.type_of(bop.operands[0]).shape[-1]
                same = {"accum_sum", "accum_sum_last"} if last == 1 else {bop.kind}
                for other in ACCUMULATOR_KINDS:
                    # over a last dim of extent 1, summing it too changes nothing
                    if other not in (*same, bop.kind, "accum_rescale"):
                        yield (
                            "accumulator",
                            _replace_op(graph, path, dataclasses.replace(bop, kind=other)),
                        )


def verifies(graph: Graph) -> bool:
    try:
        func_from_graph("mutant", graph).verify()
    except (DiagnosticException, ValueError, KeyError):
        return False
    return True


@pytest.mark.parametrize("name", ["rmsnorm_linear_small.mlir", "attention_small.mlir"])
def test_every_valid_mutation_breaks_equality(name: str) -> None:
    program, ugraph = load(name)
    domain = FloatDomain(np.float64)
    inputs = random_inputs(program, seed=7)
    want = evaluate(program, inputs, domain)
    broken: dict[str, int] = {"map": 0, "accumulator": 0}
    for category, mutant in mutations(ugraph):
        if not verifies(mutant):
            continue  # the verifier already rejects it
        got = evaluate(mutant, inputs, domain)
        assert any(
            g.shape != w.shape or rel_error(g, w) > 1e-6 for g, w in zip(got, want, strict=True)
        ), f"a {category} mutation still evaluates equal"
        broken[category] += 1
    # The fixtures admit mutations of both kinds that pass the verifier; each one is caught.
    assert broken["map"] > 0
    assert broken["accumulator"] > 0
