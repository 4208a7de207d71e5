"""Layout ops left between the kernels of a μGraph are folded into the kernels' views: the
producer writes through an output view, or the readers read through input views; the
result evaluates equal and assembles."""

from __future__ import annotations

import numpy as np
import pytest
from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.optimize.wrap import wrap_op
from mirage.passes.superoptimize.inplace import fold_layout_ops


def _wrapped(program: Graph) -> Graph:
    """Every op with a block form as a one-op kernel.graph; layout ops stay."""
    ops = []
    for op in program.ops:
        if op.kind in ("transpose", "reshape"):
            ops.append(op)
        else:
            ops.append(wrap_op(op, [program.type_of(v) for v in op.operands]))
    return Graph(program.args, tuple(ops), program.outputs)


def _same(a: Graph, b: Graph) -> None:
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-1, 1, t.shape) for t in a.args]
    for x, y in zip(
        evaluate(b, inputs, FloatDomain(np.float64)),
        evaluate(a, inputs, FloatDomain(np.float64)),
        strict=True,
    ):
        assert np.allclose(x, y, rtol=1e-12)


def _normed_keys(b: KernelBuilder, expose: bool) -> None:
    q, k = b.input((2, 16, 32)), b.input((2, 64, 32))
    e = b.exp(k)
    b.output(b.matmul(q, b.transpose(e, (0, 2, 1))))
    if expose:
        b.output(e)


def _kinds(g: Graph) -> list[str]:
    return [op.kind for op in g.ops]


def test_a_transpose_after_a_kernel_is_written_by_its_output_saver() -> None:
    program = build(lambda b: _normed_keys(b, expose=False))
    wrapped = _wrapped(program)
    assert _kinds(wrapped) == ["graph", "transpose", "graph"]
    folded = fold_layout_ops(wrapped)
    assert _kinds(folded) == ["graph", "graph"]
    body = folded.ops[0].body
    assert body is not None
    (saver,) = [op for op in body.ops if op.kind == "output"]
    assert saver.viewed and saver.results[0].shape == (2, 32, 64)
    _same(program, folded)


def test_a_transpose_of_a_value_read_elsewhere_is_read_in_place_by_its_reader() -> None:
    program = build(lambda b: _normed_keys(b, expose=True))
    folded = fold_layout_ops(_wrapped(program))
    assert _kinds(folded) == ["graph", "graph"]
    body = folded.ops[1].body
    assert body is not None
    assert [op.viewed for op in body.ops if op.kind == "input"] == [False, True]
    _same(program, folded)


def test_a_chain_that_is_no_strided_view_stays() -> None:
    def merge(b: KernelBuilder) -> None:
        x = b.exp(b.input((2, 4, 16, 8)))
        y = b.reshape(b.transpose(x, (0, 2, 1, 3)), (2, 16, 32))
        b.output(b.exp(y))
        b.output(x)  # the producer's result is read elsewhere: only the readers could fold

    program = build(merge)
    folded = fold_layout_ops(_wrapped(program))
    assert _kinds(folded) == ["graph", "transpose", "reshape", "graph"]
    _same(program, folded)


def test_folded_views_assemble() -> None:
    from mirage.dialects.ugraph.to_ir import func_from_graph
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime.ptxas import find_ptxas, resource_report

    if find_ptxas() is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    for expose in (False, True):
        folded = fold_layout_ops(_wrapped(build(lambda b, e=expose: _normed_keys(b, e))))
        program = compile_function(func_from_graph("folded", folded), "sm_90a")
        report = resource_report(program.ptx, program.arch)
        assert "error" not in report.lower(), report
