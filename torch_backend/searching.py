"""One subgraph's μGraph: from the results cache, re-tiled from a searched shape of its
family, or searched, in that order.

Search results are the `superoptimize` pass's own cache (`results_cache.py`: keyed by the
program, which holds its shapes and element types, the options and the target), so
`mirage-opt -p 'superoptimize{cache=DIR}'` and the backend share answers. Beside it,
`<cache>/torch/families/` lists, per shape family (`family.family_key`), the result keys
of the members searched, so a second process finds the family too.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.family import family_key, retile
from mirage.passes.superoptimize.module_pass import SEARCH_TARGETS, SuperoptimizePass
from mirage.passes.superoptimize.results_cache import CachedEntry, ResultsCache, cache_key
from mirage.torch.options import BackendOptions

log = logging.getLogger("mirage.torch")


@dataclass(frozen=True)
class Chosen:
    graph: Graph
    """What runs: the best μGraph, or the program itself where none beats it."""
    program: Graph
    how: str
    """'cache', 'retiled', 'searched' or 'as imported'."""
    detail: str
    seconds: float
    """Wall time it took to decide."""


def describe(program: Graph) -> str:
    kinds = [op.kind for op in program.ops]
    args = ", ".join(str(t) for t in program.args)
    return f"{len(kinds)} kernel ops ({' '.join(kinds)}) on {args}"


class Searcher:
    def __init__(self, options: BackendOptions) -> None:
        self.options = options
        self.superoptimize = SuperoptimizePass(
            time_budget=options.time_budget,
            max_kernel_ops=options.max_kernel_ops,
            max_block_ops=options.max_block_ops,
            workers=options.workers,
            target=options.target,
            seed=options.seed,
            cache=options.cache,
        )
        self.target = SEARCH_TARGETS[options.target]
        self.results = ResultsCache(options.cache) if options.cache else None
        self.families_dir = Path(options.cache) / "torch" / "families" if options.cache else None
        self._members: dict[str, list[Graph | None]] = {}
        """μGraphs of each family found in this process (all there is without a cache);
        None for a member where no μGraph beat the program."""

    def choose(self, name: str, program: Graph) -> Chosen:
        began = time.time()
        key = cache_key(program, self.superoptimize.key_options())
        fam = family_key(program)
        if self.results is not None:
            hit = self.results.get(key)
            if hit is not None:
                improved = bool(hit.graphs) and hit.seconds[0] < hit.baseline
                self._remember(fam, key, hit.graphs[0] if improved else None)
                if not improved:
                    # as a search that finds nothing: PyTorch runs it unless asked otherwise
                    detail = "search result from the cache: no μGraph faster than the program"
                    return Chosen(program, program, "as imported", detail, _since(began))
                detail = "search result from the cache"
                return Chosen(hit.graphs[0], program, "cache", detail, _since(began))
        if not self.options.full_search:
            chosen = self._retiled(name, program, key, fam, began)
            if chosen is not None:
                return chosen
        return self._search(name, program, key, fam, began)

    # --- shape families ------------------------------------------------------------

    def seed(self, program: Graph, ugraph: Graph) -> None:
        """Make `ugraph`, a verified μGraph of `program` found elsewhere (benchmarks/found),
        a member of `program`'s family: subgraphs of that family are re-tiled from it
        (and verified against themselves) instead of searched."""
        self._remember(family_key(program), "", ugraph)

    def _siblings(self, fam: str) -> list[Graph | None]:
        found = list(self._members.get(fam, []))
        if self.results is None:
            return found
        for key in self._family_keys(fam):
            entry = self.results.get(key)
            if entry is None:
                continue
            improved = bool(entry.graphs) and entry.seconds[0] < entry.baseline
            graph = entry.graphs[0] if improved else None
            if graph not in found:
                found.append(graph)
        return found

    def _retiled(
        self, name: str, program: Graph, key: str, fam: str, began: float
    ) -> Chosen | None:
        siblings = self._siblings(fam)
        if not siblings:
            return None
        if all(s is None for s in siblings):
            # The search found nothing better than the program at another shape: neither
            # is a re-tiling of it worth a search.
            detail = "as imported: no μGraph beat the program at a searched shape of its family"
            log.info("mirage: @%s: %s", name, detail)
            return Chosen(program, program, "as imported", detail, _since(began))
        verifier: Verifier | None = None
        for sibling in siblings:
            if sibling is None:
                continue
            graph = retile(sibling, program, self.target)
            if graph is None:
                continue
            if verifier is None:
                verifier = Verifier(program, VerifierOptions(seed=self.options.seed))
            verdict = verifier.verify(graph)
            if not verdict.equivalent:
                log.info("mirage: @%s: a re-tiled μGraph was rejected: %s", name, verdict)
                continue
            seconds = _since(began)
            cost = program_cost(graph, self.target).seconds
            baseline = program_cost(program, self.target).seconds
            olds = ", ".join(str(t) for t in sibling.args)
            detail = f"re-tiled from the μGraph searched at {olds} in {seconds:.2f} s"
            log.info("mirage: @%s: %s", name, detail)
            self._store(key, fam, CachedEntry([graph], [cost], [None], baseline, {"retiled": 1}))
            self._remember(fam, key, graph)
            return Chosen(graph, program, "retiled", detail, seconds)
        log.info("mirage: @%s: no searched shape of its family fits; searching", name)
        return None

    # --- searching -----------------------------------------------------------------

    def _search(self, name: str, program: Graph, key: str, fam: str, began: float) -> Chosen:
        what = describe(program)
        log.info(
            "mirage: @%s: searching %s (time budget %g s)", name, what, self.options.time_budget
        )
        if sys.stderr.isatty():
            sys.stderr.write(f"mirage: searching @{name}: {what}\n")
        best, baseline = self.superoptimize.best(name, program)
        seconds = _since(began)
        if best is None or best.seconds >= baseline:
            graph, how = program, "as imported"
            detail = f"searched {seconds:.1f} s, no μGraph faster than the program"
        else:
            graph, how = best.graph, "searched"
            detail = (
                f"searched {seconds:.1f} s: {len(best.graph.ops)} kernels, cost model "
                f"{best.seconds * 1e6:.2f} us (the program: {baseline * 1e6:.2f} us)"
            )
        log.info("mirage: @%s: %s", name, detail)
        if sys.stderr.isatty():
            sys.stderr.write(f"mirage: @{name}: {detail}\n")
        if self.results is not None:
            self._add_family_key(fam, key)
        self._remember(fam, key, graph if how == "searched" else None)
        return Chosen(graph, program, how, detail, seconds)

    # --- bookkeeping ---------------------------------------------------------------

    def _remember(self, fam: str, key: str, graph: Graph | None) -> None:
        del key
        members = self._members.setdefault(fam, [])
        if graph not in members:
            members.append(graph)

    def _store(self, key: str, fam: str, entry: CachedEntry) -> None:
        if self.results is None:
            return
        self.results.put(key, entry)
        self._add_family_key(fam, key)

    def _family_path(self, fam: str) -> Path | None:
        return None if self.families_dir is None else self.families_dir / f"{fam}.json"

    def _family_keys(self, fam: str) -> list[str]:
        path = self._family_path(fam)
        if path is None:
            return []
        try:
            data: object = json.loads(path.read_text())
        except (OSError, ValueError):
            return []
        if not isinstance(data, list):
            return []
        keys: list[object] = data  # pyright: ignore[reportUnknownVariableType]
        return [str(k) for k in keys]

    def _add_family_key(self, fam: str, key: str) -> None:
        path = self._family_path(fam)
        if path is None:
            return
        keys = self._family_keys(fam)
        if key in keys:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump([*keys, key], f)
        os.replace(tmp, path)


def _since(began: float) -> float:
    return time.time() - began
