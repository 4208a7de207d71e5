"""`cache=DIR`: a repeat run with the same program, options and target answers from disk
without searching; other options or a damaged entry search again."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.builder import KernelBuilder
from mirage.passes.superoptimize import search as search_module
from mirage.passes.superoptimize.module_pass import SuperoptimizePass
from mirage.tools.registry import make_context


def _module() -> ModuleOp:
    b = KernelBuilder()
    x = b.input((8, 64), "f32")
    e = b.exp(x)
    b.output(b.div(e, b.reduce_sum(e, 1)))
    return b.build("softmax")


def _run(cache: Path, **options: object) -> str:
    module = _module()
    opts: dict[str, object] = {"time_budget": 60, "workers": 1, "cache": str(cache), **options}
    SuperoptimizePass(**opts).apply(make_context(), module)  # type: ignore[arg-type]
    return str(module)


def _no_search(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def refuse(self: object) -> object:
        calls.append(1)
        raise AssertionError("searched although the answer is cached")

    monkeypatch.setattr(search_module.Search, "run", refuse)
    return calls


def test_a_repeat_run_answers_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _run(tmp_path)
    assert "kernel.graph" in first
    assert len(list((tmp_path / "results").glob("*.json"))) == 1
    calls = _no_search(monkeypatch)
    assert _run(tmp_path) == first
    assert not calls


def test_other_options_or_a_damaged_entry_search_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(tmp_path)
    calls = _no_search(monkeypatch)
    with pytest.raises(AssertionError, match="searched"):
        _run(tmp_path, max_block_ops=8)
    (entry,) = (tmp_path / "results").glob("*.json")
    entry.write_text(entry.read_text()[:40])  # cut short, as by a crash mid-write
    with pytest.raises(AssertionError, match="searched"):
        _run(tmp_path)
    assert len(calls) == 2
