"""The search of one program: cut into units, run them, verify and rank what they find.

The tree is cut into units (subtrees) in a fixed order and each unit explores its subtree
completely, so the candidates found, and the one chosen, are the same for the same seed
whatever the number of workers, unless the time budget or Ctrl-C stops the search early
(then the best verified candidate so far is returned). Candidates are verified in order of
cost: while the search runs, each one cheaper than the best verified so far; at the end,
all those cheaper than the `keep`-th verified one.
"""

from __future__ import annotations

import math
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import TextIO

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import LAUNCHES
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.algebra import distribute_norms
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.explore import Explorer, Found, Job, Path, UnitResult, split
from mirage.passes.superoptimize.family import (
    PROXY_ELEMENTS,
    program_elements,
    proxy_member,
    retile,
)
from mirage.passes.superoptimize.fusion import fuse_program
from mirage.passes.superoptimize.inline import inline_producers
from mirage.passes.superoptimize.inplace import fold_layout_ops
from mirage.passes.superoptimize.interfaces import EquivalenceCheck, Profiler, PruneCheck
from mirage.passes.superoptimize.interrupt import StopFlag, first_sigint_stops
from mirage.passes.superoptimize.kernelgen import SearchLimits
from mirage.passes.superoptimize.lowered import lowered_facts
from mirage.passes.superoptimize.normalize import Normalized, normalize
from mirage.passes.superoptimize.online import online_structure
from mirage.passes.superoptimize.online_split import online_split_candidates
from mirage.passes.superoptimize.partition import (
    Segment,
    compose,
    searchable,
    segments,
    subprogram,
)
from mirage.passes.superoptimize.resources import check_fit
from mirage.passes.superoptimize.search_record import SearchRecord
from mirage.passes.superoptimize.seed import fused_forms, parallelized
from mirage.passes.superoptimize.stages import stages
from mirage.passes.superoptimize.workers import (
    Channel,
    LocalPool,
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
STOP_GRACE = 0.75
"""Seconds that running units get to report after a stop; then their workers are killed
(Ctrl-C answers within about a second, with what was reported)."""
MIN_SEGMENT_SECONDS = 1.0
"""A segment whose share of the budget is smaller is not searched (starting a search costs
about that much); the time goes to the segments after it."""
MAX_SEED_OPS = 200
"""The program fused whole is a seed only up to this many ops: one launch of more block
ops fits no shared memory, and its parallelizations are walked op by op."""
PROXY_SHARE = 0.6
"""The part of what is left of the budget that the search of a small member of the
program's family may use (`SearchOptions.proxy_elements`); the rest verifies what it finds
at the program's own shapes, where one verification takes tens of seconds."""
INNER_KEEP = 8
"""Verified candidates the search of a small member or of the normalized program keeps:
the cheapest at the small member's shapes, or without the program's layout ops, need not
be the cheapest carried back to its shapes or restored onto its layouts, where they are
ranked again (a norm and a linear each a launch, then the one launch of both: restored
onto a transposed weight, the one launch is the cheaper)."""
NORMALIZED_SHARE = 0.7
"""The part of the budget the normalized program's search may use at most; the rest
verifies what it finds and the normalized program itself, restored, against the program
as it was (more where one verification takes longer: at realistic shapes an attention's
takes half a minute)."""
MIN_GAIN = 0.01
MIN_GAIN_SECONDS = 0.05e-6
"""A prefix is explored only if it may beat the best known μGraph (or the program) by more
than this fraction, and by more than these seconds (about the noise of one kernel's time
in CUDA-graph replay): the search does not look for gains within the cost model's own
error. Within a phase, the bound then tightens to each candidate found (strictly)."""


def less_gain(seconds: float) -> float:
    """What beats `seconds` by more than the model's error (`MIN_GAIN`); inf stays inf."""
    if seconds == math.inf:
        return seconds
    return seconds - max(seconds * MIN_GAIN, MIN_GAIN_SECONDS)


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
    normalize: bool = True
    """Search the program with its layout ops and constants normalized away
    (`normalize.py`) and restore what is found; off, the program as it is."""
    proxy_elements: int = PROXY_ELEMENTS
    """A program whose tensors hold more elements is searched at a small member of its
    shape family, and what is found carried back to its shapes and verified there
    (`family.proxy_member`); 0: every program at its own shapes."""


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
    """The modelled seconds a μGraph must beat: the program's, or infinity where the
    program is not finite in its storage dtypes (any finite μGraph is better)."""
    stats: dict[str, int]
    complete: bool
    """Every unit explored its whole subtree."""
    elapsed: float
    units: int = 0
    rejected_by_verifier: int = 0
    interrupted: bool = False
    """Ctrl-C stopped it: `ranked` holds what was verified by then."""
    remarks: list[str] = field(default_factory=list[str])
    """What the search left alone, and why (the pass prints them as remarks)."""


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
        record: SearchRecord | None = None,
        stop: StopFlag | None = None,
        to_beat: float | None = None,
        unfit_bar: float | None = None,
        carry: Graph | None = None,
    ) -> None:
        assert options.target is not None
        self.to_beat = to_beat
        self.unfit_bar = math.inf if unfit_bar is None else unfit_bar
        """The modelled seconds that a candidate must beat where it is no more finite in its
        f16/bf16 storage than an unfit program (`Verdict.storage_fit`): the program's
        cost (set by `run`, or given with `to_beat`)."""
        """The modelled seconds a candidate must beat, given instead of worked out from the
        program (its cost, or infinity where it is not finite in its storage dtypes): the
        normalized program's search takes the bar of the program it came from, whose
        layout kernels the normalized program's own cost leaves out."""
        self.stop = stop if stop is not None else StopFlag()
        """Polled everywhere: once set (Ctrl-C), nothing new is started or verified."""
        self.program = program
        self.options = options
        self.job = Job(
            program,
            SearchLimits(
                options.max_kernel_ops, options.max_block_ops, options.target, options.seed
            ),
            options.keep,
            make_pruner,
            carry=carry,
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
        self.fit: dict[str, bool] = {}
        """Per verified candidate: whether it is finite in its f16/bf16 storage."""
        self.unfit_program = False
        """The program is not finite in its storage dtypes (`_bar`): a candidate that is
        ranks above every one that is not, whatever the model says."""
        self.stats: dict[str, int] = {}
        self.remarks: list[str] = []
        self.verify_seconds = 0.0
        """The longest verification so far: the end of the budget is kept for the final
        verification of `keep` candidates."""
        self.deadline = math.inf
        """The end of the time budget: verifications still running then are stopped."""
        self.started = 0.0
        """When `run` began."""
        self.bar = math.inf
        """The modelled seconds a kept candidate must beat (`_bar`, less `MIN_GAIN`; set by
        `run`): what is not faster than the program by more than the model's error is no
        result of the search, whatever else it found."""
        self.unverified = 0
        """Candidates whose verification the deadline or Ctrl-C stopped."""
        self.record = record if record is not None else SearchRecord()
        """What the search did, for `superoptimize{report=DIR}`."""

    # --- verification --------------------------------------------------------------

    def _verify(self, f: Found) -> bool:
        if f.text not in self.found:
            return False  # not taken (`_add`): it does not carry back to large shapes
        if f.text not in self.verified:
            began = time.time()
            verdict = self.verifier.verify(f.graph, self._out_of_time)
            took = time.time() - began
            if verdict.stopped:
                if not self.unverified:
                    self.remarks.append(str(verdict))
                self.unverified += 1
            self.verify_seconds = max(self.verify_seconds, took)
            kept, text = verdict.equivalent, str(verdict)
            self.fit[f.text] = verdict.storage_fit
            if kept and not verdict.storage_fit and f.seconds >= self.unfit_bar:
                # as unfit for f16/bf16 storage as the program: the infinite bar of an
                # unfit program is for candidates that are finite where it is not
                kept = False
                text = (
                    f"{text}; but it overflows its f16/bf16 storage where the program's "
                    "float64 result fits, as the program does, and is not faster than it"
                )
            self.verified[f.text] = kept
            self.verdicts[f.text] = text
            self.record.verified(f.text, kept, text, took)
        return self.verified[f.text]

    def _rejected(self) -> int:
        """Candidates the verifier found not equivalent (not those it was stopped on)."""
        return sum(1 for ok in self.verified.values() if not ok) - self.unverified

    def _out_of_time(self) -> bool:
        return self.stop() or time.time() > self.deadline

    def _best_verified(self) -> float | None:
        costs = [self.found[t].seconds for t, ok in self.verified.items() if ok and self._fits(t)]
        return min(costs) if costs else None

    def _take(self, result: UnitResult) -> None:
        if not result.reported:
            for k, v in result.stats.items():
                self.stats[k] = self.stats.get(k, 0) + v
        self.record.unit(result)
        inlined = [g for g in map(self._inlined, result.found) if g is not None]
        for f in result.found:
            self._add(f, "unit")
        for f in inlined:
            self._add(f, "unit, inlined")
        found = [*result.found, *inlined]
        if self.stop():
            return
        # Verify what would beat the best so far, cheapest first.
        for f in sorted(found, key=lambda f: (f.seconds, f.text)):
            best = self._best_verified()
            if best is not None and f.seconds >= best:
                break
            self._verify(f)

    def _add(self, f: Found, source: str) -> None:
        carry = self.job.carry
        if carry is not None and f.text not in self.found:
            assert self.options.target is not None
            if retile(f.graph, carry, self.options.target, False) is None:
                return  # a small member's candidate that does not exist at large shapes
        self.found.setdefault(f.text, f)
        self.record.saw(f.text, f.seconds, f.graph, source)

    def _fits(self, text: str) -> bool:
        """Whether a verified candidate counts as good as it gets on cost alone: always,
        unless the program is unfit for its storage dtypes and the candidate too."""
        return not self.unfit_program or self.fit.get(text, True)

    def _finish_verification(self) -> list[Found]:
        ranked: list[Found] = []

        def known_unfit(f: Found) -> bool:  # finite ones verified already come first
            return self.unfit_program and not (self.verified.get(f.text) and self._fits(f.text))

        for f in sorted(self.found.values(), key=lambda f: (known_unfit(f), f.seconds, f.text)):
            if f.seconds >= self.bar:
                break  # sorted by cost within each fitness class: the rest is no faster
            if len(ranked) >= self.options.keep and (
                any(self._fits(r.text) for r in ranked) or len(ranked) >= 2 * self.options.keep
            ):
                break  # a finite one is kept, or looked for among twice as many
            if self.stop() and f.text not in self.verified:
                continue  # stopped: only what is verified already
            if self._verify(f):
                ranked.append(f)
        ranked.sort(key=lambda f: (not self._fits(f.text), f.seconds, f.text))
        return ranked[: self.options.keep]

    # --- running ---------------------------------------------------------------------

    def run(self) -> SearchResult:
        """Search with one kernel op first, then with up to `max_kernel_ops`, each phase
        cutting what cannot beat the best verified candidate so far (at first, the program
        itself). The first Ctrl-C stops it with what is verified by then."""
        with first_sigint_stops(self.stop):
            return self._run()

    def _run(self) -> SearchResult:
        assert self.options.target is not None
        start = time.time()
        deadline = start + self.options.time_budget
        self.deadline = deadline
        self.started = start
        baseline = program_cost(self.program, self.options.target).seconds
        if self.unfit_bar == math.inf:
            self.unfit_bar = baseline
        # the report compares what is found with the bar it had to beat (the normalized
        # program's search: the cost of the program it came from)
        shown = baseline if self.to_beat is None or self.to_beat == math.inf else self.to_beat
        self.record.begin(self.program, shown, start)
        normalized = normalize(self.program) if self.options.normalize else None
        if normalized is None and not any(searchable(op) for op in self.program.ops):
            kinds = ", ".join(sorted({op.kind for op in self.program.ops}))
            self.remarks.append(f"not searched: no op the search can generate uses it ({kinds})")
            elapsed = time.time() - start
            self.record.finish([], True, elapsed)
            return SearchResult([], baseline, {}, True, elapsed, remarks=self.remarks)
        to_beat = self._bar(baseline)
        # within the model's own error of the program is no gain (as for the bound)
        self.bar = less_gain(to_beat)
        self.unfit_program = to_beat == math.inf
        if self.options.normalize and self.options.seed_with_program:
            self._verify_first(self._distributed())
        if normalized is not None:
            return self._run_normalized(normalized, to_beat)
        proxy = self._proxy(self.program)
        if proxy is not None:
            return self._run_inner(self.program, proxy, lambda g: g, to_beat, "")
        if self.options.seed_with_program:
            self._seed()
            self._seed_with_segments(start + self.options.time_budget * SEGMENT_SHARE)
        complete = True
        units = 0
        for kernels in sorted({1, self.options.max_kernel_ops}):
            if self.stop():
                complete = False
                break
            best = self._best_verified()
            known = to_beat if best is None else min(to_beat, best)
            limits = replace(self.job.limits, max_kernel_ops=kernels)
            job = replace(self.job, limits=limits, bound=less_gain(known))
            reserve = min(self.options.time_budget / 2, self.options.keep * self.verify_seconds)
            done, total, finished = self._run_phase(job, deadline - reserve)
            units += total
            complete = complete and finished and done == total
            if not finished:
                break
        self.progress.done()
        out = self._ranked()
        elapsed = time.time() - start
        self.record.finish(
            [(r.graph, r.seconds, r.measured, r.verdict) for r in out],
            complete,
            elapsed,
        )
        return SearchResult(
            out,
            to_beat,
            self.stats,
            complete,
            elapsed,
            units,
            self._rejected(),
            self.stop(),
            self.remarks,
        )

    def _bar(self, baseline: float) -> float:
        """What a candidate must beat: the bar given, else the program's cost, or infinity
        where the program is not finite in its storage dtypes."""
        if self.to_beat is not None:
            return self.to_beat
        unfit = self.verifier.storage_check(self.program)
        if unfit is None:
            return baseline
        # The program itself is not finite in its storage dtypes where its float64
        # meaning is: a finite μGraph is a better program at any modelled cost.
        self.remarks.append(
            f"the program is not finite in f16/bf16 storage ({unfit}): the fastest "
            "μGraph that is replaces it, even where the model rates it slower"
        )
        return math.inf

    def _ranked(self) -> list[Ranked]:
        """What the verification keeps, best first: by the model, or by the GPU's times
        where `profile` asks."""
        ranked = self._finish_verification()
        out = [Ranked(f.graph, f.seconds, None, self.verdicts.get(f.text, "")) for f in ranked]
        if self.options.profile and self.profiler is not None and out and not self.stop():
            times = self.profiler.measure([r.graph for r in out])
            out = sorted(
                (Ranked(r.graph, r.seconds, t, r.verdict) for r, t in zip(out, times, strict=True)),
                key=lambda r: (r.measured if r.measured is not None else float("inf"), r.seconds),
            )
        return out

    def _proxy(self, program: Graph) -> Graph | None:
        """The small member of `program`'s family to search instead of it, where it has
        more elements than `SearchOptions.proxy_elements` and has one."""
        limit = self.options.proxy_elements
        if limit <= 0 or program_elements(program) <= limit:
            return None
        return proxy_member(program)

    def _run_normalized(self, norm: Normalized, to_beat: float) -> SearchResult:
        """The search of the normalized program, cut by what the program itself costs
        (`to_beat`); what it finds, restored onto the program's own arguments and outputs,
        verified against the program itself."""
        assert self.options.target is not None
        target = self.options.target
        # The normalized program itself, restored: its plain ops that read a view become
        # launches that read it in place, so that even where the search finds nothing fused
        # no transpose kernel over a weight runs on every call. Verified at the end with
        # what the search finds, cheapest first: at realistic shapes a verification takes
        # most of a minute, which the search's own seeds (cheaper) need first. It does not
        # bound the search: the model may misjudge a strided read.
        as_is = self._priced(norm.restore(norm.program, target))
        if as_is is not None and as_is.seconds < to_beat:
            self._add(as_is, "normalized program")
        return self._run_inner(
            norm.program,
            self._proxy(norm.program),
            lambda g: norm.restore(g, target),
            to_beat,
            "normalized",
        )

    def _run_inner(
        self,
        program: Graph,
        proxy: Graph | None,
        restore: Callable[[Graph], Graph],
        to_beat: float,
        source: str,
    ) -> SearchResult:
        """The search of `program` (the normalized program, or the program itself), or of
        its small member `proxy` in its stead, cut by what the program itself costs
        (`to_beat`); what it finds, carried back to `program`'s shapes where it searched
        the proxy, restored onto the program's own arguments and outputs (`restore`), and
        verified against the program itself."""
        assert self.options.target is not None
        target = self.options.target
        start = self.started
        if proxy is not None and self.options.seed_with_program:
            # the small member's search ranks its candidates at its own shapes, where the
            # seeds' launches weigh differently: built at the program's own shapes too,
            # verified at the end with what it carries back, cheapest first
            for found, source in self._built(program, restore):
                if found.seconds < self.bar:
                    self._add(found, source)
        # what is left, less the time to verify what the inner search finds against the
        # program (two verifications as long as the longest so far, at least the share; a
        # search at a small member leaves more, as no verification at the program's own
        # shapes has told yet how long one takes)
        left = max(0.0, self.deadline - time.time())
        share = PROXY_SHARE if proxy is not None else NORMALIZED_SHARE
        reserve = min(left / 2, max(left * (1 - share), 2 * self.verify_seconds))
        budget = left - reserve
        label = "[normalized]" if source else ""
        if proxy is not None:
            label += "[small member]"
        record = SearchRecord(f"{self.record.name}{label}")
        options = replace(
            self.options,
            time_budget=budget,
            normalize=False,
            profile=False,
            proxy_elements=0,
            keep=max(self.options.keep, INNER_KEEP),
        )
        searched = proxy if proxy is not None else program
        verifier = self.make_verifier(searched)
        inner = Search(
            searched,
            options,
            self.job.make_pruner,
            verifier,
            executor=self.executor,
            progress=self.progress_stream,
            make_verifier=self.make_verifier,
            record=record,
            stop=self.stop,
            # a small member's search has the bars of its own shapes
            to_beat=None if proxy is not None else to_beat,
            unfit_bar=None if proxy is not None else self.unfit_bar,
            carry=program if proxy is not None else None,
        ).run()
        self.stats = dict(inner.stats)
        self.remarks.extend(inner.remarks)
        carried = 0
        for r in inner.ranked:
            graph = r.graph if proxy is None else retile(r.graph, program, target)
            if graph is None:
                continue
            carried += 1
            restored = restore(graph)
            for graph, how in (
                (restored, source),
                (fold_layout_ops(restored), f"{source}, folded" if source else "folded"),
            ):
                found = self._priced(graph)
                if found is not None:
                    self._add(found, how or "small member")
        if proxy is not None:
            shapes = ", ".join(str(t) for t in proxy.args)
            self.remarks.append(
                f"searched at a small member of its shape family ({shapes}); "
                f"{carried} of {len(inner.ranked)} verified μGraphs carried back to its shapes"
            )
        # the report shows the inner search as one segment spanning the whole program
        whole = Segment(
            0,
            len(self.program.ops),
            tuple(range(len(self.program.args))),
            tuple(dict.fromkeys(self.program.outputs)),
        )
        out = self._ranked()
        self.record.segment(whole, bool(out) and out[0].seconds < to_beat, record)
        elapsed = time.time() - start
        self.record.finish(
            [(r.graph, r.seconds, r.measured, r.verdict) for r in out], inner.complete, elapsed
        )
        return SearchResult(
            out,
            to_beat,
            self.stats,
            inner.complete,
            elapsed,
            inner.units,
            self._rejected(),
            self.stop(),
            self.remarks,
        )

    def _seed(self) -> None:
        """The program fused as it is, with its softmax in online form (one kernel, and
        split over the keys: `online_split.py`) and cut at its contraction stages
        (`stages.py`), parallelized: the first candidates (`seed.py`, `online.py`). Fused
        as it is means the cheapest of its epilogue after the loop, all of it in the loop
        and its norms distributed over its matmuls. They are verified cheapest first until
        one passes (at realistic shapes a verification is the seed's dearest part): it
        bounds the enumeration."""
        assert self.options.target is not None
        if len(self.program.ops) > MAX_SEED_OPS:
            return
        self._verify_first(self._built(self.program, lambda g: g))

    def _built(self, program: Graph, restore: Callable[[Graph], Graph]) -> list[tuple[Found, str]]:
        """`program` fused whole (the cheapest of its fused forms), with its softmax in
        online form, and by its contraction stages, each at its cheapest parallelization
        and restored onto the searched program (`restore`)."""
        assert self.options.target is not None
        built: list[tuple[Found, str]] = []
        for ops, source in (
            (fused_forms(program), "seed"),
            ([online_structure(program)], "online seed"),
        ):
            found = [
                f
                for op in dict.fromkeys(ops)
                if op is not None
                and (graph := parallelized(program, op, self.options.target)) is not None
                and (f := self._priced(restore(graph))) is not None
            ]
            if found:
                built.append((min(found, key=lambda f: (f.seconds, f.text)), source))
        # a split pair is two kernels: only where the search may use that many. Built at
        # the program's own shapes also where a small member is searched: what carries
        # back from there is what the small member's search kept, which need not be a pair.
        if self.options.max_kernel_ops >= 2:
            for pair in online_split_candidates(program, self.options.target):
                found_pair = self._priced(restore(pair))
                if found_pair is not None:
                    built.append((found_pair, "online split seed"))
        return built + self._staged(program, restore)

    def _verify_first(self, candidates: list[tuple[Found, str]]) -> None:
        """Takes the candidates and verifies them cheapest first, among those that beat
        the bar, until one passes (and is finite in storage where the program is not)."""
        for found, source in candidates:
            self._add(found, source)
        for found, _ in sorted(candidates, key=lambda fs: (fs[0].seconds, fs[0].text)):
            if found.seconds >= self.bar:
                break
            if self._verify(found) and self._fits(found.text):
                break

    def _distributed(self) -> list[tuple[Found, str]]:
        """The program with its norms distributed over the matmuls that read them
        (`algebra.py`), normalized (a layer norm's row shifts are windows of the normed
        values), fused whole and by stages: candidates that walk the contraction with the
        norm's statistics, which the program as written (a whole row before the first
        product) has none of."""
        assert self.options.target is not None
        target = self.options.target
        distributed = distribute_norms(self.program)
        if distributed is None:
            return []
        norm = normalize(distributed)
        searched = norm.program if norm is not None else distributed
        restore: Callable[[Graph], Graph] = (
            (lambda g: norm.restore(g, target)) if norm is not None else (lambda g: g)
        )
        out: list[tuple[Found, str]] = []
        whole = [
            f
            for op in fused_forms(searched)
            if (graph := parallelized(searched, op, target)) is not None
            for f in [self._priced(restore(graph))]
            if f is not None and f.seconds < self.bar
        ]
        if whole:
            out.append((min(whole, key=lambda f: (f.seconds, f.text)), "distributed norms"))
        return out + self._staged(searched, restore, "distributed norms, stages")

    def _staged(
        self, program: Graph, restore: Callable[[Graph], Graph], source: str = "stages"
    ) -> list[tuple[Found, str]]:
        """`program` cut at its contraction stages (`stages.py`), each stage fused into one
        launch where it has a fused form that fits, restored onto the searched program's
        layouts (`restore`), and that with its layout ops folded into views: candidates
        cheaper than the bar."""
        assert self.options.target is not None
        target = self.options.target
        cut = stages(program)
        if cut is None:
            return []
        ordered, parts_of = cut
        parts: list[tuple[Segment, Graph]] = []
        for segment in parts_of:
            sub = subprogram(ordered, segment)
            forms = [*fused_forms(sub), online_structure(sub)]
            found = [
                f
                for op in dict.fromkeys(forms)
                if op is not None and (graph := parallelized(sub, op, target)) is not None
                for f in [self._priced(graph)]
                if f is not None
            ]
            best = min(found, key=lambda f: (f.seconds, f.text)) if found else None
            parts.append((segment, best.graph if best is not None else sub))
        composed = restore(compose(ordered, parts))
        out: list[tuple[Found, str]] = []
        for graph, how in ((composed, source), (fold_layout_ops(composed), f"{source}, folded")):
            found = self._priced(graph)
            if found is not None and found.seconds < self.bar:
                out.append((found, how))
        return out

    def _seed_with_segments(self, deadline: float) -> None:
        """A long program's segments searched one by one, put back together: one more
        candidate (`partition.py`)."""
        cut = segments(self.program)
        if cut is None:
            return
        parts: list[tuple[Segment, Graph]] = []
        changed = False
        searched = [i for i, segment in enumerate(cut) if _searchable(self.program, segment)]
        for i, segment in enumerate(cut):
            sub = subprogram(self.program, segment)
            if i not in searched:
                kinds = ", ".join(op.kind for op in sub.ops)
                self.remarks.append(
                    f"ops {segment.start}-{segment.stop - 1} ({kinds}) not searched: the "
                    "search generates none of them; they stay as they are"
                )
                parts.append((segment, sub))
                continue
            budget = (deadline - time.time()) / (len(searched) - searched.index(i))
            record = SearchRecord(f"{self.record.name}[{segment.start}:{segment.stop}]")
            if budget < MIN_SEGMENT_SECONDS or self.stop():
                parts.append((segment, sub))
                self.record.segment(segment, False, record)
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
                record=record,
                stop=self.stop,
            ).run()
            for k, v in result.stats.items():
                self.stats[k] = self.stats.get(k, 0) + v
            self.remarks.extend(result.remarks)
            used = bool(result.ranked) and result.ranked[0].seconds < result.baseline
            self.record.segment(segment, used, record)
            if used:
                parts.append((segment, result.ranked[0].graph))
                changed = True
            else:
                parts.append((segment, sub))
        if not changed or self.stop():
            return
        composed = compose(self.program, parts)
        for kind, graph in (
            ("segments", composed),
            ("segments, inlined", inline_producers(composed)),
        ):
            if graph is None:
                continue
            found = self._priced(graph)
            self.record.composition(kind, found)
            if found is not None:
                self._add(found, kind)
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
        explorer = Explorer(job, should_stop=self.stop)
        workers = max(1, self.options.workers)
        units = split(explorer, UNITS_PER_WORKER * workers)
        self.record.phase(job.limits.max_kernel_ops, len(units), job.bound, explorer.take_counts())
        if self.executor is not None or workers > 1:
            return len(units), len(units), self._run_parallel(job, units, deadline, workers)
        done = 0
        for path in units:
            result = explorer.run(path, deadline)
            if explorer.interrupted:
                raise KeyboardInterrupt  # a second Ctrl-C: give up now
            self._take(result)
            done += 1
            self.progress.show(
                self.stats,
                sum(self.verified.values()),
                self._best_verified(),
                f"{done}/{len(units)}",
            )
            if not result.complete or explorer.interrupted or self.stop() or time.time() > deadline:
                return done, len(units), False
        return done, len(units), True

    def _run_parallel(self, job: Job, units: Sequence[Path], deadline: float, workers: int) -> bool:
        channel: Channel | None = None
        executor = self.executor
        own: LocalPool | None = None
        if executor is None:
            channel = Channel.create()
            executor = own = local_pool(workers, channel)
        job_id = uuid.uuid4().hex
        pending: set[Future[UnitResult]] = set()
        complete = True
        done = 0
        stopped_at: float | None = None
        try:
            pending = {executor.submit(run_unit, job_id, job, path, deadline) for path in units}
            while pending:
                finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for fut in finished:
                    if fut.cancelled():
                        complete = False
                        continue
                    try:
                        result = fut.result()
                    except BrokenProcessPool:
                        raise ValueError(
                            "a worker process of the search died (out of memory?)"
                        ) from None
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
                if self.stop() or time.time() > deadline + 1.0:
                    complete = False
                    if stopped_at is None:
                        stopped_at = time.time()
                        self._stop(channel, pending)
                    elif time.time() > stopped_at + STOP_GRACE:
                        break  # units that did not report in time are given up
        finally:
            if own is not None:
                if pending:
                    own.terminate()
                else:
                    own.shutdown(wait=True, cancel_futures=True)
            else:
                for fut in pending:
                    fut.cancel()
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


def _searchable(program: Graph, segment: Segment) -> bool:
    return all(searchable(op) for op in program.ops[segment.start : segment.stop])


def _default_verifier(program: Graph) -> EquivalenceCheck:
    return Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))


def stderr_if_terminal() -> TextIO | None:
    return sys.stderr if sys.stderr.isatty() else None
