"""wrap-kernel-ops: the one-op graphs compute what the plain kernel ops compute (checked by
evaluating both in float64), for every op of the lowering test programs."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.optimize.wrap import TILE_ELEMENTS, UNWRAPPED, wrap_graph
from tests.conftest import parse_module

DATA = Path(__file__).parent / "data"


def _functions(name: str) -> list[tuple[str, object]]:
    module = parse_module((DATA / name).read_text())
    return [(op.sym_name.data, op) for op in module.ops]  # type: ignore[attr-defined]


@pytest.mark.parametrize("file", ["ops.mlir", "ops_positive.mlir"])
def test_wrapped_graphs_compute_the_same(file: str) -> None:
    rng = np.random.default_rng(7)
    for name, func in _functions(file):
        g = graph_from_func(func)  # type: ignore[arg-type]
        wrapped = wrap_graph(g)
        assert all(op.kind in UNWRAPPED for op in wrapped.ops), name
        inputs = [rng.uniform(0.25, 1.0, size=t.shape) for t in g.args]
        if "positive" not in file:
            inputs = [x * rng.choice([-1.0, 1.0], size=x.shape) for x in inputs]
        want = evaluate(g, inputs, FloatDomain(np.float64))
        got = evaluate(wrapped, inputs, FloatDomain(np.float64))
        for w, h in zip(want, got, strict=True):
            np.testing.assert_allclose(
                np.asarray(h), np.asarray(w), rtol=1e-9, atol=1e-12, err_msg=name
            )


def test_outputs_get_their_own_buffers() -> None:
    (_, func), *_ = [f for f in _functions("ops.mlir") if f[0] == "outputs"]
    wrapped = wrap_graph(graph_from_func(func))  # type: ignore[arg-type]
    # an output that is an input, and one returned twice, each get a copy kernel
    assert len(set(wrapped.outputs)) == 3
    assert all(o >= len(wrapped.args) for o in wrapped.outputs)


def test_rank5_broadcast_tiles_fit_shared_memory() -> None:
    """A head split as exported (b, kv_heads, 1, s, d) * ones(b, kv_heads, rep, s, d): the
    three grid dims must not all go to the small outer dims, leaving a whole (s, d) matrix
    per block, more than shared memory holds."""
    from mirage.lowering.ptx.compile import compile_function

    module = parse_module((DATA / "wrap_rank5.mlir").read_text())
    (func,) = module.ops
    (graph_op,) = wrap_graph(graph_from_func(func)).ops  # type: ignore[arg-type]
    assert graph_op.body is not None
    tiles = [math.prod(op.results[0].shape) for op in graph_op.body.ops if op.kind == "input"]
    assert max(tiles) <= 4 * TILE_ELEMENTS
    compile_function(func, "sm_90a")  # type: ignore[arg-type]
