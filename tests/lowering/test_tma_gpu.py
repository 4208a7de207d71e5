"""TMA loads on a GPU (sm_90): the benchmark μGraphs and a weight-streaming matmul built with
`loads=tma`, run on fresh random inputs with outputs poisoned, against float64 (skipped
without a CUDA device)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from tests.conftest import get_func, parse_module

ROOT = Path(__file__).parent.parent.parent
UGRAPHS = ROOT / "benchmarks" / "ugraphs"
FOUND = ROOT / "benchmarks" / "found"
TMA = Path(__file__).parent / "data" / "tma.mlir"

CASES = [
    (UGRAPHS / "rmsnorm_linear_b1.mlir", "ugraph"),
    (UGRAPHS / "rmsnorm_linear_b8.mlir", "ugraph"),
    (UGRAPHS / "gated_mlp.mlir", "ugraph"),
    (TMA, "stream"),
    (TMA, "stream_wide"),
    (TMA, "running_max"),
    (TMA, "row_max"),
    (TMA, "narrow_deep"),
    (FOUND / "rmsnorm_linear_b1.mlir", "ugraph"),
    (FOUND / "rmsnorm_linear_b8.mlir", "ugraph"),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("path", "func"), CASES, ids=lambda c: str(c).rsplit("/", 1)[-1])
def test_tma_matches_float64(path: Path, func: str) -> None:
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime import driver
    from mirage.lowering.runtime.gpu_run import compare, run_program

    if driver.get_device(0).capability < (9, 0):
        pytest.skip("tensor-map copies need an sm_90 device")
    f = get_func(parse_module(path.read_text()), func)
    graph = graph_from_func(f)
    program = compile_function(f, "sm_90a", loads="tma")
    # the first kernel streams its weights through tensor maps: TMA really runs
    assert program.launches[0].tensor_maps
    assert "cp.async.bulk.tensor.2d" in program.ptx
    rng = np.random.default_rng(14)
    for _ in range(2):
        inputs = [rng.uniform(-1.0, 1.0, size=t.shape) for t in graph.args]
        result = run_program(program, inputs)
        want = [
            np.asarray(w, dtype=np.float64)
            for w in evaluate(graph, result.inputs, FloatDomain(np.float64))
        ]
        verdicts = compare(result.outputs, want, [s.dtype for s in program.outputs])
        assert all(ok for _, ok in verdicts), verdicts
