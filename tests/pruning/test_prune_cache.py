"""The answer cache: in memory, across runs in one file, with concurrent writers, and
with a damaged file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mirage.passes.pruning import Pruner, parse_term
from mirage.passes.pruning.cache import AnswerCache

TARGET = parse_term("sum(64, mul(div(x, sqrt(sum(64, mul(x, x)))), w))")
QUERIES = {
    "sum(16, mul(x, w))": True,
    "exp(x)": False,
    "sum(128, mul(x, w))": False,
    "mul(x, x)": True,
}


def test_answers_are_reused_in_memory() -> None:
    pruner = Pruner([TARGET])
    for q in QUERIES:
        pruner.keep_term(parse_term(q))
    decided = pruner.stats.decided
    for q, keep in QUERIES.items():
        assert pruner.keep_term(parse_term(q)) is keep
    assert pruner.stats.decided == decided
    assert pruner.stats.cache_hits == len(QUERIES)
    # A different term with the same canonical form is not decided again.
    assert pruner.keep(parse_term("sum(16, mul(w, x))"))
    assert pruner.stats.decided == decided


def test_answers_persist_across_runs(tmp_path: Path) -> None:
    path = tmp_path / "answers.log"
    first = Pruner([TARGET], cache=path)
    for q, keep in QUERIES.items():
        assert first.keep_term(parse_term(q)) is keep
    second = Pruner([TARGET], cache=path)
    for q, keep in QUERIES.items():
        assert second.keep_term(parse_term(q)) is keep
    assert second.stats.decided == 0
    assert second.stats.disk_hits == len(QUERIES)
    # Another target does not see these answers.
    other = Pruner([parse_term("sum(64, mul(x, w))")], cache=path)
    assert other.cache.loaded == 0


def test_a_truncated_file_loses_only_its_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "answers.log"
    cache = AnswerCache("target", path)
    for i in range(10):
        cache.put(f"query {i}", i % 2 == 0)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 7])  # cut the last record in half
    reread = AnswerCache("target", path)
    assert reread.loaded == 9
    assert reread.skipped_lines == 1
    assert reread.get("query 8") is True
    assert reread.get("query 9") is None
    reread.put("query 9", False)  # a new record after a torn line starts a line of its own
    assert AnswerCache("target", path).loaded == 10


def test_garbage_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "answers.log"
    cache = AnswerCache("target", path)
    cache.put("q", True)
    good = path.read_bytes()
    flipped = good.replace(b" 1 ", b" 0 ")  # the checksum no longer matches
    path.write_bytes(b"\x00\xffnot a record\n" + flipped + good + b"12 34\n")
    reread = AnswerCache("target", path)
    assert reread.get("q") is True
    assert reread.loaded == 1
    assert reread.skipped_lines == 3


_WRITER = """
import sys
from mirage.passes.pruning.cache import AnswerCache
path, worker, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cache = AnswerCache("shared target", path)
for i in range(count):
    cache.put(f"worker {worker} query {i}", (i + worker) % 3 == 0)
"""


def test_two_processes_write_one_file(tmp_path: Path) -> None:
    path = tmp_path / "answers.log"
    count = 300
    # Two separate interpreters writing at the same time, as two searches would.
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(w), str(count)])
        for w in range(2)
    ]
    for p in procs:
        assert p.wait(timeout=120) == 0
    cache = AnswerCache("shared target", path)
    assert cache.skipped_lines == 0
    assert cache.loaded == 2 * count
    for w in range(2):
        for i in range(count):
            assert cache.get(f"worker {w} query {i}") is ((i + w) % 3 == 0)
