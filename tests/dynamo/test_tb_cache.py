"""Caches and shape families: a second process with the same model does not search; a new
batch size of a searched program is re-tiled and re-verified, not searched, within 5 s;
a full search only when asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from dynamo.tb_helpers import NormLinear, compiled, rand  # noqa: E402

from mirage.dialects.hardware import SM_90  # noqa: E402
from mirage.dialects.ugraph.from_ir import graph_from_func  # noqa: E402
from mirage.passes.equivalence.verifier import Verifier  # noqa: E402
from mirage.passes.superoptimize.family import family_key, retile  # noqa: E402

HERE = Path(__file__).parent
FOUND = HERE.parents[1] / "benchmarks" / "found"

SCRIPT = """
import json, logging, sys
sys.path.insert(0, {here!r})
from tb_helpers import NormLinear, compiled, rand
import torch
m = NormLinear(tail=False)
fast, backend = compiled(m, cache_dir={cache!r}, time_budget=5)
with torch.no_grad():
    ok = torch.allclose(fast(rand(4, 64)), m(rand(4, 64)), rtol=1e-5, atol=1e-5)
print(json.dumps({{"how": [s.how for s in backend.reports[0].subgraphs], "ok": bool(ok)}}))
"""


def _run(cache: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(here=str(HERE), cache=str(cache))],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=600,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_second_process_does_not_search(tmp_path: Path) -> None:
    first = _run(tmp_path)
    second = _run(tmp_path)
    assert first == {"how": ["searched"], "ok": True}
    assert second == {"how": ["cache"], "ok": True}
    assert (tmp_path / "torch" / "support.json").exists()


def test_a_new_batch_size_is_retiled_not_searched(tmp_path: Path) -> None:
    m = NormLinear(tail=False)
    fast, backend = compiled(m, cache_dir=str(tmp_path), time_budget=5)
    with torch.no_grad():
        for batch in (4, 16, 8):
            x = rand(batch, 64, seed=batch)
            got = fast(x)
            assert torch.allclose(got, m(x), rtol=1e-5, atol=1e-5)
    hows = [r.subgraphs[0].how for r in backend.reports]
    assert hows == ["searched", "retiled", "retiled"]
    for r in backend.reports[1:]:
        assert r.seconds < 5.0, str(r)
    # Asked for, every shape is searched in full.
    fresh, full = compiled(m, cache_dir=str(tmp_path / "other"), time_budget=5, full_search=True)
    with torch.no_grad():
        for batch in (4, 16):
            fresh(rand(batch, 64))
    assert [r.subgraphs[0].how for r in full.reports] == ["searched", "searched"]


def test_a_new_process_finds_the_family_on_disk(tmp_path: Path) -> None:
    m = NormLinear(tail=False)
    fast, _ = compiled(m, cache_dir=str(tmp_path), time_budget=5)
    with torch.no_grad():
        fast(rand(4, 64))
    again, backend = compiled(m, cache_dir=str(tmp_path), time_budget=5)
    with torch.no_grad():
        x = rand(32, 64)
        assert torch.allclose(again(x), m(x), rtol=1e-5, atol=1e-5)
    assert backend.reports[0].subgraphs[0].how == "retiled"
    assert list((tmp_path / "torch" / "families").glob("*.json"))


def _found(stem: str) -> Any:
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.tools.registry import make_context

    module = Parser(make_context(), (FOUND / f"{stem}.mlir").read_text()).parse_module()
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
    return graph_from_func(funcs["program"]), graph_from_func(funcs["ugraph"])


def _program(name: str, shapes: Any) -> Any:
    from dynamo.tb_helpers import torch_programs
    from xdsl.dialects.func import FuncOp

    from mirage.tools.from_torch import import_module

    args = [torch.zeros(s, dtype=torch.float16) for s in shapes]
    module = import_module(torch_programs.PROGRAMS[name], args)
    (func,) = [f for f in module.ops if isinstance(f, FuncOp)]
    return graph_from_func(func)


def test_a_found_benchmark_ugraph_retiles_to_other_batches() -> None:
    program, ugraph = _found("ntrans_b1")
    new = _program("ntrans", ((32, 4096),) * 3)
    assert family_key(new) == family_key(program)
    began = time.time()
    tiled = retile(ugraph, new, SM_90)
    assert tiled is not None
    assert Verifier(new).verify(tiled).equivalent
    assert time.time() - began < 5.0
    assert tiled.ops[0].ints_attr("grid") != ugraph.ops[0].ints_attr("grid")


def test_a_structure_that_does_not_fit_is_refused() -> None:
    _, ugraph = _found("ntrans_b1")
    other_rank = _program("ntrans", ((2, 4, 4096),) * 3)
    assert family_key(other_rank) != family_key(_found("ntrans_b1")[0])
    assert retile(ugraph, other_rank, SM_90) is None
    # The loop walks the reduction dim in tiles of 16..512 elements: a prime extent has none.
    _, walks = _found("rmsnorm_linear_b1")
    prime = _program("rmsnorm_linear", ((2, 4093), (4093, 6144)))
    assert retile(walks, prime, SM_90) is None
    assert retile(walks, _program("rmsnorm_linear", ((2, 4096), (4096, 512))), SM_90)


class _Relu(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return torch.relu(x)


def test_a_cached_unimproved_result_stays_in_pytorch(tmp_path: Path) -> None:
    # a second backend on the same cache finds the search's verdict (nothing beats the
    # program: one relu of 64 elements) and leaves the subgraph to PyTorch, as the search
    # did, not to our kernels
    x = rand(8, 8)
    for detail in ("no μGraph faster", "from the cache: no μGraph faster"):
        fast, backend = compiled(_Relu(), cache_dir=str(tmp_path), time_budget=3)
        assert torch.equal(fast(x), torch.relu(x))
        (sub,) = backend.reports[0].subgraphs
        assert sub.how == "pytorch" and detail in sub.detail


def test_a_damaged_support_file_is_asked_again(tmp_path: Path) -> None:
    from mirage.torch.capability import SUPPORT_VERSION, Capability

    path = tmp_path / "torch" / "support.json"
    path.parent.mkdir(parents=True)
    # the current version, but an entry of an older shape (no op kinds)
    path.write_text(json.dumps({"version": SUPPORT_VERSION, "answers": {"k": [True, "", 1]}}))
    capability = Capability(str(tmp_path))
    assert capability.answers == {}  # nothing half-read: every node is asked again


def test_a_program_built_by_other_lowering_code_is_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built programs are kept by μGraph, arch and the lowering's code: one built before a
    change of the code generator is not taken for one built by it."""
    from mirage.lowering import fingerprint
    from mirage.torch.runner import built_program
    from tests.conftest import FIXTURES, get_func, parse_module

    module = parse_module((FIXTURES / "rmsnorm_linear_small.mlir").read_text())
    graph = graph_from_func(get_func(module, "ugraph"))
    programs = tmp_path / "torch" / "programs"
    first = built_program(graph, "sm_90a", str(tmp_path))
    (path,) = programs.glob("*.json")
    stamp = path.stat().st_mtime_ns
    assert built_program(graph, "sm_90a", str(tmp_path)).ptx == first.ptx
    assert [p.stat().st_mtime_ns for p in programs.glob("*.json")] == [stamp]  # the cache's
    monkeypatch.setattr(fingerprint, "lowering_fingerprint", lambda: "other code")
    built_program(graph, "sm_90a", str(tmp_path))
    assert len(list(programs.glob("*.json"))) == 2
