"""Theorem 1: no prefix of a μGraph that computes the target is pruned; and prefixes that
cannot lead to the target are."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from pruning.prune_helpers import UGRAPHS, known_good, load_functions, prefixes, random_inputs

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph import Graph, TensorType
from mirage.dialects.ugraph.graph import make_op
from mirage.passes.pruning import AbstractExprs, Pruner, canonical

KNOWN_GOOD = list(known_good())
IDS = [name for name, _, _ in KNOWN_GOOD]


@pytest.mark.parametrize(("name", "program", "ugraph"), KNOWN_GOOD, ids=IDS)
def test_known_good_ugraph_computes_its_program(name: str, program: Graph, ugraph: Graph) -> None:
    domain = FloatDomain(np.float64)
    inputs = random_inputs(program, seed=len(name))
    want = evaluate(program, inputs, domain)
    got = evaluate(ugraph, inputs, domain)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=0)


@pytest.mark.parametrize(("name", "program", "ugraph"), KNOWN_GOOD, ids=IDS)
def test_known_good_ugraph_has_the_programs_expression(
    name: str, program: Graph, ugraph: Graph
) -> None:
    # The premise of Theorem 1 for these graphs: their expressions are A_eq-equivalent.
    want = [canonical(t) for t in AbstractExprs.of(program).outputs]
    got = [canonical(t) for t in AbstractExprs.of(ugraph).outputs]
    assert got == want, name


@pytest.mark.parametrize("engine", ["z3", "python"])
@pytest.mark.parametrize(("name", "program", "ugraph"), KNOWN_GOOD, ids=IDS)
def test_every_prefix_of_a_known_good_ugraph_survives(
    name: str, program: Graph, ugraph: Graph, engine: str
) -> None:
    pruner = Pruner(program, engine=engine)
    count = 0
    for prefix in prefixes(ugraph):
        failures = list(pruner.failures(prefix))
        assert not failures, f"{name}: a prefix was pruned at {failures}"
        assert pruner.keep(prefix)
        count += 1
    assert count >= 4
    assert pruner.stats.pruned == 0
    assert pruner.stats.unknown == 0


def test_known_good_files_cover_every_benchmark_program() -> None:
    names = {path.stem.removesuffix("_small") for path in UGRAPHS.glob("*.mlir")}
    assert names >= {"gqa", "qknorm", "lora", "gated_mlp", "ntrans"}
    # rmsnorm_linear comes from the shared fixtures.
    assert any(name.startswith("rmsnorm_linear") for name in IDS)


# --- negative prefixes -----------------------------------------------------------------


def _program(name: str) -> Graph:
    return load_functions(UGRAPHS / f"{name}.mlir")["program"]


def _with_op(
    graph: Graph, kind: str, operands: tuple[int, ...], shape: tuple[int, ...], **attrs: object
) -> Graph:
    op = make_op(kind, operands, (TensorType(shape, "f32"),), **attrs)  # type: ignore[arg-type]
    return dataclasses.replace(graph, ops=(*graph.ops, op), outputs=())


def _args_only(program: Graph) -> Graph:
    return dataclasses.replace(program, ops=(), outputs=())


def test_exp_where_the_target_has_none_is_pruned() -> None:
    program = _program("gated_mlp_small")
    pruner = Pruner(program)
    prefix = _with_op(_args_only(program), "exp", (0,), (4, 32))
    assert not pruner.keep(prefix)
    assert pruner.stats.via["support"] == 1


def test_a_sum_over_the_wrong_extent_is_pruned() -> None:
    program = _program("gated_mlp_small")  # X W1 sums 32 products
    pruner = Pruner(program)
    xw = _with_op(_args_only(program), "matmul", (0, 1), (4, 48))
    assert pruner.keep(xw)
    # Summing the 4 rows of X W1 as well: 128 products, more than the target ever sums.
    too_many = _with_op(xw, "reduce_sum", (3,), (1, 48), dim=0, size=1)
    assert not pruner.keep(too_many)
    assert pruner.stats.via["solver"] >= 1


def test_a_product_with_the_wrong_input_is_pruned() -> None:
    program = _program("gated_mlp_small")  # silu(X W1) * (X W2)
    pruner = Pruner(program)
    g = _with_op(_with_op(_args_only(program), "matmul", (0, 1), (4, 48)), "silu", (3,), (4, 48))
    assert pruner.keep(g)
    wrong = _with_op(g, "mul", (4, 3), (4, 48))  # silu(X W1) * (X W1)
    assert not pruner.keep(wrong)
    right = _with_op(_with_op(g, "matmul", (0, 2), (4, 48)), "mul", (4, 5), (4, 48))
    assert pruner.keep(right)


def test_a_norm_over_the_wrong_input_is_pruned() -> None:
    program = load_functions(UGRAPHS.parent.parent / "fixtures" / "rmsnorm_linear_small.mlir")[
        "program"
    ]
    pruner = Pruner(program)
    assert pruner.keep(_with_op(_args_only(program), "rms_norm", (0,), (4, 64)))
    assert not pruner.keep(_with_op(_args_only(program), "rms_norm", (1,), (64, 96)))


def test_failures_name_the_offending_value() -> None:
    program = _program("gated_mlp_small")
    pruner = Pruner(program)
    xw = _with_op(_args_only(program), "matmul", (0, 1), (4, 48))
    prefix = _with_op(xw, "exp", (3,), (4, 48))
    failures = list(pruner.failures(prefix))
    assert [(path, str(term)) for path, term in failures] == [
        ((1, 0), "exp(sum(32, mul(arg0, arg1)))")
    ]


def test_programs_with_transposes_reshapes_and_constants_prune_too() -> None:
    # y = reshape(exp(transpose(x)) + 1e-6): every op has an expression, none is unknown
    x = TensorType((8, 4), "f32")
    program = Graph(
        (x,),
        (
            make_op("transpose", [0], [TensorType((4, 8), "f32")], permutation=(1, 0)),
            make_op("exp", [1], [TensorType((4, 8), "f32")]),
            make_op("constant", [], [TensorType((1, 1), "f32")], value=1e-6),
            make_op("add", [2, 3], [TensorType((4, 8), "f32")]),
            make_op("reshape", [4], [TensorType((32,), "f32")]),
        ),
        (5,),
    )
    pruner = Pruner(program)
    # exp before the transpose computes the same elements: kept
    exp_first = _with_op(_args_only(program), "exp", (0,), (8, 4))
    assert pruner.keep(exp_first)
    assert pruner.keep(_with_op(exp_first, "transpose", (1,), (4, 8), permutation=(1, 0)))
    # no sqrt and no sum over x in the program: pruned
    assert not pruner.keep(_with_op(_args_only(program), "sqrt", (0,), (8, 4)))
    assert not pruner.keep(_with_op(_args_only(program), "reduce_sum", (0,), (8, 1), dim=1, size=1))
