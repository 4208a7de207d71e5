"""Pruner.keep on prefixes that share ops with the previous one (as a depth-first search
asks) answers as a fresh evaluation of the whole prefix does."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pruning.prune_helpers import known_good, prefixes

from mirage.dialects.ugraph import Graph, TensorType
from mirage.dialects.ugraph.graph import make_op
from mirage.passes.pruning import Pruner

KNOWN_GOOD = list(known_good())


def _variants(graph: Graph) -> list[Graph]:
    """Prefixes of `graph`, and each with an op that no target contains (exp of an input
    tile) inserted where the search could have put it."""
    out: list[Graph] = []
    for prefix in prefixes(graph):
        out.append(prefix)
        last = prefix.ops[-1]
        if last.kind != "graph" or last.body is None or not last.body.ops:
            continue
        body = last.body
        first = body.ops[0]
        if first.kind != "input":
            continue
        tile = first.results[0]
        bad = make_op("exp", (len(body.args),), (TensorType(tile.shape, "f32"),))
        grown = dataclasses.replace(
            body, ops=(*body.ops, bad), outputs=(), loop_end=len(body.ops) + 1
        )
        out.append(
            dataclasses.replace(
                prefix, ops=(*prefix.ops[:-1], dataclasses.replace(last, body=grown, results=()))
            )
        )
    return out


def _fresh(program: Graph, prefix: Graph) -> bool:
    return not any(True for _ in Pruner(program, engine="python").failures(prefix))


@pytest.mark.parametrize("order", ["search", "shuffled"])
def test_incremental_answers_equal_fresh_ones(order: str) -> None:
    rng = random.Random(7)
    for name, program, ugraph in KNOWN_GOOD:
        variants = _variants(ugraph)
        if order == "shuffled":
            rng.shuffle(variants)
        pruner = Pruner(program, engine="python")
        answers = [pruner.keep(v) for v in variants]
        assert answers == [_fresh(program, v) for v in variants], name
        assert True in answers
        if any(v.ops[-1].results == () for v in variants):
            assert False in answers, name


def test_prefixes_of_another_program_reset_the_state() -> None:
    (_, program, ugraph), (_, _, other) = KNOWN_GOOD[0], KNOWN_GOOD[2]
    pruner = Pruner(program, engine="python")
    for prefix in prefixes(ugraph):
        assert pruner.keep(prefix)
    for prefix in prefixes(other):
        assert pruner.keep(prefix) == _fresh(program, prefix)
    for prefix in prefixes(ugraph):
        assert pruner.keep(prefix)


def test_a_block_graph_in_the_search_interface_shape() -> None:
    # The search's contract: the last graph op has no results while its body grows, and
    # its loop is open (loop_end == len(body.ops)).
    _, program, ugraph = KNOWN_GOOD[1]
    launch = ugraph.ops[0]
    assert launch.body is not None
    pruner = Pruner(program)
    for count in range(len(launch.body.ops)):
        body = dataclasses.replace(
            launch.body, ops=launch.body.ops[:count], outputs=(), loop_end=count
        )
        op = dataclasses.replace(launch, body=body, results=())
        assert pruner.keep(dataclasses.replace(ugraph, ops=(op,), outputs=()))
    assert pruner.keep(ugraph)
    assert pruner.stats.prefixes_pruned == 0
