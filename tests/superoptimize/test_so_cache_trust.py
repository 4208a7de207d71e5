"""The caches cannot lie: a results entry changes the output only once its μGraph is
verified against the program; whatever else an entry holds is a miss; an unusable cache
folder is one clear error; `~` means the home folder; the pruning log keeps one line per
answer and stays bounded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.builder import KernelBuilder
from mirage.passes.pruning import cache as pruning_cache
from mirage.passes.pruning.cache import AnswerCache
from mirage.passes.superoptimize import search as search_module
from mirage.passes.superoptimize.module_pass import SuperoptimizePass
from mirage.tools.registry import make_context
from tool_runner import opt

SOFTMAX = """
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""
OPTIONS = "time-budget=30 workers=1"


def _module() -> ModuleOp:
    b = KernelBuilder()
    x = b.input((8, 64), "f32")
    e = b.exp(x)
    b.output(b.div(e, b.reduce_sum(e, 1)))
    return b.build("softmax")


def _run(cache: str | Path) -> str:
    module = _module()
    SuperoptimizePass(time_budget=30, workers=1, cache=str(cache)).apply(make_context(), module)
    return str(module)


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache folder holding the answer for the softmax, and that answer."""
    folder = tmp_path_factory.mktemp("cache")
    return folder, _run(folder)


def _copy(cached: tuple[Path, str], tmp_path: Path) -> tuple[Path, Path]:
    import shutil

    folder = tmp_path / "cache"
    shutil.copytree(cached[0], folder)
    (entry,) = (folder / "results").glob("*.json")
    return folder, entry


def _no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: object) -> object:
        raise AssertionError("searched")

    monkeypatch.setattr(search_module.Search, "run", refuse)


def test_an_edited_entry_is_verified_and_not_used(cached: tuple[Path, str], tmp_path: Path) -> None:
    folder, entry = _copy(cached, tmp_path)
    text = entry.read_text()
    assert "block.div" in text
    entry.write_text(text.replace("block.div", "block.mul"))  # no longer the softmax
    program = tmp_path / "softmax.mlir"
    program.write_text(SOFTMAX)
    fresh = opt(str(program), "-p", f"superoptimize{{{OPTIONS}}}")
    result = opt(str(program), "-p", f'superoptimize{{{OPTIONS} cache="{folder}"}}')
    assert result.status == 0, result.err
    assert "the cached μGraph is not equivalent to the function; searching again" in result.err
    assert "block.mul" not in result.out
    assert result.out == fresh.out


def test_an_intact_entry_answers_without_a_search(
    cached: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, _ = _copy(cached, tmp_path)
    _no_search(monkeypatch)
    assert _run(folder) == cached[1]


def _edit(data: dict[str, object], kind: str) -> object:
    if kind == "list":
        return [data]
    if kind == "no functions":
        return {k: v for k, v in data.items() if k != "functions"}
    if kind == "no baseline":
        return {k: v for k, v in data.items() if k != "baseline"}
    if kind == "bad mlir":
        return {**data, "functions": ["func.func @ugraph( {"]}
    if kind == "not text":
        return {**data, "functions": [17]}
    if kind == "baseline not a number":
        return {**data, "baseline": "fast"}
    if kind == "seconds not numbers":
        return {**data, "seconds": ["a"] * len(data["seconds"])}  # type: ignore[arg-type]
    if kind == "lengths differ":
        return {**data, "seconds": []}
    if kind == "stats a list":
        return {**data, "stats": [1, 2]}
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    [
        "list",
        "no functions",
        "no baseline",
        "bad mlir",
        "not text",
        "baseline not a number",
        "seconds not numbers",
        "lengths differ",
        "stats a list",
        "directory",
        "not json",
        "empty",
    ],
)
def test_a_malformed_entry_is_a_miss(
    cached: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    folder, entry = _copy(cached, tmp_path)
    if kind == "directory":
        entry.unlink()
        entry.mkdir()
    elif kind == "not json":
        entry.write_text("{ not json")
    elif kind == "empty":
        entry.write_text("")
    else:
        entry.write_text(json.dumps(_edit(json.loads(entry.read_text()), kind)))
    _no_search(monkeypatch)
    with pytest.raises(AssertionError, match="searched"):
        _run(folder)


def test_an_entry_that_cannot_be_written_is_a_remark(
    cached: tuple[Path, str], tmp_path: Path
) -> None:
    folder, entry = _copy(cached, tmp_path)
    entry.unlink()
    entry.mkdir()  # the search runs, then its answer cannot replace a directory
    program = tmp_path / "softmax.mlir"
    program.write_text(SOFTMAX)
    result = opt(str(program), "-p", f'superoptimize{{{OPTIONS} cache="{folder}"}}')
    assert result.status == 0, result.err
    assert "the result was not cached" in result.err
    assert "kernel.graph" in result.out


@pytest.mark.parametrize("kind", ["file", "pruning log a folder", "results a file"])
def test_an_unusable_cache_folder_is_one_error(tmp_path: Path, kind: str) -> None:
    program = tmp_path / "softmax.mlir"
    program.write_text(SOFTMAX)
    folder = tmp_path / "cache"
    if kind == "file":
        folder.write_text("")
    elif kind == "pruning log a folder":
        (folder / "pruning.log").mkdir(parents=True)
    else:
        folder.mkdir()
        (folder / "results").write_text("")
    result = opt(str(program), "-p", f'superoptimize{{{OPTIONS} cache="{folder}"}}')
    assert result.status == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and f"error: superoptimize: cache={folder}" in lines[0], result.err
    assert "internal error" not in result.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_cache_folder_is_one_error(tmp_path: Path) -> None:
    program = tmp_path / "softmax.mlir"
    program.write_text(SOFTMAX)
    folder = tmp_path / "cache"
    (folder / "results").mkdir(parents=True)
    folder.chmod(0o500)
    try:
        result = opt(str(program), "-p", f'superoptimize{{{OPTIONS} cache="{folder}"}}')
    finally:
        folder.chmod(0o700)
    assert result.status == 1 and "is not writable" in result.err


def test_tilde_is_the_home_folder(
    cached: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    _run("~/mirage-cache")
    assert list((home / "mirage-cache" / "results").glob("*.json"))
    assert (home / "mirage-cache" / "pruning.log").is_file()
    assert list(work.iterdir()) == []


def test_the_pruning_log_holds_each_answer_once(tmp_path: Path) -> None:
    log = tmp_path / "pruning.log"
    first, second = AnswerCache("target", log), AnswerCache("target", log)
    for i in range(20):
        first.put(f"query {i}", i % 2 == 0)
    for i in range(20):  # a second worker that found the same answers
        second.put(f"query {i}", i % 2 == 0)
    assert len(log.read_bytes().splitlines()) == 20
    again = AnswerCache("target", log)
    assert again.loaded == 20 and again.get("query 4") is True


def test_the_pruning_log_stays_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pruning_cache, "MAX_LOG_BYTES", 4000)
    log = tmp_path / "pruning.log"
    cache = AnswerCache("target", log)
    for i in range(400):
        cache.put(f"query {i}", True)
    assert log.stat().st_size <= 4000
    kept = AnswerCache("target", log)
    assert kept.get("query 399") is True  # the newest answers are kept
    assert kept.skipped_lines == 0
