"""The search report of `superoptimize{report=DIR}`: DIR/report.json and DIR/report.html.

The page is one self-contained file (inline CSS and SVG, no script, nothing fetched): per
function, the best verified model cost over time with every verified candidate, the states
explored and cut by depth and by reason, the units on a timeline of the worker processes,
the segments and compositions tried, and drawings of the program, the winner and the
runners-up (Graphviz's SVG where `dot` is installed, the dot text in any case).

`python -m mirage.passes.pictures.report_page DIR` makes DIR/report.html again from
DIR/report.json (after installing Graphviz, say).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from mirage.passes.pictures import charts
from mirage.passes.pictures.render import RenderError, dot_binary, render

JsonDict = dict[str, Any]
VERSION = 1
CUTS = ("pruned", "rejected", "bounded", "transposed")
"""The counters that count states cut, by reason."""

_STYLE = """
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222;
       margin: 24px auto; max-width: 1320px; padding: 0 16px; }
h1 { font-size: 22px; } h2 { font-size: 19px; border-bottom: 1px solid #ddd; margin-top: 36px; }
h3 { font-size: 16px; margin-top: 24px; }
.summary { background: #f6f8fa; border-radius: 6px; padding: 8px 14px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.chart { background: #fff; border: 1px solid #e3e3e3; border-radius: 4px; }
.chart-title { font-size: 13px; font-weight: 600; }
.axis { stroke: #555; stroke-width: 1; } .grid { stroke: #eee; stroke-width: 1; }
.reference { stroke: #888; stroke-dasharray: 5 4; }
.step { fill: none; stroke: #4e79a7; stroke-width: 2; }
.tick { font-size: 10px; fill: #444; } .label { font-size: 11px; fill: #333; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th { background: #f3f3f3; } td.text { text-align: left; }
.ok { color: #2e7d32; } .no { color: #c62828; }
.drawing { overflow-x: auto; border: 1px solid #e3e3e3; border-radius: 4px; padding: 6px;
           background: #fff; max-height: 1100px; overflow-y: auto; }
.drawing svg { max-width: 100%; height: auto; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; font-size: 12px; max-height: 420px; }
details > summary { cursor: pointer; color: #0b5cad; }
.candidates { display: grid; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr));
              gap: 16px; }
"""


def write_report(directory: Path, functions: Sequence[JsonDict], options: JsonDict) -> None:
    """DIR/report.json and DIR/report.html, each written whole or not at all."""
    data: JsonDict = {"version": VERSION, "options": options, "functions": list(functions)}
    directory.mkdir(parents=True, exist_ok=True)
    _write(directory / "report.json", json.dumps(data, indent=1, allow_nan=False) + "\n")
    _write(directory / "report.html", page(data))


def _write(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


def _us(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:.2f} µs"


def page(data: JsonDict) -> str:
    """The report page of report.json's data."""
    can_render = dot_binary() is not None
    options = data.get("options", {})
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>superoptimize report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>superoptimize report</h1>",
        '<p class="summary">options: '
        + escape(", ".join(f"{k}={v}" for k, v in options.items()))
        + "</p>",
    ]
    functions = data.get("functions", [])
    if not functions:
        parts.append("<p>No function was searched.</p>")
    for f in functions:
        parts.append(f'<h2 id="{escape(str(f["name"]))}">@{escape(str(f["name"]))}</h2>')
        parts.append(_search_section(f, can_render, top=True))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _search_section(f: JsonDict, can_render: bool, top: bool) -> str:
    out: list[str] = []
    if not f.get("searched"):
        out.append("<p>No search ran: no time was left for it.</p>")
        return "\n".join(out)
    out.append(_summary(f))
    out.append('<div class="charts">')
    out.append(_best_chart(f))
    out.append(_depth_chart(f))
    out.append(_reason_chart(f))
    out.append(_unit_chart(f))
    out.append("</div>")
    out.append(_phases_table(f))
    out.append(_candidates_table(f))
    if f.get("segments"):
        out.append(_segments(f, can_render))
    if top:
        out.append(_drawings(f, can_render))
    return "\n".join(out)


def _summary(f: JsonDict) -> str:
    totals: dict[str, int] = f.get("totals", {})
    ranked: list[JsonDict] = f.get("ranked", [])
    baseline = f.get("baseline")
    best = ranked[0]["seconds"] if ranked else None
    gain = f" ({baseline / best:.2f}x)" if best and baseline else ""
    measured = ranked[0].get("measured") if ranked else None
    cut = sum(totals.get(k, 0) for k in CUTS)
    items = [
        f"program (model): {_us(baseline)}",
        f"best verified (model): {_us(best)}{gain}",
        *([f"best measured: {_us(measured)}"] if measured is not None else []),
        f"search: {f.get('elapsed', 0.0):.1f} s, "
        + ("every unit ran to its end" if f.get("complete") else "stopped early (time budget)"),
        f"{len(f.get('units', []))} units",
        f"{totals.get('explored', 0)} states explored, {cut} cut",
        f"{f.get('candidates_seen', 0)} candidates seen, {len(f.get('candidates', []))} verified",
    ]
    if f.get("outcome"):
        items.append(
            "function replaced" if f["outcome"] == "replaced" else "function left unchanged"
        )
    return '<p class="summary">' + " · ".join(escape(i) for i in items) + "</p>"


def _best_chart(f: JsonDict) -> str:
    steps = [(p["time"], p["seconds"] * 1e6) for p in f.get("best_over_time", [])]
    points = [
        charts.Point(
            c["verified_at"] or 0.0,
            c["seconds"] * 1e6,
            "#2e7d32" if c["equivalent"] else "#c62828",
            f"{c['source']}: {_us(c['seconds'])}, "
            + ("equivalent" if c["equivalent"] else f"rejected ({c['verdict']})"),
        )
        for c in f.get("candidates", [])
    ]
    baseline = f.get("baseline")
    return charts.step_chart(
        "best verified model cost over time (dots: verified candidates, red: rejected)",
        steps,
        points,
        max(float(f.get("elapsed", 0.0)), max((p.x for p in points), default=0.0)),
        "seconds since the search began",
        "model cost (µs)",
        baseline * 1e6 if baseline else None,
        "the program",
    )


def _depth_chart(f: JsonDict) -> str:
    rows: list[JsonDict] = f.get("by_depth", [])
    series = [(k, [int(r.get(k, 0)) for r in rows]) for k in ("explored", *CUTS)]
    return charts.grouped_bars(
        "states explored and cut, by depth in the search tree",
        [str(r["depth"]) for r in rows],
        series,
        "depth",
        "states (log)",
    )


def _reason_chart(f: JsonDict) -> str:
    totals: dict[str, int] = f.get("totals", {})
    reasons: dict[str, str] = f.get("reasons", {})
    keys = ["explored", *CUTS, "candidates", "generated", "finished_graphs"]
    rows = [(k, int(totals.get(k, 0)), reasons.get(k, k)) for k in keys]
    return charts.horizontal_bars("the search's counters (cut states by reason)", rows)


def _unit_chart(f: JsonDict) -> str:
    units: list[JsonDict] = f.get("units", [])
    phases = sorted({int(u["phase"]) for u in units})
    color = {p: charts.PALETTE[i % len(charts.PALETTE)] for i, p in enumerate(phases)}
    workers = sorted({int(u["worker"]) for u in units})
    lane = {w: f"worker {i + 1}" for i, w in enumerate(workers)}
    spans = [
        charts.Span(
            lane[int(u["worker"])],
            u["started"],
            u["started"] + u["seconds"],
            color[int(u["phase"])],
            f"unit {u['path']} (phase ≤{u['phase']} kernels): {u['seconds']:.2f} s, "
            f"{u['stats'].get('explored', 0)} explored, {u['found']} found"
            + ("" if u["complete"] else ", stopped"),
        )
        for u in units
    ]
    return charts.timeline(
        "units over time, by worker process",
        spans,
        "seconds since the search began",
        [f"≤{p} kernel ops" for p in phases],
    )


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], text_cols: int = 0) -> str:
    out = ["<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = [
            f'<td class="text">{c}</td>' if i < text_cols else f"<td>{c}</td>"
            for i, c in enumerate(row)
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _phases_table(f: JsonDict) -> str:
    units: list[JsonDict] = f.get("units", [])
    rows: list[list[str]] = []
    for p in f.get("phases", []):
        mine = [u for u in units if u["phase"] == p["kernels"]]
        seconds = sum(u["seconds"] for u in mine)
        bound = p.get("bound")
        rows.append(
            [
                f"up to {p['kernels']} kernel ops",
                f"{p['started']:.1f} s",
                f"{len(mine)} / {p['units']}",
                f"{seconds:.1f} s",
                str(sum(u["stats"].get("explored", 0) for u in mine)),
                escape(_us(bound) if isinstance(bound, float) and bound < 1e9 else "-"),
            ]
        )
    if not rows:
        return ""
    return "<h3>Phases</h3>" + _table(
        ["phase", "began", "units done", "unit time", "explored", "cost bound"], rows, 1
    )


def _candidates_table(f: JsonDict) -> str:
    cands: list[JsonDict] = f.get("candidates", [])
    if not cands:
        return "<h3>Verified candidates</h3><p>None was verified.</p>"
    rows = [
        [
            escape(c["source"]),
            str(c["kernels"]),
            escape(_us(c["seconds"])),
            escape(_us(c.get("measured"))),
            f"{c['verified_at']:.1f} s" if c.get("verified_at") is not None else "-",
            '<span class="ok">equivalent</span>'
            if c["equivalent"]
            else f'<span class="no">rejected</span> {escape(str(c["verdict"]))}',
        ]
        for c in sorted(f["candidates"], key=lambda c: c["seconds"])
    ]
    return "<h3>Verified candidates, by model cost</h3>" + _table(
        ["from", "kernels", "model", "measured", "verified at", "verdict"], rows, 1
    )


def _segments(f: JsonDict, can_render: bool) -> str:
    rows: list[list[str]] = []
    for s in f["segments"]:
        sub: JsonDict = s["search"]
        ranked = sub.get("ranked", [])
        rows.append(
            [
                f"ops {s['ops'][0]}..{s['ops'][1] - 1}",
                str(s["inputs"]),
                str(s["outputs"]),
                escape(_us(sub.get("baseline"))),
                escape(_us(ranked[0]["seconds"] if ranked else None)),
                f"{sub.get('elapsed', 0.0):.1f} s" if sub.get("searched") else "no time left",
                str(len(sub.get("units", []))),
                "yes" if s["used"] else "no",
            ]
        )
    comp_rows = [
        [
            escape(c["kind"]),
            escape(_us(c["seconds"])) if c["seconds"] is not None else "cannot be emitted",
            "-"
            if c["equivalent"] is None
            else (
                '<span class="ok">yes</span>' if c["equivalent"] else '<span class="no">no</span>'
            ),
        ]
        for c in f.get("compositions", [])
    ]
    out = [
        "<h3>Segments</h3>",
        _table(
            ["segment", "inputs", "outputs", "program", "best", "search", "units", "used"],
            rows,
            1,
        ),
    ]
    if comp_rows:
        out.append("<h3>Compositions</h3>")
        out.append(_table(["composition", "model", "equivalent"], comp_rows, 1))
    for s in f["segments"]:
        out.append(
            f"<details><summary>segment ops {s['ops'][0]}..{s['ops'][1] - 1}: its search"
            "</summary>" + _search_section(s["search"], can_render, top=False) + "</details>"
        )
    return "\n".join(out)


def _drawing(title: str, item: JsonDict, can_render: bool) -> str:
    out = [f"<h3>{escape(title)}</h3>"]
    dot_text = item.get("dot")
    if isinstance(dot_text, str):
        svg = None
        if can_render:
            try:
                svg = render(dot_text)
            except RenderError as e:
                out.append(f"<p>{escape(str(e))}</p>")
        if svg is not None:
            start = svg.find("<svg")
            out.append(f'<div class="drawing">{svg[start:] if start >= 0 else svg}</div>')
        else:
            out.append(
                "<p>Graphviz was not installed where this page was made: the dot text "
                "below renders with <code>dot -Tsvg</code>.</p>"
            )
            out.append(f"<pre>{escape(dot_text)}</pre>")
        if svg is not None:
            out.append(
                f"<details><summary>dot text</summary><pre>{escape(dot_text)}</pre></details>"
            )
    mlir = item.get("mlir")
    if isinstance(mlir, str):
        out.append(f"<details><summary>IR</summary><pre>{escape(mlir)}</pre></details>")
    return "\n".join(out)


def _drawings(f: JsonDict, can_render: bool) -> str:
    out = ['<h3>The winner and the runners-up</h3><div class="candidates">']
    ranked: list[JsonDict] = f.get("ranked", [])
    if not ranked:
        out.append("<p>No verified candidate.</p>")
    for r in ranked:
        what = "the winner" if r["rank"] == 1 else f"runner-up {r['rank'] - 1}"
        cost = f"model {_us(r['seconds'])}"
        if r.get("measured") is not None:
            cost += f", measured {_us(r['measured'])}"
        out.append("<div>" + _drawing(f"{what}: {cost}", r, can_render) + "</div>")
    if isinstance(f.get("program"), dict):
        program = f"the program: model {_us(f.get('baseline'))}"
        out.append("<div>" + _drawing(program, f["program"], can_render) + "</div>")
    out.append("</div>")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.exit("usage: python -m mirage.passes.pictures.report_page DIR")
    directory = Path(args[0])
    source = directory / "report.json"
    try:
        data = json.loads(source.read_text())
    except OSError as e:
        sys.exit(f"{source}: error: {e.strerror}")
    except json.JSONDecodeError as e:
        sys.exit(f"{source}:{e.lineno}:{e.colno}: error: not JSON ({e.msg})")
    if not isinstance(data, dict) or data.get("version") != VERSION:  # pyright: ignore[reportUnknownMemberType]
        sys.exit(f"{source}: error: not a version {VERSION} search report")
    _write(directory / "report.html", page(data))  # pyright: ignore[reportUnknownArgumentType]


if __name__ == "__main__":
    main()
