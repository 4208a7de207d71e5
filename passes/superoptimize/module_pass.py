"""`superoptimize{...}`: replaces each kernel-level function with the best μGraph found.

A function is kernel-level when its body holds only pre-defined kernel ops (no
`kernel.graph` yet). If some function carries the unit attribute `mirage.superoptimize`,
only the marked ones are superoptimized. A function the search cannot improve (by the cost
model, or by measurement with `profile=true`) is left as it is, with a remark on stderr.

Options: `time-budget` (seconds), `max-kernel-ops`, `max-block-ops` (block ops per
graph-defined op, input iterators and output savers included), `workers` (processes),
`target` (sm_80 or sm_90), `seed` (random tests and fingerprints), `cache` (a directory for
search results and pruning answers; empty: none), `profile` (rank the best candidates by
time measured on the GPU), `keep` (verified candidates kept and ranked).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.pruning import Pruner
from mirage.passes.superoptimize.results_cache import CachedEntry, ResultsCache, cache_key
from mirage.passes.superoptimize.search import (
    Ranked,
    Search,
    SearchOptions,
    SearchResult,
    stderr_if_terminal,
)
from mirage.passes.superoptimize.target import TARGETS

MARKER = "mirage.superoptimize"


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

    def _check(self) -> None:
        if self.target not in TARGETS:
            raise PassFailedException(
                f"{self.name}: target must be one of {', '.join(sorted(TARGETS))}, "
                f"got '{self.target}'"
            )
        for option, value, least in (
            ("time-budget", self.time_budget, 0),
            ("max-kernel-ops", self.max_kernel_ops, 1),
            ("max-block-ops", self.max_block_ops, 3),
            ("workers", self.workers, 1),
            ("keep", self.keep, 1),
        ):
            if value < least:
                raise PassFailedException(
                    f"{self.name}: {option} must be at least {least}, got {value}"
                )

    def search_options(self) -> SearchOptions:
        return SearchOptions(
            time_budget=self.time_budget,
            max_kernel_ops=self.max_kernel_ops,
            max_block_ops=self.max_block_ops,
            workers=self.workers,
            target=TARGETS[self.target],
            seed=self.seed,
            keep=self.keep,
            profile=self.profile,
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
        }

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        self._check()
        funcs = [f for f in op.ops if isinstance(f, FuncOp) and not f.is_declaration]
        marked = [f for f in funcs if MARKER in f.attributes]
        for func in marked or funcs:
            name = func.sym_name.data
            if not _kernel_level(func):
                if marked:
                    raise PassFailedException(
                        f"{self.name}: @{name} is marked but is not a function of "
                        "pre-defined kernel ops"
                    )
                continue
            try:
                program = graph_from_func(func)
            except ValueError as e:
                raise PassFailedException(f"{self.name}: @{name}: {e}") from None
            best, baseline = self._best(name, program)
            if best is None or _seconds(best) >= baseline:
                remark(name, "no μGraph faster than the function was found; left unchanged")
                continue
            new = func_from_graph(name, best.graph)
            for key, value in func.attributes.items():
                if key not in ("sym_name", "function_type", MARKER):
                    new.attributes[key] = value
            if func.sym_visibility is not None:
                new.sym_visibility = func.sym_visibility
            op.body.block.insert_op_before(new, func)
            op.body.block.erase_op(func)

    def _best(self, name: str, program: Graph) -> tuple[Ranked | None, float]:
        """The best verified candidate and the program's own time (same measure)."""
        results = ResultsCache(self.cache) if self.cache else None
        key = cache_key(program, self._key_options())
        if results is not None:
            hit = results.get(key)
            if hit is not None:
                if not hit.graphs:
                    return None, hit.baseline
                return Ranked(hit.graphs[0], hit.seconds[0], hit.measured[0]), hit.baseline
        result = self._search(name, program)
        for text in result.remarks:
            remark(name, text)
        baseline = result.baseline
        if self.profile and result.ranked:
            baseline = self._measure([program])[0]
        if results is not None:
            results.put(
                key,
                CachedEntry(
                    [r.graph for r in result.ranked],
                    [r.seconds for r in result.ranked],
                    [r.measured for r in result.ranked],
                    baseline,
                    {**result.stats, "complete": result.complete, "units": result.units},
                ),
            )
        return (result.ranked[0] if result.ranked else None), baseline

    def _search(self, name: str, program: Graph) -> SearchResult:
        from mirage.passes.equivalence.verifier import (
            SEARCH_OPTIONS,
            VerificationError,
            Verifier,
            VerifierOptions,
        )

        try:
            options = VerifierOptions(seed=self.seed, stability=SEARCH_OPTIONS)
            verifier = Verifier(program, options)
        except VerificationError as e:
            raise PassFailedException(f"{self.name}: @{name}: {e}") from None
        profiler = None
        if self.profile:
            from mirage.passes.superoptimize.profile import GpuProfiler, ProfileError

            try:
                profiler = GpuProfiler(self.target)
            except ProfileError as e:
                raise PassFailedException(f"{self.name}: {e}") from None
        pruning = str(Path(self.cache) / "pruning.log") if self.cache else None
        try:
            return Search(
                program,
                self.search_options(),
                PrunerFactory(pruning),
                verifier,
                profiler,
                progress=stderr_if_terminal(),
                make_verifier=lambda g: Verifier(g, options),
            ).run()
        except ValueError as e:
            raise PassFailedException(f"{self.name}: @{name}: {e}") from None

    def _measure(self, graphs: list[Graph]) -> list[float]:
        from mirage.passes.superoptimize.profile import GpuProfiler

        return GpuProfiler(self.target).measure(graphs)


def _seconds(r: Ranked) -> float:
    return r.measured if r.measured is not None else r.seconds


def _kernel_level(func: FuncOp) -> bool:
    ops = list(func.body.block.ops)
    return bool(ops) and all(
        isinstance(o, ReturnOp) or (o.dialect_name() == "kernel" and o.name != "kernel.graph")
        for o in ops
    )
