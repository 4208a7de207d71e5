"""Helpers of the pruning tests: the known-good μGraphs and their prefixes."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from xdsl.dialects.func import FuncOp

from conftest import FIXTURES, parse_module
from mirage.dialects.ugraph import Graph
from mirage.dialects.ugraph.from_ir import graph_from_func

UGRAPHS = Path(__file__).parent / "ugraphs"
"""One hand-written μGraph per benchmark program (DESIGN §8), at small shapes."""

FIXTURE_FILES = [
    "rmsnorm_linear.mlir",
    "rmsnorm_linear_small.mlir",
    "attention.mlir",
    "attention_small.mlir",
]


def known_good_files() -> list[Path]:
    return [FIXTURES / f for f in FIXTURE_FILES] + sorted(UGRAPHS.glob("*.mlir"))


def load_functions(path: Path) -> dict[str, Graph]:
    module = parse_module(path.read_text())
    return {op.sym_name.data: graph_from_func(op) for op in module.ops if isinstance(op, FuncOp)}


def known_good() -> Iterator[tuple[str, Graph, Graph]]:
    """(name, program, μGraph) for every μGraph function (`@ugraph*`) of every file."""
    for path in known_good_files():
        funcs = load_functions(path)
        program = funcs.pop("program")
        for name, graph in funcs.items():
            yield f"{path.stem}:{name}", program, graph


def random_inputs(graph: Graph, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    # Away from zero, so that norms and softmax denominators stay well conditioned.
    return [rng.uniform(0.1, 1.0, size=t.shape) * rng.choice([-1, 1], t.shape) for t in graph.args]


def _truncated(graph: Graph, count: int) -> Graph:
    """The first `count` ops of a body (block or thread level): its outputs are not there
    yet, and the loop is open if it has not ended."""
    return dataclasses.replace(
        graph, ops=graph.ops[:count], outputs=(), loop_end=min(graph.loop_end, count)
    )


def _body_prefixes(body: Graph) -> Iterator[Graph]:
    """Every prefix of a body the search can build op by op, nested bodies included."""
    for count in range(len(body.ops) + 1):
        yield body if count == len(body.ops) else _truncated(body, count)
        if count < len(body.ops) and body.ops[count].body is not None:
            op = body.ops[count]
            assert op.body is not None
            for inner in _body_prefixes(op.body):
                if inner is op.body:
                    continue
                grown = dataclasses.replace(op, body=inner)
                yield _truncated(
                    dataclasses.replace(body, ops=(*body.ops[:count], grown)), count + 1
                )


def prefixes(graph: Graph) -> Iterator[Graph]:
    """Every prefix of a kernel graph: the first k kernel ops, and for a graph-defined or
    fused op, every prefix of its body with the ops before it."""
    for count in range(1, len(graph.ops) + 1):
        op = graph.ops[count - 1]
        if op.body is not None:
            for inner in _body_prefixes(op.body):
                grown = dataclasses.replace(op, body=inner)
                yield dataclasses.replace(graph, ops=(*graph.ops[: count - 1], grown), outputs=())
        else:
            yield dataclasses.replace(graph, ops=graph.ops[:count], outputs=())
