"""`profile=true`: candidates ranked by the time measured on the GPU; without one, a clear
error before any search."""

from __future__ import annotations

import numpy as np
import pytest
from superoptimize.so_helpers import build, only_func
from xdsl.utils.exceptions import PassFailedException

from conftest import HAS_GPU
from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize.module_pass import PrunerFactory, SuperoptimizePass
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.tools.registry import make_context


def _rmsnorm_linear(b: KernelBuilder) -> None:
    x, w = b.input((8, 3072)), b.input((3072, 256))
    b.output(b.matmul(b.rms_norm(x), w))


@pytest.mark.skipif(HAS_GPU, reason="checks the message given where there is no GPU")
def test_profile_without_a_gpu_is_a_clear_error() -> None:
    b = KernelBuilder()
    _rmsnorm_linear(b)
    module = b.build("f")
    with pytest.raises(PassFailedException, match=r"profile=true needs a CUDA device"):
        SuperoptimizePass(profile=True, time_budget=5, workers=1).apply(make_context(), module)


@pytest.mark.gpu
def test_profile_ranks_by_measured_time_and_the_best_runs_right() -> None:
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime.gpu_run import compare, run_program
    from mirage.passes.superoptimize.profile import GpuProfiler

    program = build(_rmsnorm_linear)
    options = SearchOptions(
        time_budget=120,
        max_kernel_ops=1,
        max_block_ops=7,
        workers=1,
        target=SM_90,
        keep=3,
        profile=True,
    )
    result = Search(
        program, options, PrunerFactory(None), Verifier(program), GpuProfiler("sm_90")
    ).run()
    assert result.ranked
    measured = [r.measured for r in result.ranked]
    assert all(m is not None and 0 < m < 1e-3 for m in measured), measured
    assert measured == sorted(measured)  # type: ignore[type-var]

    compiled = compile_function(func_from_graph("best", result.ranked[0].graph), "sm_90a")
    rng = np.random.default_rng(7)
    inputs = [
        rng.uniform(0.25, 1.0, t.shape) * rng.choice([-1.0, 1.0], t.shape) for t in program.args
    ]
    run = run_program(compiled, inputs)
    want = evaluate(program, run.inputs, FloatDomain(np.float64))
    verdicts = compare(run.outputs, [np.asarray(w) for w in want], ["f16"])
    assert all(ok for _, ok in verdicts), verdicts


@pytest.mark.gpu
def test_the_pass_with_profile_replaces_the_function_with_a_measured_faster_one() -> None:
    b = KernelBuilder()
    _rmsnorm_linear(b)
    module = b.build("f")
    SuperoptimizePass(profile=True, time_budget=120, max_block_ops=7, workers=1).apply(
        make_context(), module
    )
    graph = graph_from_func(only_func(module))
    assert [op.kind for op in graph.ops] == ["graph"]
