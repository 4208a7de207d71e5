"""The search of one program: cut into units, run them, verify and rank what they find.

The tree is cut into units (subtrees) in a fixed order and each unit explores its subtree
completely, so the candidates found, and the one chosen, are the same for the same seed
whatever the number of workers, unless the time budget or Ctrl-C stops the search early
(then the best verified candidate so far is returned). Candidates are verified in order of
cost: while the search runs, each one cheaper than the best verified so far; at the end,
all those cheaper than the `keep`-th verified one.
"""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field, replace
from typing import TextIO

from mirage.dialects.opkinds import LAUNCHES
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.explore import Explorer, Found, Job, Path, UnitResult, split
from mirage.passes.superoptimize.fusion import fuse_program
from mirage.passes.superoptimize.inline import inline_producers
from mirage.passes.superoptimize.interfaces import EquivalenceCheck, Profiler, PruneCheck
from mirage.passes.superoptimize.kernelgen import SearchLimits, with_output_types
from mirage.passes.superoptimize.lowered import lowered_facts
from mirage.passes.superoptimize.parallelize import parallelizations
from mirage.passes.superoptimize.partition import Segment, compose, segments, subprogram
from mirage.passes.superoptimize.resources import check_fit
from mirage.passes.superoptimize.seed import fused_structure
from mirage.passes.superoptimize.target import Target
from mirage.passes.superoptimize.workers import (
    Channel,
    UnitExecutor,
    local_pool,
    run_unit,
)

UNITS_PER_WORKER = 32
SEGMENT_SHARE = 0.7
"""The part of the time budget that the segments of a long program (`partition.py`) may
use together, before the search of the whole program. The segments' composition is what
finds the long benchmark programs' best μGraphs (qknorm: the attention segment searched
alone reaches the split-KV pair; the whole program's own search does not), and at half the
budget qknorm b8's attention segment stopped short of it."""
MIN_GAIN = 0.01
MIN_GAIN_SECONDS = 0.05e-6
"""A prefix is explored only if it may beat the best known μGraph (or the program) by more
than this fraction, and by more than these seconds (about the noise of one kernel's time
in CUDA-graph replay): the search does not look for gains within the cost model's own
error. Within a phase, the bound then tightens to each candidate found (strictly)."""


@dataclass(frozen=True)
class SearchOptions:
    time_budget: float = 600.0
    max_kernel_ops: int = 2
    max_block_ops: int = 11
    workers: int = 2
    target: Target | None = None
    seed: int = 0
    keep: int = 3
    profile: bool = False
    seed_with_program: bool = True
    """Start from the program fused as it is (`seed.py`); off, the search finds everything
    by enumeration."""


@dataclass(frozen=True)
class Ranked:
    graph: Graph
    seconds: float
    """The cost model's estimate."""
    measured: float | None = None
    """Seconds per call on the GPU (profile=true)."""
    verdict: str = ""


@dataclass
class SearchResult:
    ranked: list[Ranked]
    """Verified candidates, best first."""
    baseline: float
    """The cost model's estimate of the program as it was."""
    stats: dict[str, int]
    complete: bool
    """Every unit explored its whole subtree."""
    elapsed: float
    units: int = 0
    rejected_by_verifier: int = 0


@dataclass
class _Progress:
    stream: TextIO | None
    start: float = field(default_factory=time.time)
    last: float = 0.0

    def show(self, stats: dict[str, int], verified: int, best: float | None, units: str) -> None:
        if self.stream is None:
            return
        now = time.time()
        if now - self.last < 0.2:
            return
        self.last = now
        best_text = f"{best * 1e6:.2f} us" if best is not None else "-"
        self.stream.write(
            f"\rsuperoptimize: {now - self.start:6.1f}s  units {units}  "
            f"explored {stats.get('explored', 0)}  pruned {stats.get('pruned', 0)}  "
            f"verified {verified}  best {best_text}   "
        )
        self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


class Search:
    """One search: units, their results, verification and ranking."""

    def __init__(
        self,
        program: Graph,
        options: SearchOptions,
        make_pruner: Callable[[Graph], PruneCheck],
        verifier: EquivalenceCheck,
        profiler: Profiler | None = None,
        executor: UnitExecutor | None = None,
        progress: TextIO | None = None,
        make_verifier: Callable[[Graph], EquivalenceCheck] | None = None,
    ) -> None:
        assert options.target is not None
        self.program = program
        self.options = options
        self.job = Job(
            program,
            SearchLimits(
                options.max_kernel_ops, options.max_block_ops, options.target, options.seed
            ),
            options.keep,
            make_pruner,
        )
        self.verifier = verifier
        self.profiler = profiler
        self.executor = executor
        self.progress = _Progress(progress)
        self.progress_stream = progress
        self.make_verifier = make_verifier or _default_verifier
        self.found: dict[str, Found] = {}
        self.verified: dict[str, bool] = {}
        self.verdicts: dict[str, str] = {}
        self.stats: dict[str, int] = {}
        self.verify_seconds = 0.0
        """The longest verification so far: the end of the budget is kept for the final
        verification of `keep` candidates."""

    # --- verification --------------------------------------------------------------

    def _verify(self, f: Found) -> bool:
        if f.text not in self.verified:
            began = time.time()
            verdict = self.verifier.verify(f.graph)
            self.verify_seconds = max(self.verify_seconds, time.time() - began)
            self.verified[f.text] = verdict.equivalent
            self.verdicts[f.text] = str(verdict)
        return self.verified[f.text]

    def _best_verified(self) -> float | None:
        costs = [self.found[t].seconds for t, ok in self.verified.items() if ok]
        return min(costs) if costs else None

    def _take(self, result: UnitResult) -> None:
        if not result.reported:
            for k, v in result.stats.items():
                self.stats[k] = self.stats.get(k, 0) + v
        found = list(result.found)
        found.extend(g for g in map(self._inlined, result.found) if g is not None)
        for f in found:
            self.found.setdefault(f.text, f)
        # Verify what would beat the best so far, cheapest first.
        for f in sorted(found, key=lambda f: (f.seconds, f.text)):
            best = self._best_verified()
            if best is not None and f.seconds >= best:
                break
            self._verify(f)

    def _finish_verification(self) -> list[Found]:
        ranked: list[Found] = []
        for f in sorted(self.found.values(), key=lambda f: (f.seconds, f.text)):
            if len(ranked) >= self.options.keep:
                break
            if self._verify(f):
                ranked.append(f)
        return ranked

    # --- running ---------------------------------------------------------------------

    def run(self) -> SearchResult:
        """Search with one kernel op first, then with up to `max_kernel_ops`, each phase
        cutting what cannot beat the best verified candidate so far (at first, the program
        itself)."""
        assert self.options.target is not None
        start = time.time()
        deadline = start + self.options.time_budget
        baseline = program_cost(self.program, self.options.target).seconds
        if self.options.seed_with_program:
            self._seed()
            self._seed_with_segments(start + self.options.time_budget * SEGMENT_SHARE)
        complete = True
        units = 0
        for kernels in sorted({1, self.options.max_kernel_ops}):
            best = self._best_verified()
            known = baseline if best is None else min(baseline, best)
            bound = known - max(known * MIN_GAIN, MIN_GAIN_SECONDS)
            limits = replace(self.job.limits, max_kernel_ops=kernels)
            job = replace(self.job, limits=limits, bound=bound)
            reserve = min(self.options.time_budget / 2, self.options.keep * self.verify_seconds)
            done, total, finished = self._run_phase(job, deadline - reserve)
            units += total
            complete = complete and finished and done == total
            if not finished:
                break
        self.progress.done()
        ranked = self._finish_verification()
        out = [Ranked(f.graph, f.seconds, None, self.verdicts.get(f.text, "")) for f in ranked]
        if self.options.profile and self.profiler is not None and out:
            times = self.profiler.measure([r.graph for r in out])
            out = sorted(
                (Ranked(r.graph, r.seconds, t, r.verdict) for r, t in zip(out, times, strict=True)),
                key=lambda r: (r.measured if r.measured is not None else float("inf"), r.seconds),
            )
        return SearchResult(
            out,
            baseline,
            self.stats,
            complete,
            time.time() - start,
            units,
            sum(1 for ok in self.verified.values() if not ok),
        )

    def _seed(self) -> None:
        """The program fused as it is, parallelized: the first candidate (`seed.py`)."""
        assert self.options.target is not None
        op = fused_structure(self.program)
        if op is None:
            return
        types = [self.program.args[v] for v in op.operands]
        found = parallelizations(op, types, self.options.target, partial=False)
        if not found:
            return
        n = len(self.program.args)
        graph = Graph(self.program.args, (found[0].op,), tuple(range(n, n + len(op.results))))
        fused = fuse_program(with_output_types(graph, self.program.output_types))
        seed = Found(program_cost(fused, self.options.target).seconds, repr(fused), fused)
        self.found.setdefault(seed.text, seed)
        self._verify(seed)

    def _seed_with_segments(self, deadline: float) -> None:
        """A long program's segments searched one by one, put back together: one more
        candidate (`partition.py`)."""
        cut = segments(self.program)
        if cut is None:
            return
        parts: list[tuple[Segment, Graph]] = []
        changed = False
        for i, segment in enumerate(cut):
            sub = subprogram(self.program, segment)
            budget = (deadline - time.time()) / (len(cut) - i)
            if budget <= 0:
                parts.append((segment, sub))
                continue
            options = replace(self.options, time_budget=budget, profile=False)
            result = Search(
                sub,
                options,
                self.job.make_pruner,
                self.make_verifier(sub),
                executor=self.executor,
                progress=self.progress_stream,
                make_verifier=self.make_verifier,
            ).run()
            for k, v in result.stats.items():
                self.stats[k] = self.stats.get(k, 0) + v
            if result.ranked and result.ranked[0].seconds < result.baseline:
                parts.append((segment, result.ranked[0].graph))
                changed = True
            else:
                parts.append((segment, sub))
        if not changed:
            return
        composed = compose(self.program, parts)
        for graph in (composed, inline_producers(composed)):
            found = self._priced(graph)
            if found is not None:
                self.found.setdefault(found.text, found)
                self._verify(found)

    def _priced(self, graph: Graph | None) -> Found | None:
        """A finished candidate, fused and costed; None for None or where the lowering
        cannot emit one of its kernels."""
        assert self.options.target is not None
        if graph is None:
            return None
        fused = fuse_program(graph)
        for op in fused.ops:
            if op.kind in LAUNCHES and (
                not check_fit(op, self.options.target).ok
                or lowered_facts(op, self.options.target) is None
            ):
                return None
        return Found(program_cost(fused, self.options.target).seconds, repr(fused), fused)

    def _inlined(self, found: Found) -> Found | None:
        """The candidate with its tile-local producer kernels inlined into their readers
        (`inline.py`): a μGraph with more block ops than the enumeration builds."""
        return self._priced(inline_producers(found.graph))

    def _run_phase(self, job: Job, deadline: float) -> tuple[int, int, bool]:
        """(units done, units, whether the phase ran to its end)."""
        explorer = Explorer(job)
        workers = max(1, self.options.workers)
        units = split(explorer, UNITS_PER_WORKER * workers)
        if self.executor is not None or workers > 1:
            return len(units), len(units), self._run_parallel(job, units, deadline, workers)
        done = 0
        for path in units:
            result = explorer.run(path, deadline)
            self._take(result)
            done += 1
            self.progress.show(
                self.stats,
                sum(self.verified.values()),
                self._best_verified(),
                f"{done}/{len(units)}",
            )
            if not result.complete or explorer.interrupted or time.time() > deadline:
                return done, len(units), False
        return done, len(units), True

    def _run_parallel(self, job: Job, units: Sequence[Path], deadline: float, workers: int) -> bool:
        channel: Channel | None = None
        executor = self.executor
        own = executor is None
        if executor is None:
            channel = Channel.create()
            executor = local_pool(workers, channel)
        job_id = uuid.uuid4().hex
        pending: set[Future[UnitResult]] = {
            executor.submit(run_unit, job_id, job, path, deadline) for path in units
        }
        complete = True
        done = 0
        try:
            while pending:
                try:
                    finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                except KeyboardInterrupt:
                    complete = False
                    self._stop(channel, pending)
                    continue
                for fut in finished:
                    if fut.cancelled():
                        complete = False
                        continue
                    result = fut.result()
                    self._take(result)
                    complete = complete and result.complete
                    done += 1
                stats = dict(self.stats)
                if channel is not None:
                    for k, v in channel.totals().items():
                        stats[k] = stats.get(k, 0) + v
                self.progress.show(
                    stats,
                    sum(self.verified.values()),
                    self._best_verified(),
                    f"{done}/{len(units)}",
                )
                if time.time() > deadline + 1.0:
                    complete = False
                    self._stop(channel, pending)
        finally:
            if own:
                executor.shutdown(wait=True, cancel_futures=True)
        if channel is not None:
            for k, v in channel.totals().items():
                self.stats[k] = self.stats.get(k, 0) + v
        return complete

    @staticmethod
    def _stop(channel: Channel | None, pending: set[Future[UnitResult]]) -> None:
        if channel is not None:
            channel.stop.set()
        for fut in pending:
            fut.cancel()


def _default_verifier(program: Graph) -> EquivalenceCheck:
    from mirage.passes.equivalence.verifier import Verifier

    return Verifier(program)


def stderr_if_terminal() -> TextIO | None:
    return sys.stderr if sys.stderr.isatty() else None
