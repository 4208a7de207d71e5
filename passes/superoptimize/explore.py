"""Exploring subtrees of the search: the work of one unit, in whichever process runs it.

A unit is a path of child indices from the root of the search tree; exploring it replays
the path (deterministically: children are listed in a fixed order) and then walks the whole
subtree depth first, keeping the cheapest finished candidates. The walk stops early at the
deadline or when asked to, with what it found so far."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from mirage.dialects.ugraph.graph import Graph
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.family import retile
from mirage.passes.superoptimize.fusion import fuse_program
from mirage.passes.superoptimize.interfaces import PruneCheck
from mirage.passes.superoptimize.kernelgen import KernelNode, Move, SearchLimits, SearchSpace

Path = tuple[int, ...]


@dataclass(frozen=True)
class Job:
    """What every unit of one search shares: picklable, built once per process."""

    program: Graph
    limits: SearchLimits
    keep: int
    make_pruner: Callable[[Graph], PruneCheck]
    bound: float = float("inf")
    """Seconds that a candidate must beat (the program's own, or a known candidate's)."""
    carry: Graph | None = None
    """The program at its own shapes where `program` is a small member of its family
    (`family.proxy_member`): a candidate counts, and bounds the walk, only if it carries
    back to them (`family.retile`)."""


@dataclass(frozen=True)
class Found:
    seconds: float
    text: str
    """A canonical text of the graph: ties on cost are broken by it, duplicates found by
    it."""
    graph: Graph


@dataclass
class UnitRecord:
    """What one unit did, for the search's report."""

    by_depth: dict[int, dict[str, int]] = field(default_factory=dict[int, dict[str, int]])
    """The stats' counters by the depth in the search tree of the states they count."""
    started: float = 0.0
    """Wall-clock time the unit began."""
    seconds: float = 0.0
    worker: int = 0
    """The id of the process that ran it."""


@dataclass
class UnitResult:
    path: Path
    found: list[Found]
    stats: dict[str, int]
    complete: bool
    reported: bool = False
    """The stats already went to the live progress counters."""
    record: UnitRecord = field(default_factory=UnitRecord)


class Stopped(Exception):
    """The deadline passed or a stop was asked for."""


@dataclass
class Explorer:
    """Explores units of one job; keeps the nodes on the way to them between units."""

    job: Job
    should_stop: Callable[[], bool] = lambda: False
    on_progress: Callable[[dict[str, int]], None] | None = None
    space: SearchSpace = field(init=False)
    interrupted: bool = False
    _expanded: dict[Path, tuple[KernelNode, list[Move]]] = field(
        default_factory=dict[Path, tuple[KernelNode, list[Move]]]
    )
    _reported: dict[str, int] = field(default_factory=dict[str, int])
    _by_depth: dict[int, dict[str, int]] = field(default_factory=dict[int, dict[str, int]])

    def __post_init__(self) -> None:
        self.space = SearchSpace(
            self.job.program, self.job.limits, self.job.make_pruner(self.job.program)
        )
        self.space.bound = self.job.bound

    def expand(self, path: Path) -> tuple[KernelNode, list[Move]] | None:
        """The node at `path` and its moves (None where a step on the way fails)."""
        if path in self._expanded:
            return self._expanded[path]
        if not path:
            node: KernelNode | None = self.space.root()
        else:
            parent = self.expand(path[:-1])
            if parent is None:
                return None
            pnode, moves = parent
            before = self.space.stats.as_dict()
            node = self.space.step(pnode, moves[path[-1]])
            self._count(len(path), before)
        if node is None:
            return None
        before = self.space.stats.as_dict()
        entry = (node, self.space.children(node))
        self._count(len(path) + 1, before)
        self._expanded[path] = entry
        return entry

    def _count(self, depth: int, before: dict[str, int]) -> None:
        """Files the counters' growth since `before` under `depth`: the states that a
        step makes, or that listing a node's children cuts, are one deeper than it."""
        counts = self._by_depth.setdefault(depth, {})
        for k, v in self.space.stats.as_dict().items():
            if v != before[k]:
                counts[k] = counts.get(k, 0) + v - before[k]

    def run(self, path: Path, deadline: float) -> UnitResult:
        found: dict[str, Found] = {}
        started = time.time()
        self._by_depth = {}
        before = self.space.stats.as_dict()
        complete = True
        steps = 0

        def record(node: KernelNode) -> None:
            graph = self.space.candidate(node)
            if graph is None:
                return
            fused = fuse_program(graph)
            carry = self.job.carry
            if carry is not None and retile(fused, carry, self.job.limits.target, False) is None:
                return
            seconds = program_cost(fused, self.job.limits.target).seconds
            text = repr(fused)
            # A prefix that cannot beat this candidate needs no exploring: the best
            # candidate is still found whatever the order (bounds are strict).
            self.space.bound = min(self.space.bound, seconds)
            if text not in found:
                found[text] = Found(seconds, text, fused)
                if len(found) > 4 * self.job.keep:
                    for t in sorted(found, key=lambda t: (found[t].seconds, t))[self.job.keep :]:
                        del found[t]

        def walk(node: KernelNode, moves: list[Move] | None, depth: int) -> None:
            nonlocal steps
            steps += 1
            if steps % 64 == 0:
                if time.time() > deadline or self.should_stop():
                    raise Stopped
                if self.on_progress is not None:
                    self.on_progress(self.unreported())
            stats = self.space.stats
            if node.complete:
                before = stats.as_dict()
                record(node)
                self._count(depth, before)
                return
            if moves is None:
                before = stats.as_dict()
                moves = self.space.children(node)
                self._count(depth + 1, before)
            for move in moves:
                before = stats.as_dict()
                child = self.space.step(node, move)
                self._count(depth + 1, before)
                if child is not None:
                    walk(child, None, depth + 1)

        # Which children a node has depends on the bound (a child that cannot beat it is
        # not listed), and paths index children as `split` listed them, under the job's
        # bound: replay under it, tighten only within this unit.
        self.space.bound = self.job.bound
        try:
            entry = self.expand(path)
            if entry is not None:
                walk(entry[0], entry[1], len(path))
        except Stopped:
            complete = False
        except KeyboardInterrupt:
            complete = False
            self.interrupted = True
        best = sorted(found.values(), key=lambda f: (f.seconds, f.text))[: self.job.keep]
        unit = UnitRecord(self._by_depth, started, time.time() - started, os.getpid())
        return UnitResult(path, best, self._delta(before), complete, record=unit)

    def take_counts(self) -> dict[int, dict[str, int]]:
        """The counters by depth gathered outside units (by `split`), handed over once."""
        out, self._by_depth = self._by_depth, {}
        return out

    def unreported(self) -> dict[str, int]:
        """The stats gathered since the last call (for live progress)."""
        now = self.space.stats.as_dict()
        delta = {k: now[k] - self._reported.get(k, 0) for k in now}
        self._reported = now
        return delta

    def _delta(self, before: dict[str, int]) -> dict[str, int]:
        now = self.space.stats.as_dict()
        return {k: now[k] - before.get(k, 0) for k in now}


def split(explorer: Explorer, min_units: int, max_depth: int = 4) -> list[Path]:
    """Paths of independent subtrees that together cover the tree: the root is cut
    breadth first until there are at least `min_units` of them (or the tree is that
    small). A node whose step fails has no subtree and is dropped."""
    done: list[Path] = []
    frontier: deque[Path] = deque([()])
    while frontier and len(frontier) + len(done) < min_units:
        path = frontier.popleft()
        if len(path) >= max_depth:
            done.append(path)
            continue
        entry = explorer.expand(path)
        if entry is None:
            continue
        node, moves = entry
        if node.complete or not moves:
            done.append(path)
            continue
        frontier.extend((*path, i) for i in range(len(moves)))
    return sorted(done + list(frontier))
