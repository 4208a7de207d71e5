"""superoptimize{report=DIR}: what the search did, as report.json and a self-contained page."""

from __future__ import annotations

import itertools
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from superoptimize.so_helpers import build
from xdsl.utils.exceptions import PassFailedException

from conftest import parse_module
from mirage.dialects.hardware import SM_90
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.pictures.report_page import page
from mirage.passes.superoptimize.module_pass import PrunerFactory, SuperoptimizePass
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.passes.superoptimize.search_record import REASONS, SearchRecord
from mirage.tools.registry import make_context

SOFTMAX = """
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""


def _report(tmp_path: Path, text: str = SOFTMAX, **options: Any) -> dict[str, Any]:
    module = parse_module(text)
    SuperoptimizePass(
        **{"time_budget": 60, "workers": 1, "report": str(tmp_path), **options}
    ).apply(make_context(), module)
    return json.loads((tmp_path / "report.json").read_text())


def _check_function(f: dict[str, Any]) -> None:
    assert f["searched"] and f["outcome"] == "replaced"
    assert f["baseline"] > 0 and f["elapsed"] > 0
    # the counters by depth add up to the totals, reason by reason
    sums = dict.fromkeys(REASONS, 0)
    for row in f["by_depth"]:
        for k, v in row.items():
            if k != "depth":
                sums[k] += v
    assert sums == f["totals"]
    assert f["totals"]["explored"] > 0 and f["totals"]["pruned"] > 0
    depths = [row["depth"] for row in f["by_depth"]]
    assert depths == sorted(set(depths)) and min(depths) >= 1
    # every unit's counters and times
    assert f["units"] and f["phases"]
    for u in f["units"]:
        assert u["seconds"] >= 0 and u["started"] >= 0 and u["arrived"] >= u["started"]
        assert u["phase"] in {p["kernels"] for p in f["phases"]}
        assert set(u["stats"]) >= {"explored", "pruned", "rejected", "bounded"}
    # the best verified cost only goes down, over time that only goes on
    best = f["best_over_time"]
    assert best
    assert all(a["time"] <= b["time"] for a, b in itertools.pairwise(best))
    assert all(a["seconds"] > b["seconds"] for a, b in itertools.pairwise(best))
    # every verified candidate, with its model cost and verdict; the winner is the best
    cands = f["candidates"]
    assert cands and all(c["equivalent"] in (True, False) and c["seconds"] > 0 for c in cands)
    assert all(c["verified_at"] is not None and c["verify_seconds"] >= 0 for c in cands)
    winners = [c["seconds"] for c in cands if c["equivalent"]]
    ranked = f["ranked"]
    assert ranked[0]["seconds"] == min(winners) == best[-1]["seconds"]
    assert [r["rank"] for r in ranked] == list(range(1, len(ranked) + 1))
    assert all(a["seconds"] <= b["seconds"] for a, b in itertools.pairwise(ranked))
    for r in ranked:
        assert r["dot"].startswith("digraph") and "cluster_graph" in r["dot"]
        parse_module(r["mlir"])
    assert "kernel.exp" in f["program"]["mlir"] or f["program"]["dot"].startswith("digraph")


def test_report_json_of_a_small_search(tmp_path: Path) -> None:
    data = _report(tmp_path)
    assert data["version"] == 1 and data["options"]["time_budget"] == 60
    (f,) = data["functions"]
    assert f["name"] == "softmax"
    _check_function(f)
    assert {c["source"] for c in f["candidates"]} <= {"seed", "unit", "unit, inlined"}
    assert all(c["measured"] is None for c in f["candidates"])
    assert (tmp_path / "report.html").exists()


def test_units_in_worker_processes_report_their_records(tmp_path: Path) -> None:
    (f,) = _report(tmp_path, workers=2)["functions"]
    _check_function(f)
    assert os.getpid() not in {u["worker"] for u in f["units"]}


def test_report_runs_the_search_even_where_the_cache_knows(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _report(tmp_path / "a", cache=str(cache))["functions"][0]
    again = _report(tmp_path / "b", cache=str(cache))["functions"][0]
    assert first["searched"] and again["searched"]
    assert again["ranked"][0]["seconds"] == first["ranked"][0]["seconds"]


def _long(b: Any) -> None:
    # eight kernel ops: searched segment by segment, then as a whole
    x, g = b.input((8, 64)), b.input((8, 64))
    e = b.exp(x)
    p = b.div(e, b.reduce_sum(e, 1))
    q = b.mul(p, g)
    b.output(b.div(q, b.sqrt(b.reduce_sum(b.square(q), 1))))


def test_segments_and_compositions_are_recorded() -> None:
    program = build(_long)
    assert len(program.ops) > 6
    record = SearchRecord("long")
    options = SearchOptions(time_budget=12.0, workers=1, target=SM_90, keep=2)
    Search(program, options, PrunerFactory(None), Verifier(program), record=record).run()
    f = record.to_json()
    segments = f["segments"]
    assert len(segments) >= 2
    assert segments[0]["ops"][0] == 0 and segments[-1]["ops"][1] == len(program.ops)
    for a, b in itertools.pairwise(segments):
        assert a["ops"][1] == b["ops"][0]
    searched = [s for s in segments if s["search"]["searched"]]
    assert searched
    for s in searched:
        sub = s["search"]
        assert sub["baseline"] > 0 and "program" not in sub
        assert s["began"] is not None and s["began"] >= 0
    # the segments' counters are part of the whole search's
    assert f["totals"]["explored"] >= sum(s["search"]["totals"]["explored"] for s in segments)
    # a segment's μGraph beats the segment as written: the composition is tried, verified
    assert any(s["used"] for s in segments)
    kinds = [c["kind"] for c in f["compositions"]]
    assert kinds and kinds[0] == "segments"
    assert all(c["equivalent"] is not None for c in f["compositions"] if c["seconds"])
    assert "segments" in {c["source"] for c in f["candidates"]}
    html = page({"version": 1, "options": {}, "functions": [f]})
    assert "<h3>Segments</h3>" in html and "<h3>Compositions</h3>" in html
    assert html.count("its search</summary>") == len(segments)


_EXTERNAL = re.compile(r"""(<script[^>]*\bsrc=|<link\b|@import|url\(|\b(src|href)=["']?https?:)""")


def test_the_page_is_self_contained_and_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _report(tmp_path)
    html = (tmp_path / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert not _EXTERNAL.search(html)
    # the charts: cost over time, states by depth, counters by reason, units over time
    for title in (
        "best verified model cost over time",
        "states explored and cut, by depth",
        "cut states by reason",
        "units over time",
    ):
        assert title in html
    assert html.count("<svg") >= 4 and "<polyline" in html and "<rect" in html
    # without Graphviz, the winner's dot text is in the page
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    bare = page(data)
    assert "Graphviz was not installed" in bare
    assert "digraph &quot;softmax_1&quot;" in bare
    assert not _EXTERNAL.search(bare)


def test_the_page_embeds_graphviz_svg_where_dot_exists(tmp_path: Path) -> None:
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    html = page(_report(tmp_path))
    assert html.count('<div class="drawing"><svg') >= 2  # the winner and the program


def test_the_page_is_made_again_from_the_json(tmp_path: Path) -> None:
    from mirage.passes.pictures.report_page import main

    _report(tmp_path)
    page_file = tmp_path / "report.html"
    first = page_file.read_text()
    page_file.unlink()
    main([str(tmp_path)])
    assert page_file.read_text() == first
    (tmp_path / "report.json").write_text("{")
    with pytest.raises(SystemExit, match=r"report.json:1:2: error: not JSON"):
        main([str(tmp_path)])


def test_unwritable_report_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(PassFailedException, match=r"^superoptimize: cannot write the report"):
        _report(blocker / "report")


@pytest.mark.gpu
def test_profile_puts_measured_times_in_the_report(tmp_path: Path) -> None:
    (f,) = _report(tmp_path, profile=True)["functions"]
    assert all(r["measured"] is not None and r["measured"] > 0 for r in f["ranked"])
    measured = [c for c in f["candidates"] if c["measured"] is not None]
    assert len(measured) == len(f["ranked"])
