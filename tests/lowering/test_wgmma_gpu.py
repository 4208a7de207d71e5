"""The wgmma matmul strategy on a GPU (sm_90a): plain matmuls of several m, n, k (not the
benchmarks' shapes), a matmul with a fused epilogue, batched and running-maximum forms, a
matmul -> exp -> matmul chain through registers, online-softmax chains (e against the
running maxima, split-KV, a scaled e, head dim 128), and the rmsnorm_linear, gqa and qknorm
μGraphs the search found, built with `matmuls=wgmma`, run on
fresh random inputs with outputs poisoned, against float64 (skipped without an sm_90
device)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from tests.conftest import get_func, parse_module

ROOT = Path(__file__).parent.parent.parent
FOUND = ROOT / "benchmarks" / "found"
DATA = Path(__file__).parent / "data"
WGMMA = DATA / "wgmma.mlir"
TMA = DATA / "tma.mlir"

CASES = [
    # (μGraph file, function, loads)
    (WGMMA, "plain", "tma"),
    (WGMMA, "plain", "cp-async"),
    (WGMMA, "two_groups", "tma"),
    (WGMMA, "skinny", "cp-async"),
    (WGMMA, "epilogue", "tma"),
    (WGMMA, "epilogue", "cp-async"),
    (WGMMA, "batched_max", "cp-async"),
    (DATA / "chain.mlir", "chain", "cp-async"),
    (DATA / "online_chain.mlir", "online_rows64", "tma"),
    (DATA / "online_chain.mlir", "online_split", "tma"),
    (DATA / "online_chain.mlir", "online_scaled", "cp-async"),
    (DATA / "online_chain.mlir", "online_d128", "tma"),
    (DATA / "online_chain.mlir", "online_rows48", "tma"),
    (DATA / "online_chain.mlir", "online_rows128", "cp-async"),
    (DATA / "online_chain.mlir", "online_wide", "tma"),
    (TMA, "stream", "tma"),
    (TMA, "running_max", "tma"),
    (FOUND / "rmsnorm_linear_b1.mlir", "ugraph", "tma"),
    (FOUND / "rmsnorm_linear_b8.mlir", "ugraph", "tma"),
    (FOUND / "gqa_b1.mlir", "ugraph", "tma"),
    (FOUND / "gqa_b8.mlir", "ugraph", "tma"),
    (FOUND / "qknorm_b8.mlir", "ugraph", "tma"),
]


def _id(case: object) -> str:
    return str(case).rsplit("/", 1)[-1]


@pytest.mark.gpu
@pytest.mark.parametrize(("path", "func", "loads"), CASES, ids=_id)
def test_wgmma_matches_float64(path: Path, func: str, loads: str) -> None:
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime import driver
    from mirage.lowering.runtime.gpu_run import compare, run_program

    if driver.get_device(0).capability != (9, 0):
        pytest.skip("wgmma needs an sm_90a device (compute capability 9.0)")
    f = get_func(parse_module(path.read_text()), func)
    graph = graph_from_func(f)
    program = compile_function(f, "sm_90a", loads=loads, matmuls="wgmma")
    # the matmuls really run on wgmma (none fell back)
    assert "wgmma.mma_async" in program.ptx
    assert "mma.sync.aligned" not in program.ptx
    rng = np.random.default_rng(15)
    for _ in range(2):
        inputs = [rng.uniform(-1.0, 1.0, size=t.shape) for t in graph.args]
        result = run_program(program, inputs)
        want = [
            np.asarray(w, dtype=np.float64)
            for w in evaluate(graph, result.inputs, FloatDomain(np.float64))
        ]
        verdicts = compare(result.outputs, want, [s.dtype for s in program.outputs])
        assert all(ok for _, ok in verdicts), verdicts
