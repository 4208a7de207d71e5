"""`superoptimize{...}`: replaces each kernel-level function with the best μGraph found.

A function is kernel-level when its body holds only pre-defined kernel ops (no
`kernel.graph` yet). If some function carries the unit attribute `mirage.superoptimize`,
only the marked ones are superoptimized. A function the search cannot improve (by the cost
model, or by measurement with `profile=true`) is left as it is, with a remark on stderr.

Options: `time-budget` (seconds), `max-kernel-ops` (per searched program: the function or,
for a long one, each of its segments; their composition may hold more), `max-block-ops`
(block ops per graph-defined op, input iterators and output savers included), `workers`
(processes),
`target` (sm_80 or sm_90), `seed` (random tests and fingerprints), `cache` (a directory for
search results and pruning answers; empty: none), `profile` (rank the best candidates by
time measured on the GPU), `keep` (verified candidates kept and ranked), `report` (a
directory: what each search did, as report.json and the page report.html; the search runs
even where the results cache knows the answer, so that there is something to report),
`executor` (where the units run: `local`, the process pool, or a Dask cluster,
`cluster.py`), `normalize` (search the program with its reshapes, transposes and constants
normalized away, `normalize.py`; default true), `proxy-elements` (a program whose tensors
hold more elements is searched at a small member of its shape family and what is found
verified at its own shapes, `family.py`; 0: never).

A cached μGraph is verified against the function before it replaces it: the cache is a
shortcut, never trusted. The first Ctrl-C stops the search of every function and keeps the
best μGraph verified so far (`interrupt.py`).
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from mirage.dialects.hardware import SM_80, SM_90, Target, usable_cpus
from mirage.dialects.ugraph.footprint import check_footprint
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.equivalence.verifier import (
    SEARCH_OPTIONS,
    VerificationError,
    Verifier,
    VerifierOptions,
)
from mirage.passes.pictures.report_page import write_report
from mirage.passes.pruning import Pruner
from mirage.passes.superoptimize.cluster import ClusterError, parse_executor, unit_executor
from mirage.passes.superoptimize.family import PROXY_ELEMENTS
from mirage.passes.superoptimize.interrupt import StopFlag, first_sigint_stops
from mirage.passes.superoptimize.profile import GpuProfiler, ProfileError
from mirage.passes.superoptimize.results_cache import CachedEntry, ResultsCache, cache_key
from mirage.passes.superoptimize.search import (
    Ranked,
    Search,
    SearchOptions,
    SearchResult,
    stderr_if_terminal,
)
from mirage.passes.superoptimize.search_record import SearchRecord

MARKER = "mirage.superoptimize"
MAX_PROGRAM_OPS = 2000
"""Longer functions are left as they are, with a remark."""
PRUNING_LOG = "pruning.log"

SEARCH_TARGETS: dict[str, Target] = {t.name: t for t in (SM_80, SM_90)}
"""The targets the cost model has figures fitted for."""


@dataclass(frozen=True)
class PrunerFactory:
    """Builds the pruner of a program in whichever process needs it (picklable)."""

    cache: str | None

    def __call__(self, program: Graph) -> Pruner:
        return Pruner(program, cache=self.cache)


def remark(name: str, text: str) -> None:
    sys.stderr.write(f"remark: superoptimize: @{name}: {text}\n")


@dataclass(frozen=True)
class SuperoptimizePass(ModulePass):
    name = "superoptimize"

    time_budget: int | float = 600
    max_kernel_ops: int = 2
    max_block_ops: int = 11
    workers: int = 2
    target: str = "sm_90"
    seed: int = 0
    cache: str = ""
    profile: bool = False
    keep: int = 3
    report: str = ""
    executor: str = "local"
    normalize: bool = True
    proxy_elements: int = PROXY_ELEMENTS

    def _check(self) -> None:
        # Names as users type them in `superoptimize{...}`.
        if self.target not in SEARCH_TARGETS:
            raise PassFailedException(
                f"{self.name}: target must be one of {', '.join(sorted(SEARCH_TARGETS))}, "
                f"got '{self.target}'"
            )
        for option, value, least in (
            ("time-budget", self.time_budget, 0),
            ("max-kernel-ops", self.max_kernel_ops, 1),
            ("max-block-ops", self.max_block_ops, 3),
            ("workers", self.workers, 1),
            ("seed", self.seed, 0),
            ("keep", self.keep, 1),
            ("proxy-elements", self.proxy_elements, 0),
        ):
            if value < least:
                raise PassFailedException(
                    f"{self.name}: {option} must be at least {least}, got {value}"
                )
        try:
            parse_executor(self.executor)
        except ValueError as e:
            raise PassFailedException(f"{self.name}: {e}") from None

    def search_options(self) -> SearchOptions:
        return SearchOptions(
            time_budget=self.time_budget,
            max_kernel_ops=self.max_kernel_ops,
            max_block_ops=self.max_block_ops,
            workers=min(self.workers, usable_cpus()),
            target=SEARCH_TARGETS[self.target],
            seed=self.seed,
            keep=self.keep,
            profile=self.profile,
            normalize=self.normalize,
            proxy_elements=self.proxy_elements,
        )

    def _key_options(self) -> dict[str, object]:
        """The options that change what the search finds."""
        return {
            "time_budget": self.time_budget,
            "max_kernel_ops": self.max_kernel_ops,
            "max_block_ops": self.max_block_ops,
            "target": self.target,
            "seed": self.seed,
            "keep": self.keep,
            "profile": self.profile,
            "normalize": self.normalize,
            "proxy_elements": self.proxy_elements,
        }

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        self._check()
        cache = self._cache_folder()
        if self.workers > usable_cpus():
            sys.stderr.write(
                f"remark: superoptimize: workers={self.workers}: {usable_cpus()} CPUs "
                f"here, using {usable_cpus()} worker processes\n"
            )
        funcs = [f for f in op.ops if isinstance(f, FuncOp) and not f.is_declaration]
        marked = [f for f in funcs if MARKER in f.attributes]
        records: list[SearchRecord] = []
        stop = StopFlag()
        for func in marked or funcs:
            name = func.sym_name.data
            if not _kernel_level(func):
                if marked:
                    raise PassFailedException(
                        f"{self.name}: @{name} is marked but is not a function of "
                        "pre-defined kernel ops"
                    )
                if _imported(func):
                    remark(
                        name,
                        "holds linalg/tensor ops, not kernel ops; left unchanged (run "
                        "convert-linalg-to-kernel first: "
                        "-p 'convert-linalg-to-kernel,superoptimize')",
                    )
                continue
            if stop():
                remark(name, "interrupted before its search; left unchanged")
                continue
            try:
                check_footprint(func, 8, "the random tests of the verifier")
                program = graph_from_func(func)
            except ValueError as e:
                raise PassFailedException(f"{self.name}: @{name}: {e}") from None
            if len(program.ops) > MAX_PROGRAM_OPS:
                # the verifier's reference tests of the whole program would alone outlast
                # any budget; such a program is a model, not a kernel
                remark(
                    name,
                    f"{len(program.ops)} kernel ops, more than the {MAX_PROGRAM_OPS} the "
                    "search takes in one function; left unchanged (split it into functions)",
                )
                continue
            record = SearchRecord(name)
            records.append(record)
            with first_sigint_stops(stop):
                best, baseline = self._best(name, program, record, cache, stop)
            if best is None or _seconds(best) >= baseline:
                record.outcome = "unchanged"
                remark(name, "no μGraph faster than the function was found; left unchanged")
                continue
            record.outcome = "replaced"
            new = func_from_graph(name, best.graph)
            for key, value in func.attributes.items():
                if key not in ("sym_name", "function_type", MARKER):
                    new.attributes[key] = value
            if func.sym_visibility is not None:
                new.sym_visibility = func.sym_visibility
            op.body.block.insert_op_before(new, func)
            op.body.block.erase_op(func)
        if self.report:
            self._write_report(records)

    def _write_report(self, records: list[SearchRecord]) -> None:

        try:
            options = {**self._key_options(), "workers": self.workers}
            write_report(Path(self.report), [r.to_json() for r in records], options)
        except OSError as e:
            raise PassFailedException(
                f"{self.name}: cannot write the report to '{self.report}': {e.strerror}"
            ) from None

    def key_options(self) -> dict[str, object]:
        """What the results cache keys a program's search by, beside the program."""
        return self._key_options()

    def best(self, name: str, program: Graph) -> tuple[Ranked | None, float]:
        """The best verified μGraph of `program` (None if none beats it) and the program's
        own time, from the results cache or a search that fills it: the pass's decision
        for one program, for callers that are not a pass pipeline (mirage.torch)."""
        self._check()
        return self._best(name, program, SearchRecord(name), self._cache_folder(), StopFlag())

    def _cache_folder(self) -> Path | None:
        """The cache folder (`~` expanded), created if need be; one clear error when it
        cannot be used."""
        if not self.cache:
            return None
        folder = Path(self.cache).expanduser()
        where = f"{self.name}: cache={self.cache}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "results").mkdir(exist_ok=True)
        except FileExistsError:
            raise PassFailedException(f"{where}: not a folder") from None
        except OSError as e:
            raise PassFailedException(f"{where}: cannot create it ({e.strerror})") from None
        for path in (folder, folder / "results"):
            if not path.is_dir():
                raise PassFailedException(f"{where}: {path} is not a folder")
            if not os.access(path, os.W_OK | os.X_OK):
                raise PassFailedException(f"{where}: the folder {path} is not writable")
        log = folder / PRUNING_LOG
        if log.exists() and not log.is_file():
            raise PassFailedException(f"{where}: {log} is not a file")
        if log.exists() and not os.access(log, os.R_OK | os.W_OK):
            raise PassFailedException(f"{where}: {log} is not readable and writable")
        return folder

    def _best(
        self,
        name: str,
        program: Graph,
        record: SearchRecord,
        cache: Path | None,
        stop: StopFlag,
    ) -> tuple[Ranked | None, float]:
        """The best verified candidate and the program's own time (same measure)."""
        results = ResultsCache(cache) if cache is not None else None
        key = cache_key(program, self._key_options())
        if results is not None and not self.report:
            hit = results.get(key)
            if hit is not None and self._trusted(name, program, hit):
                if not hit.graphs:
                    return None, hit.baseline
                return Ranked(hit.graphs[0], hit.seconds[0], hit.measured[0]), hit.baseline
        result = self._search(name, program, record, cache, stop)
        for text in result.remarks:
            remark(name, text)
        baseline = result.baseline
        if result.interrupted:
            remark(name, "interrupted: the best μGraph verified so far is used")
        if self.profile and result.ranked and not result.interrupted and baseline < math.inf:
            baseline = self._measure([program])[0]
        if results is not None and not result.interrupted:
            failed = results.put(
                key,
                CachedEntry(
                    [r.graph for r in result.ranked],
                    [r.seconds for r in result.ranked],
                    [r.measured for r in result.ranked],
                    baseline,
                    {**result.stats, "complete": result.complete, "units": result.units},
                ),
            )
            if failed is not None:
                remark(name, f"the result was not cached ({failed})")
        return (result.ranked[0] if result.ranked else None), baseline

    def _trusted(self, name: str, program: Graph, hit: CachedEntry) -> bool:
        """Whether the μGraph a cache entry would put in the output is proven equivalent
        to the program (the same verifier as the search's; at the size of one program it
        takes a fraction of the search's time). An entry that fails is a miss."""
        if not hit.graphs:
            return True  # the function stays as it is: nothing to trust
        try:
            options = VerifierOptions(seed=self.seed, stability=SEARCH_OPTIONS)
            verdict = Verifier(program, options).verify(hit.graphs[0])
        except (VerificationError, ValueError):
            verdict = None
        if verdict is not None and verdict.equivalent:
            return True
        remark(name, "the cached μGraph is not equivalent to the function; searching again")
        return False

    def _search(
        self,
        name: str,
        program: Graph,
        record: SearchRecord,
        cache: Path | None,
        stop: StopFlag,
    ) -> SearchResult:
        try:
            options = VerifierOptions(seed=self.seed, stability=SEARCH_OPTIONS)
            verifier = Verifier(program, options)
        except VerificationError as e:
            raise PassFailedException(f"{self.name}: @{name}: {e}") from None
        profiler = None
        if self.profile:
            try:
                profiler = GpuProfiler(self.target)
            except ProfileError as e:
                raise PassFailedException(f"{self.name}: {e}") from None
        pruning = str(cache / PRUNING_LOG) if cache is not None else None
        try:
            with unit_executor(self.executor, self.workers) as units:
                return Search(
                    program,
                    replace(self.search_options(), workers=units.workers),
                    PrunerFactory(pruning),
                    verifier,
                    profiler,
                    executor=units.executor,
                    progress=stderr_if_terminal(),
                    make_verifier=lambda g: Verifier(g, options),
                    record=record,
                    stop=stop,
                ).run()
        except ClusterError as e:
            raise PassFailedException(f"{self.name}: {e}") from None
        except ValueError as e:
            raise PassFailedException(f"{self.name}: @{name}: {e}") from None

    def _measure(self, graphs: list[Graph]) -> list[float]:
        return GpuProfiler(self.target).measure(graphs)


def _seconds(r: Ranked) -> float:
    return r.measured if r.measured is not None else r.seconds


def _imported(func: FuncOp) -> bool:
    """A function still in the import dialects (convert-linalg-to-kernel's input)."""
    return any(o.dialect_name() in ("linalg", "tensor") for o in func.walk())


def _kernel_level(func: FuncOp) -> bool:
    ops = list(func.body.block.ops)
    return bool(ops) and all(
        isinstance(o, ReturnOp) or (o.dialect_name() == "kernel" and o.name != "kernel.graph")
        for o in ops
    )
