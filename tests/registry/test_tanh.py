"""tanh, added as one row of the op-kind registry: at all three levels, imported from linalg
(and PyTorch), verified, pruned, lowered to PTX and run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from xdsl.dialects.builtin import ModuleOp

from conftest import get_func, parse_module
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from mirage.passes.equivalence import Verifier
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.passes.pruning import AbstractExprs, Pruner
from mirage.tools.registry import make_context

DATA = Path(__file__).parent / "data"


def _module() -> ModuleOp:
    return parse_module((DATA / "tanh.mlir").read_text())


def _inputs(shapes: list[tuple[int, ...]], seed: int = 0) -> list[NDArray[np.float64]]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-0.5, 0.5, s) for s in shapes]


def test_all_three_levels_evaluate_to_tanh() -> None:
    m = _module()
    x, w = _inputs([(8, 64), (64, 32)])
    want = np.tanh(x @ w)
    for name in ("program", "ugraph"):
        (got,) = evaluate(graph_from_func(get_func(m, name)), [x, w], FloatDomain())
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    (xb,) = _inputs([(8, 64)], seed=1)
    (got,) = evaluate(graph_from_func(get_func(m, "block_level")), [xb], FloatDomain())
    np.testing.assert_allclose(got, np.tanh(xb), rtol=1e-12)


def test_imported_from_a_math_tanh_body() -> None:
    module = parse_module((DATA / "tanh_linalg.mlir").read_text())
    ConvertLinalgToKernelPass().apply(make_context(), module)
    assert "kernel.tanh" in str(module)
    assert [op.kind for op in graph_from_func(get_func(module, "f")).ops] == ["tanh"]


def test_imported_from_pytorch() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch_mlir")
    from mirage.tools.from_torch import import_module

    module = import_module(lambda x: torch.tanh(x) * 2.0, [torch.randn(4, 8)])
    assert "kernel.tanh" in str(module)


def test_verified_equal_and_told_apart() -> None:
    m = _module()
    program = graph_from_func(get_func(m, "program"))
    verdict = Verifier(program).verify(graph_from_func(get_func(m, "ugraph")))
    assert verdict.equivalent and verdict.sound, verdict.reason
    assert "tanh" not in verdict.unsound_ops
    verdict = Verifier(program).verify(graph_from_func(get_func(m, "wrong")))
    assert not verdict.equivalent


def test_pruned_by_its_abstract_expression() -> None:
    m = _module()
    program = graph_from_func(get_func(m, "program"))
    (term,) = AbstractExprs.of(program).outputs
    assert "tanh" in str(term)
    pruner = Pruner(program)
    assert pruner.keep(graph_from_func(get_func(m, "ugraph")))
    assert not pruner.keep(graph_from_func(get_func(m, "wrong")))


needs_ptxas = pytest.mark.skipif(find_ptxas() is None, reason="no ptxas (nvidia-cuda-nvcc)")


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["program", "ugraph", "block_level"])
def test_lowered_to_ptx_that_assembles(func: str, arch: str) -> None:
    program = compile_function(get_func(_module(), func), arch)
    assert "ex2.approx" in program.ptx
    report = resource_report(program.ptx, arch)
    assert "error" not in report.lower(), report


@pytest.mark.gpu
@pytest.mark.parametrize("func", ["program", "ugraph", "block_level"])
def test_runs_on_the_gpu_like_float64(func: str) -> None:
    from mirage.lowering.runtime.gpu_run import default_arch, run_program

    f = get_func(_module(), func)
    graph = graph_from_func(f)
    program = compile_function(f, default_arch())
    rng = np.random.default_rng(7)
    for _ in range(2):
        # wide enough that tanh saturates on some elements and is near 0 on others
        inputs = [rng.uniform(-1.0, 1.0, size=t.shape) for t in graph.args]
        result = run_program(program, inputs)
        want = evaluate(graph, result.inputs, FloatDomain(np.float64))
        for got, ref in zip(result.outputs, want, strict=True):
            ref = np.asarray(ref, dtype=np.float64)
            assert np.isfinite(got).all()
            err = np.linalg.norm(got - ref) / (np.linalg.norm(ref) or 1.0)
            assert err < 1e-2, err


def test_mirage_run_reference_evaluator(tmp_path: Path) -> None:
    import subprocess

    # f16 inputs, as the function takes them; the evaluator then computes in float64
    x, w = (a.astype(np.float16) for a in _inputs([(8, 64), (64, 32)], seed=4))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    out = tmp_path / "out.npz"
    args = ["--function", "ugraph", "--device", "cpu", "--keep-float64", "--output", str(out)]
    inputs = ["--inputs", str(tmp_path / "x.npy"), str(tmp_path / "w.npy")]
    proc = subprocess.run(
        ["mirage-run", str(DATA / "tanh.mlir"), *args, *inputs],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    want = np.tanh(x.astype(np.float64) @ w.astype(np.float64))
    np.testing.assert_allclose(np.load(out)["out0"], want, rtol=1e-9, atol=1e-12)
