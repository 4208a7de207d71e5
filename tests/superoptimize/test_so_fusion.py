"""Thread-level fusion of elementwise chains."""

from __future__ import annotations

import numpy as np

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.superoptimize.fusion import fuse_chains, fuse_program
from mirage.passes.superoptimize.resources import peak_shared_memory

F32 = "f32"
NO = (-1, -1, -1)


def _rmsnorm_linear_unfused() -> Graph:
    """The Figure 3 μGraph with its epilogue as separate block ops: sqrt, div."""
    x, w = TensorType((4, 64), "f16"), TensorType((64, 96), "f16")
    xt, wt = TensorType((4, 16), "f16"), TensorType((16, 24), "f16")
    acc, ms = TensorType((4, 24), F32), TensorType((4, 1), F32)
    ops = (
        make_op("input", [0], [xt], imap=NO, forloop_dim=1),
        make_op("input", [1], [wt], imap=(1, -1, -1), forloop_dim=0),
        make_op("matmul", [2, 3], [acc]),
        make_op("accum_sum", [4], [acc]),
        make_op("accum_mean_last", [2], [ms]),
        make_op("sqrt", [6], [ms]),
        make_op("div", [5, 7], [acc]),
        make_op("mul_scalar", [8], [acc], scalar=2.0),
        make_op("output", [9], [TensorType((4, 96), "f16")], omap=(1, -1, -1)),
    )
    body = Graph((x, w), ops, (10,), 5)
    op = make_op(
        "graph",
        [0, 1],
        [TensorType((4, 96), "f16")],
        body=body,
        grid=(4, 1, 1),
        block=(128, 1, 1),
        forloop_range=4,
    )
    return Graph((x, w), (op,), (2,))


def test_chain_becomes_one_fuse_op_that_computes_the_same() -> None:
    graph = _rmsnorm_linear_unfused()
    fused = fuse_program(graph)
    body = fused.ops[0].body
    assert body is not None
    kinds = [op.kind for op in body.ops]
    assert kinds.count("fuse") == 1 and "sqrt" not in kinds and "div" not in kinds
    fuse = next(op for op in body.ops if op.kind == "fuse")
    assert fuse.body is not None and [o.kind for o in fuse.body.ops] == [
        "sqrt",
        "div",
        "mul_scalar",
    ]
    func_from_graph("fused", fused).verify()
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(0.5, 1.5, size=t.shape) for t in graph.args]
    domain = FloatDomain(np.float64)
    want = evaluate(graph, inputs, domain)[0]
    got = evaluate(fused, inputs, domain)[0]
    assert np.allclose(got, want, rtol=1e-12)
    old_body = graph.ops[0].body
    assert old_body is not None
    assert peak_shared_memory(body) <= peak_shared_memory(old_body)


def test_values_used_twice_or_of_other_dtypes_stay() -> None:
    t = TensorType((4, 8), F32)
    h = TensorType((4, 8), "f16")
    ops = (
        make_op("input", [0], [h], imap=NO, forloop_dim=-1),
        make_op("exp", [1], [t]),  # reads an f16 tile: not fused with f32 ops
        make_op("sqrt", [2], [t]),
        make_op("add", [3, 3], [t]),  # sqrt's result is used twice: no chain
        make_op("accum_sum", [4], [t]),
        make_op("output", [5], [t], omap=NO),
    )
    body = Graph((h,), ops, (6,), 5)
    fused = fuse_chains(body)
    assert fused == body
