"""What one search did, for `superoptimize{report=DIR}`.

The search fills a `SearchRecord` as it goes: each unit's counters (by depth in the search
tree) and times, every candidate it saw and the verifier's verdict on those it checked, the
best verified model cost over time, the segments of a long program with their own
records, and the compositions of their results. `to_json` is the report's data; the page
(`mirage.passes.pictures.report_page`) is drawn from it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.pictures.dot import draw_function
from mirage.passes.superoptimize.explore import Found, UnitResult
from mirage.passes.superoptimize.partition import Segment

JsonDict = dict[str, Any]

REASONS: dict[str, str] = {
    "explored": "states stepped into",
    "pruned": "cut by the abstract-expression pruner",
    "rejected": "invalid: shapes, canonical order, a value already known, no fit",
    "bounded": "cut by the cost bound (cannot beat the best known)",
    "transposed": "cut as the same values as a cheaper prefix seen before",
    "generated": "block states generated",
    "finished_graphs": "block graphs finished",
    "candidates": "complete μGraphs reached",
}
"""The counters of `kernelgen.SearchStats.as_dict`, said in words."""


@dataclass
class CandidateEntry:
    seconds: float
    """The cost model's estimate."""
    source: str
    """Where it came from: `seed`, `unit` (with its phase), `inlined`, `segments`."""
    kernels: int
    phase: int
    """The kernel-op limit of the phase it was seen in (0: before the phases)."""
    seen: float
    """Seconds since the search began."""
    equivalent: bool | None = None
    """The verifier's verdict; None if it was never verified (it could not beat a
    verified one)."""
    verdict: str = ""
    verified_at: float | None = None
    verify_seconds: float | None = None


@dataclass
class UnitEntry:
    phase: int
    """The kernel-op limit of the phase it ran in."""
    path: tuple[int, ...]
    started: float
    seconds: float
    arrived: float
    worker: int
    complete: bool
    found: int
    stats: dict[str, int]


@dataclass
class SegmentEntry:
    start: int
    stop: int
    inputs: int
    outputs: int
    used: bool
    """Its best μGraph went into the composition (it beat the segment as it was)."""
    record: SearchRecord


@dataclass
class RankedEntry:
    graph: Graph
    seconds: float
    measured: float | None
    verdict: str


@dataclass
class SearchRecord:
    name: str = ""
    started: float | None = None
    """Wall-clock time the search began (None: no search ran, as for a segment that no
    time was left for)."""
    baseline: float | None = None
    program: Graph | None = None
    phases: list[JsonDict] = field(default_factory=list[JsonDict])
    units: list[UnitEntry] = field(default_factory=list[UnitEntry])
    by_depth: dict[int, dict[str, int]] = field(default_factory=dict[int, dict[str, int]])
    candidates: dict[str, CandidateEntry] = field(default_factory=dict[str, CandidateEntry])
    best: list[tuple[float, float]] = field(default_factory=list[tuple[float, float]])
    """(seconds since the start, model cost) each time a verified candidate beat the best
    verified one before it."""
    segments: list[SegmentEntry] = field(default_factory=list[SegmentEntry])
    compositions: list[JsonDict] = field(default_factory=list[JsonDict])
    ranked: list[RankedEntry] = field(default_factory=list[RankedEntry])
    complete: bool = False
    elapsed: float = 0.0
    outcome: str = ""
    top_totals: dict[str, int] = field(default_factory=dict[str, int])
    """The counters of the tree's top, explored where the search cut it into units."""
    _phase: int = 0

    def now(self) -> float:
        return time.time() - self.started if self.started is not None else 0.0

    # --- what the search calls -------------------------------------------------------

    def begin(self, program: Graph, baseline: float, started: float) -> None:
        self.started = started
        self.program = program
        self.baseline = baseline

    def phase(self, kernels: int, units: int, bound: float, top: dict[int, dict[str, int]]) -> None:
        """A phase begins; `top` counts the states of the top of the tree, which the
        search itself explored to cut it into units."""
        self._phase = kernels
        _add_depths(self.by_depth, top)
        for counts in top.values():
            for k, v in counts.items():
                self.top_totals[k] = self.top_totals.get(k, 0) + v
        self.phases.append(
            {
                "kernels": kernels,
                "units": units,
                "bound": bound if math.isfinite(bound) else None,
                "started": self.now(),
            }
        )

    def unit(self, result: UnitResult) -> None:
        r = result.record
        origin = self.started if self.started is not None else r.started
        self.units.append(
            UnitEntry(
                self._phase,
                result.path,
                r.started - origin,
                r.seconds,
                self.now(),
                r.worker,
                result.complete,
                len(result.found),
                dict(result.stats),
            )
        )
        _add_depths(self.by_depth, r.by_depth)

    def saw(self, text: str, seconds: float, graph: Graph, source: str) -> None:
        if text not in self.candidates:
            kernels = len(graph.ops)
            self.candidates[text] = CandidateEntry(
                seconds, source, kernels, self._phase, self.now()
            )

    def verified(self, text: str, equivalent: bool, verdict: str, took: float) -> None:
        entry = self.candidates.get(text)
        if entry is None:
            return
        entry.equivalent = equivalent
        entry.verdict = verdict
        entry.verified_at = self.now()
        entry.verify_seconds = took
        if equivalent and (not self.best or entry.seconds < self.best[-1][1]):
            self.best.append((entry.verified_at, entry.seconds))

    def segment(self, segment: Segment, used: bool, record: SearchRecord) -> None:
        self.segments.append(
            SegmentEntry(
                segment.start,
                segment.stop,
                len(segment.inputs),
                len(segment.outputs),
                used,
                record,
            )
        )
        _add_depths(self.by_depth, record.by_depth)

    def composition(self, kind: str, found: Found | None) -> None:
        """A composition of the segments' μGraphs (None: the lowering cannot emit one
        of its kernels)."""
        self.compositions.append(
            {
                "kind": kind,
                "seconds": found.seconds if found is not None else None,
                "text": found.text if found is not None else None,
            }
        )

    def finish(
        self,
        ranked: list[tuple[Graph, float, float | None, str]],
        complete: bool,
        elapsed: float,
    ) -> None:
        self.ranked = [RankedEntry(g, s, m, v) for g, s, m, v in ranked]
        self.complete = complete
        self.elapsed = elapsed

    # --- the report's data ---------------------------------------------------------

    def to_json(self, drawings: bool = True) -> JsonDict:
        """Plain data; with `drawings`, the program's and the ranked μGraphs' IR and dot
        text too."""
        verified = [c for c in self.candidates.values() if c.equivalent is not None]
        out: JsonDict = {
            "name": self.name,
            "searched": self.started is not None,
            "outcome": self.outcome,
            "baseline": self.baseline,
            "elapsed": self.elapsed,
            "complete": self.complete,
            "totals": self.totals(),
            "reasons": REASONS,
            "by_depth": [{"depth": d, **self.by_depth[d]} for d in sorted(self.by_depth)],
            "phases": self.phases,
            "units": [
                {
                    "phase": u.phase,
                    "path": list(u.path),
                    "started": u.started,
                    "seconds": u.seconds,
                    "arrived": u.arrived,
                    "worker": u.worker,
                    "complete": u.complete,
                    "found": u.found,
                    "stats": u.stats,
                }
                for u in self.units
            ],
            "best_over_time": [{"time": t, "seconds": s} for t, s in self.best],
            "candidates_seen": len(self.candidates),
            "candidates": [
                {
                    "seconds": c.seconds,
                    "source": c.source,
                    "kernels": c.kernels,
                    "phase": c.phase,
                    "seen": c.seen,
                    "equivalent": c.equivalent,
                    "verdict": c.verdict,
                    "verified_at": c.verified_at,
                    "verify_seconds": c.verify_seconds,
                    "measured": self._measured(text),
                }
                for text, c in sorted(
                    self.candidates.items(), key=lambda tc: (tc[1].verified_at or 0.0, tc[0])
                )
                if c in verified
            ],
            "segments": [
                {
                    "ops": [s.start, s.stop],
                    "inputs": s.inputs,
                    "outputs": s.outputs,
                    "used": s.used,
                    "began": (
                        s.record.started - self.started
                        if s.record.started is not None and self.started is not None
                        else None
                    ),
                    "search": s.record.to_json(drawings=False),
                }
                for s in self.segments
            ],
            "compositions": [
                {
                    "kind": c["kind"],
                    "seconds": c["seconds"],
                    "equivalent": self._verdict_of(c["text"]),
                }
                for c in self.compositions
            ],
            "ranked": [
                {
                    "rank": i + 1,
                    "seconds": r.seconds,
                    "measured": r.measured,
                    "verdict": r.verdict,
                    "kernels": len(r.graph.ops),
                    **(_drawing(f"{self.name}_{i + 1}", r.graph) if drawings else {}),
                }
                for i, r in enumerate(self.ranked)
            ],
        }
        if drawings and self.program is not None:
            out["program"] = _drawing(self.name or "program", self.program)
        return out

    def totals(self) -> dict[str, int]:
        """Every counter over the units received, the tree's top and the segments'
        searches (the sums of `by_depth`)."""
        out = {k: 0 for k in REASONS}
        parts = [u.stats for u in self.units] + [self.top_totals]
        parts += [s.record.totals() for s in self.segments]
        for part in parts:
            for k, v in part.items():
                out[k] = out.get(k, 0) + v
        return out

    def _measured(self, text: str) -> float | None:
        for r in self.ranked:
            if repr(r.graph) == text:
                return r.measured
        return None

    def _verdict_of(self, text: str | None) -> bool | None:
        entry = self.candidates.get(text) if text is not None else None
        return entry.equivalent if entry is not None else None


def _add_depths(into: dict[int, dict[str, int]], more: dict[int, dict[str, int]]) -> None:
    for depth, counts in more.items():
        mine = into.setdefault(depth, {})
        for k, v in counts.items():
            mine[k] = mine.get(k, 0) + v


def _drawing(name: str, graph: Graph) -> JsonDict:
    func = func_from_graph(name, graph)
    return {"mlir": str(func), "dot": draw_function(func)}
