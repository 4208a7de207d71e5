"""Small charts as inline SVG text, for a page that must open without a network: a step
line with points, grouped bars over a log scale, horizontal bars, and a timeline of lanes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 640
HEIGHT = 270
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 44, 44
PALETTE = ("#4e79a7", "#e15759", "#f28e2b", "#76b7b2", "#59a14f", "#b07aa1", "#9c755f")


@dataclass(frozen=True)
class Scale:
    lo: float
    hi: float
    a: float
    """Screen coordinate of lo."""
    b: float
    """Screen coordinate of hi."""
    log: bool = False

    def __call__(self, v: float) -> float:
        if self.log:
            lo, hi, v = math.log10(self.lo), math.log10(self.hi), math.log10(max(v, self.lo))
        else:
            lo, hi = self.lo, self.hi
        t = 0.0 if hi == lo else (v - lo) / (hi - lo)
        return self.a + t * (self.b - self.a)

    def ticks(self) -> list[float]:
        if self.log:
            first, last = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            return [10.0**k for k in range(first, last + 1) if self.lo <= 10.0**k <= self.hi]
        span = self.hi - self.lo
        if span <= 0:
            return [self.lo]
        raw = span / 5
        step = 10 ** math.floor(math.log10(raw))
        for m in (1, 2, 5, 10):
            if raw <= m * step:
                step *= m
                break
        start = math.ceil(self.lo / step) * step
        out: list[float] = []
        v = start
        while v <= self.hi + step * 1e-9:
            out.append(round(v, 12))
            v += step
        return out


def linear(lo: float, hi: float, a: float, b: float) -> Scale:
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    return Scale(lo, hi, a, b)


def logarithmic(lo: float, hi: float, a: float, b: float) -> Scale:
    lo = 10.0 ** math.floor(math.log10(max(lo, 1e-300)))
    hi = 10.0 ** math.ceil(math.log10(max(hi, lo * 10)))
    return Scale(lo, hi, a, b, log=True)


def number(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) < 1e4 and v == int(v):
        return str(int(v))
    if abs(v) >= 1e4 or abs(v) < 1e-2:
        exponent = math.floor(math.log10(abs(v)))
        mantissa = v / 10**exponent
        return f"{mantissa:g}e{exponent}" if mantissa != 1 else f"1e{exponent}"
    return f"{v:.3g}"


def _text(x: float, y: float, text: str, anchor: str = "start", cls: str = "tick") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def _frame(title: str, body: list[str], height: int = HEIGHT) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" class="chart" role="img">'
        f"<title>{escape(title)}</title>"
        f'<text x="{LEFT}" y="16" class="chart-title">{escape(title)}</text>'
        + "".join(body)
        + "</svg>"
    )


def _axes(x: Scale | None, y: Scale, x_label: str, y_label: str, height: int = HEIGHT) -> list[str]:
    bottom = height - BOTTOM
    out = [
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" class="axis"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}" class="axis"/>',
    ]
    for t in x.ticks() if x is not None else []:
        assert x is not None
        px = x(t)
        out.append(
            f'<line x1="{px:.1f}" y1="{bottom}" x2="{px:.1f}" y2="{bottom + 4}" class="axis"/>'
        )
        out.append(_text(px, bottom + 16, number(t), "middle"))
    for t in y.ticks():
        py = y(t)
        out.append(
            f'<line x1="{LEFT}" y1="{py:.1f}" x2="{WIDTH - RIGHT}" y2="{py:.1f}" class="grid"/>'
        )
        out.append(_text(LEFT - 6, py + 4, number(t), "end"))
    out.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{height - 8}" class="label" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    out.append(
        f'<text x="14" y="{(TOP + bottom) / 2}" class="label" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + bottom) / 2})">{escape(y_label)}</text>'
    )
    return out


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    color: str
    tip: str


def step_chart(
    title: str,
    steps: Sequence[tuple[float, float]],
    points: Sequence[Point],
    x_max: float,
    x_label: str,
    y_label: str,
    reference: float | None = None,
    reference_label: str = "",
) -> str:
    """A step line (each value holds until the next) over scattered points, with a
    dashed reference line."""
    ys = [y for _, y in steps] + [p.y for p in points] + ([reference] if reference else [])
    ys = [y for y in ys if y > 0]
    if not ys:
        return _frame(title, [f'<text x="{LEFT}" y="60" class="label">nothing to plot</text>'])
    x = linear(0.0, max(x_max, 1e-9), LEFT, WIDTH - RIGHT)
    lo, hi = min(ys), max(ys)
    y = (
        logarithmic(lo, hi, HEIGHT - BOTTOM, TOP)
        if hi / lo > 5
        else linear(lo * 0.9, hi * 1.05, HEIGHT - BOTTOM, TOP)
    )
    body = _axes(x, y, x_label, y_label)
    if reference:
        py = y(reference)
        body.append(
            f'<line x1="{LEFT}" y1="{py:.1f}" x2="{WIDTH - RIGHT}" y2="{py:.1f}" '
            'class="reference"/>' + _text(WIDTH - RIGHT - 4, py - 4, reference_label, "end")
        )
    for p in points:
        body.append(
            f'<circle cx="{x(p.x):.1f}" cy="{y(p.y):.1f}" r="3.5" fill="{p.color}" '
            f'fill-opacity="0.75"><title>{escape(p.tip)}</title></circle>'
        )
    if steps:
        coords: list[str] = []
        for i, (sx, sy) in enumerate(steps):
            if i:
                coords.append(f"{x(sx):.1f},{y(steps[i - 1][1]):.1f}")
            coords.append(f"{x(sx):.1f},{y(sy):.1f}")
        coords.append(f"{x(x_max):.1f},{y(steps[-1][1]):.1f}")
        body.append(f'<polyline points="{" ".join(coords)}" class="step"/>')
    return _frame(title, body)


def grouped_bars(
    title: str,
    groups: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    x_label: str,
    y_label: str,
) -> str:
    """Bars of counts, one group per entry of `groups`, one bar per series, on a log
    scale (counts of states span several orders of magnitude)."""
    values = [v for _, vs in series for v in vs if v > 0]
    if not groups or not values:
        return _frame(title, [f'<text x="{LEFT}" y="60" class="label">nothing to plot</text>'])
    y = logarithmic(1.0, max(values), HEIGHT - BOTTOM, TOP)
    x = linear(0, len(groups), LEFT, WIDTH - RIGHT)
    body = _axes(None, y, x_label, y_label)  # the groups' names stand for x ticks
    width = (x(1) - x(0)) * 0.8 / max(1, len(series))
    for g, name in enumerate(groups):
        gx = x(g) + (x(1) - x(0)) * 0.1
        body.append(
            f'<text x="{x(g + 0.5):.1f}" y="{HEIGHT - BOTTOM + 16}" class="tick" '
            f'text-anchor="middle">{escape(name)}</text>'
        )
        for s, (label, vs) in enumerate(series):
            v = vs[g]
            if v <= 0:
                continue
            top = y(v)
            body.append(
                f'<rect x="{gx + s * width:.1f}" y="{top:.1f}" width="{max(width - 1, 1):.1f}" '
                f'height="{HEIGHT - BOTTOM - top:.1f}" fill="{PALETTE[s % len(PALETTE)]}">'
                f"<title>{escape(f'{label} at {x_label} {name}: {v}')}</title></rect>"
            )
    body.append(_legend([label for label, _ in series]))
    return _frame(title, body)


def _legend(labels: Sequence[str]) -> str:
    out: list[str] = []
    px = LEFT + 8.0
    for i, label in enumerate(labels):
        out.append(
            f'<rect x="{px:.0f}" y="{TOP - 20}" width="10" height="10" '
            f'fill="{PALETTE[i % len(PALETTE)]}"/>'
            f'<text x="{px + 14:.0f}" y="{TOP - 11}" class="tick">{escape(label)}</text>'
        )
        px += 22 + 6.5 * len(label)
    return "".join(out)


def horizontal_bars(title: str, rows: Sequence[tuple[str, int, str]]) -> str:
    """One bar per (label, count, description), on a log scale."""
    values = [v for _, v, _ in rows if v > 0]
    height = TOP + 22 * len(rows) + BOTTOM
    if not values:
        return _frame(title, [f'<text x="{LEFT}" y="60" class="label">nothing to plot</text>'])
    left = 130
    x = logarithmic(1.0, max(values), left, WIDTH - RIGHT - 60)
    body: list[str] = []
    for i, (label, v, tip) in enumerate(rows):
        py = TOP + 22 * i
        w = x(v) - left if v > 0 else 0
        body.append(
            _text(left - 6, py + 13, label, "end")
            + f'<rect x="{left}" y="{py + 2}" width="{max(w, 0):.1f}" height="16" '
            f'fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(tip)}</title></rect>'
            f'<text x="{left + max(w, 0) + 4:.1f}" y="{py + 14}" class="tick">{v}</text>'
        )
    return _frame(title, body, height)


@dataclass(frozen=True)
class Span:
    lane: str
    start: float
    end: float
    color: str
    tip: str


def timeline(title: str, spans: Sequence[Span], x_label: str, legend: Sequence[str] = ()) -> str:
    """Spans in lanes (one lane per worker, say) over time."""
    lanes = sorted({s.lane for s in spans})
    if not spans:
        return _frame(title, [f'<text x="{LEFT}" y="60" class="label">nothing to plot</text>'])
    lane_h = 18
    height = TOP + 10 + lane_h * len(lanes) + BOTTOM
    x = linear(
        min(0.0, min(s.start for s in spans)), max(s.end for s in spans), LEFT, WIDTH - RIGHT
    )
    body: list[str] = []
    bottom = height - BOTTOM
    body.append(
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" class="axis"/>'
    )
    for t in x.ticks():
        body.append(_text(x(t), bottom + 16, number(t), "middle"))
    body.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{height - 8}" class="label" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    for i, lane in enumerate(lanes):
        body.append(
            f'<text x="{LEFT - 6}" y="{TOP + 10 + lane_h * i + 13}" class="tick" '
            f'text-anchor="end">{escape(lane)}</text>'
        )
    row = {lane: i for i, lane in enumerate(lanes)}
    for s in spans:
        py = TOP + 10 + lane_h * row[s.lane]
        w = max(x(s.end) - x(s.start), 0.8)
        body.append(
            f'<rect x="{x(s.start):.1f}" y="{py + 2}" width="{w:.1f}" height="{lane_h - 4}" '
            f'fill="{s.color}" stroke="#fff" stroke-width="0.5">'
            f"<title>{escape(s.tip)}</title></rect>"
        )
    if legend:
        body.append(_legend(legend))
    return _frame(title, body, height)
