"""mirage.torch on the CPU: the FX graph cut into subgraphs the importer expresses, run on
the reference evaluator (`reference=True`) against eager PyTorch; unsupported ops stay in
PyTorch; parameters are read at call time; no GPU means eager with one warning."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from dynamo.tb_helpers import NormLinear, compiled, rand, torch_programs  # noqa: E402

import mirage.torch  # noqa: E402
from mirage.torch import backend as backend_module  # noqa: E402
from mirage.torch.options import OptionError  # noqa: E402


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the tests that do not count searches: the importer is asked once."""
    return tmp_path_factory.mktemp("mirage-cache")


def _close(got: Any, want: Any, tol: float = 1e-5) -> None:
    if isinstance(want, tuple | list):
        for g, w in zip(got, want, strict=True):
            _close(g, w, tol)
        return
    assert got.shape == want.shape and got.dtype == want.dtype
    assert torch.allclose(got.double(), want.double(), rtol=tol, atol=tol), (got - want).abs().max()


def test_partition_runs_what_imports_and_leaves_the_rest(cache: Path) -> None:
    m = NormLinear()
    x = rand(4, 64)
    fast, backend = compiled(m, cache_dir=str(cache), time_budget=5)
    with torch.no_grad():
        _close(fast(x), m(x))
    (report,) = backend.reports
    (sub,) = [s for s in report.subgraphs if s.how != "pytorch"]
    assert sub.where.startswith("reference evaluator")
    assert len(sub.nodes) == 5  # mul, mean, rsqrt, mul, matmul: one subgraph
    where = {node.split(" = ")[1]: (w, why) for node, w, why in report.nodes}
    assert where["topk"][0] == "pytorch" and "not one tensor" in where["topk"][1]
    assert where["matmul"][0] == sub.name


def test_explain_names_the_importers_reason(cache: Path) -> None:
    def fn(x: Any, y: Any) -> Any:
        # A selection on another value: the importer refuses it by name.
        return torch.where(x > 0, y, 2 * y) + torch.exp(x)

    class M(torch.nn.Module):
        def forward(self, x: Any, y: Any) -> Any:
            return fn(x, y)

    text = mirage.torch.explain(
        M(), [rand(4, 8) - 0.75, rand(4, 8, seed=2)], cache_dir=str(cache), time_budget=3
    )
    assert "where" in text and "the importer refuses it" in text
    assert "exp" in text and "mirage_" in text


def test_a_graph_of_unsupported_ops_runs_in_pytorch(cache: Path) -> None:
    class M(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.sort(x, dim=-1).values.cumsum(-1)

    m = M()
    x = rand(3, 5)
    fast, backend = compiled(m, cache_dir=str(cache))
    _close(fast(x), m(x))
    assert not backend.reports[0].subgraphs


def test_parameters_are_read_at_call_time(cache: Path) -> None:
    m = NormLinear(tail=False)
    x = rand(4, 64)
    fast, _ = compiled(m, cache_dir=str(cache), time_budget=5)
    with torch.no_grad():
        before = fast(x)
        m.w.mul_(-2.0)
        after = fast(x)
        _close(after, m(x))
        _close(after, before * -2.0)


@pytest.mark.parametrize(
    ("name", "shapes"),
    [
        ("gated_mlp", ((4, 64), (64, 96), (64, 96))),
        ("ntrans", ((4, 64),) * 3),
        ("gqa", ((2, 8, 16), (2, 16, 32), (2, 32, 16))),
    ],
)
def test_benchmark_programs_match_eager(name: str, shapes: Any, cache: Path) -> None:
    fn = torch_programs.PROGRAMS[name]

    class M(torch.nn.Module):
        def forward(self, *args: Any) -> Any:
            return fn(*args)

    args = [rand(*s, seed=i) * 0.5 for i, s in enumerate(shapes)]
    fast, backend = compiled(M(), cache_dir=str(cache), time_budget=5, unimproved="ours")
    _close(fast(*args), fn(*args), tol=1e-4)
    assert [s.how for s in backend.reports[0].subgraphs] != ["pytorch"]


def test_no_gpu_runs_eager_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    if torch.cuda.is_available():
        pytest.skip("has a GPU")
    monkeypatch.setattr(backend_module, "_warned", set())
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    m = NormLinear()
    x = rand(4, 64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fast = torch.compile(m, backend="mirage")  # the entry point
        _close(fast(x), m(x))
        _close(fast(rand(8, 64)), m(rand(8, 64)))
    mine = [w for w in caught if "mirage" in str(w.message)]
    assert len(mine) == 1 and "no CUDA device" in str(mine[0].message)


def test_no_importer_runs_eager_with_one_warning_and_caches_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from mirage.tools import from_torch

    def missing() -> None:
        raise from_torch.MissingTorchError(
            "importing PyTorch programs needs torch and torch-mlir (torch_mlir is missing): "
            "pip install 'mirage-xdsl[torch]'"
        )

    monkeypatch.setattr(from_torch, "check_importer", missing)
    monkeypatch.setattr(backend_module, "_warned", set())
    m = NormLinear()
    x = rand(4, 64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fast, backend = compiled(m, cache_dir=str(tmp_path), reference=True)
        _close(fast(x), m(x))
        text = mirage.torch.explain(m, [x], cache_dir=str(tmp_path), reference=True)
    mine = [str(w.message) for w in caught if "mirage" in str(w.message)]
    assert len(mine) == 1 and "torch_mlir is missing" in mine[0], mine
    assert "running PyTorch eagerly" in mine[0]
    assert backend.reports == []  # nothing was cut, searched or asked of the importer
    assert "all of it runs in PyTorch: importing PyTorch programs needs" in text
    assert not (tmp_path / "torch" / "support.json").exists()


def test_the_name_is_registered_from_a_source_tree_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from torch._dynamo.backends import registry

    fns = dict(registry._COMPILER_FNS)  # pyright: ignore[reportPrivateUsage]
    fns.pop("mirage", None)
    monkeypatch.setattr(registry, "_COMPILER_FNS", fns)
    monkeypatch.setattr(registry, "_BACKENDS", dict(registry._BACKENDS))  # pyright: ignore[reportPrivateUsage]
    # installed: Dynamo loads the entry point itself
    assert not backend_module.register_by_name(["mirage", "other"])
    assert "mirage" not in fns
    # a source tree on the path: registered here, once
    assert backend_module.register_by_name([])
    assert registry.lookup_backend("mirage") is backend_module.mirage_backend
    assert not backend_module.register_by_name([])


def test_bad_options_are_one_clear_error() -> None:
    with pytest.raises(OptionError, match="unknown option 'budget'"):
        mirage.torch.optimize(NormLinear(), [rand(4, 64)], budget=3)
    with pytest.raises(OptionError, match="option target: must be one of"):
        mirage.torch.BackendOptions(target="sm_70")


def test_optimize_returns_a_module_that_searched_already(tmp_path: Path) -> None:
    m = NormLinear(tail=False)
    x = rand(4, 64)
    fast = mirage.torch.optimize(m, [x], reference=True, cache_dir=str(tmp_path), time_budget=5)
    assert isinstance(fast, torch.nn.Module)
    assert list((tmp_path / "results").glob("*.json"))
    with torch.no_grad():
        _close(fast(x), m(x))


def test_a_llama_style_decode_step_matches_eager(cache: Path) -> None:
    import e2e  # benchmarks/, on the path through tb_helpers

    shape = e2e.LlamaShape(dim=64, heads=4, kv_len=32, hidden=96)
    torch.manual_seed(0)
    step = e2e.DecodeStep(shape, torch.float32, "cpu").eval()
    x, k, v = torch.randn(1, 64), torch.randn(4, 32, 16), torch.randn(4, 32, 16)
    fast, backend = compiled(step, cache_dir=str(cache), time_budget=3)
    with torch.no_grad():
        _close(fast(x, k, v), step(x, k, v), tol=1e-4)
    subgraphs = backend.reports[0].subgraphs
    assert [s for s in subgraphs if s.how != "pytorch"]
    # The slices of the QKV projection are kernel.slice ops: they no longer cut the step.
    where = {node.split(" = ")[0]: w for node, w, _ in backend.reports[0].nodes}
    assert where["getitem"] != "pytorch" and where["qkv"] != "pytorch"


class _Relu(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return torch.relu(x)


def test_a_subgraph_the_search_cannot_improve_stays_in_pytorch() -> None:
    # one relu of 64 elements: no tiling beats its own kernel (the search completes), and
    # PyTorch runs it as it runs the rest
    x = rand(8, 8)
    fast, backend = compiled(_Relu(), cache_dir="", time_budget=3)
    _close(fast(x), torch.relu(x))
    (sub,) = backend.reports[0].subgraphs
    assert sub.how == "pytorch" and "no μGraph faster" in sub.detail and "unimproved" in sub.detail
    fast, backend = compiled(_Relu(), cache_dir="", time_budget=3, unimproved="ours")
    _close(fast(x), torch.relu(x))
    assert [s.how for s in backend.reports[0].subgraphs] == ["as imported"]
    with pytest.raises(OptionError, match="option unimproved: must be one of pytorch, ours"):
        mirage.torch.BackendOptions(unimproved="eager")
