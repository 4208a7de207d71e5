"""The pruning check of the search: does a prefix's every value still fit the target?"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.pruning.cache import AnswerCache
from mirage.passes.pruning.canonical import Canonical, canonical
from mirage.passes.pruning.exprs import AbstractExprs, ExprBuilder
from mirage.passes.pruning.subexpr import Answer, SubexprChecker, Via
from mirage.passes.pruning.terms import Term, Var


@dataclass
class PrunerStats:
    queries: int = 0
    """Expressions asked about."""
    cache_hits: int = 0
    """Answered from memory (this run) without deciding."""
    disk_hits: int = 0
    """Answered from the cache file (an earlier run)."""
    decided: int = 0
    """Decided now (normal form, then shortcut or solver)."""
    pruned: int = 0
    """Expressions found not to be subexpressions of the target."""
    unknown: int = 0
    """Solver gave up; the expression was kept."""
    prefixes: int = 0
    prefixes_pruned: int = 0
    decide_seconds: float = 0.0
    via: Counter[str] = field(default_factory=Counter[str])
    """How the decided queries were settled: identity, support, solver or search."""


@dataclass
class _Level:
    """A graph being built op by op: its expressions, its ops, and whether the ops up to
    each one have only values that fit."""

    builder: ExprBuilder
    ops: list[Op] = field(default_factory=list[Op])
    ok: list[bool] = field(default_factory=list[bool])


class Pruner:
    """Keeps a prefix only if every value's abstract expression is a subexpression of one
    of the target's output expressions (under A_eq and A_sub)."""

    def __init__(
        self,
        target: Graph | Sequence[Term],
        cache: str | os.PathLike[str] | None = None,
        *,
        engine: str = "z3",
        timeout_ms: int = 2000,
    ):
        outputs = AbstractExprs.of(target).outputs if isinstance(target, Graph) else target
        self.target_terms: tuple[Term, ...] = tuple(outputs)
        forms: list[Canonical] = [canonical(t) for t in self.target_terms]
        self.checker = SubexprChecker(forms, engine=engine, timeout_ms=timeout_ms)
        self.cache = AnswerCache("\n".join(sorted(f.key for f in forms)), cache)
        self.stats = PrunerStats()
        self._by_term: dict[Term, bool] = {}
        self._decided_now: set[str] = set()
        self._args: tuple[TensorType, ...] | None = None
        self._kernel = _Level(ExprBuilder([], []))
        self._block: tuple[tuple[object, ...], _Level] | None = None

    def keep_term(self, term: Term) -> bool:
        """Is `term` a subexpression of the target? (Unknown answers keep.)"""
        self.stats.queries += 1
        known = self._by_term.get(term)
        if known is not None:
            self.stats.cache_hits += 1
            return known
        keep = self._answer(canonical(term))
        self._by_term[term] = keep
        return keep

    def _answer(self, form: Canonical) -> bool:
        cached = self.cache.memory.get(self.cache.key(form.key))
        if cached is not None:
            if form.key in self._decided_now:
                self.stats.cache_hits += 1
            else:
                self.stats.disk_hits += 1
            return cached
        start = time.perf_counter()
        answer, via = self.checker.decide(form)
        self.stats.decide_seconds += time.perf_counter() - start
        self.stats.decided += 1
        self.stats.via[via.value] += 1
        if answer is Answer.UNKNOWN:
            self.stats.unknown += 1
            return True  # not stored: a later run may decide it
        keep = answer is Answer.KEEP
        if not keep:
            self.stats.pruned += 1
        self.cache.put(form.key, keep)
        self._decided_now.add(form.key)
        return keep

    def decide(self, term: Term) -> tuple[Answer, Via]:
        """The checker's answer for one expression, uncached (for tests and tools)."""
        return self.checker.decide(canonical(term))

    def failures(self, prefix: Graph) -> Iterator[tuple[tuple[int, ...], Term]]:
        """(path, expression) of every value of `prefix` that is not a subexpression of
        the target: why a branch was cut."""
        for path, term in AbstractExprs.of(prefix).results():
            if not self.keep_term(term):
                yield path, term

    def keep(self, prefix: Graph | Term) -> bool:
        """Does every value of `prefix` (at every level) fit the target? (For a single
        expression, the same as `keep_term`.)

        Incremental: the ops that `prefix` shares with the prefix asked about before
        (the same leading kernel ops, and the same leading ops of a graph-defined op still
        being built, as a depth-first search makes them) are not evaluated again. A
        graph-defined op is still being built when it has no results yet or its body no
        outputs."""
        if isinstance(prefix, Term):
            return self.keep_term(prefix)
        self.stats.prefixes += 1
        if prefix.args != self._args:
            self._args = prefix.args
            names = [Var(f"arg{i}") for i in range(len(prefix.args))]
            self._kernel = _Level(ExprBuilder(names, prefix.args))
            self._block = None
        ops = prefix.ops
        last = ops[-1] if ops else None
        building = (
            last is not None
            and last.kind == "graph"
            and last.body is not None
            and (not last.results or not last.body.outputs)
        )
        ok = self._sync(self._kernel, ops[:-1] if building else ops)
        if ok and building:
            assert last is not None and last.body is not None
            kernel = self._kernel.builder
            operands = tuple(kernel.terms[i] for i in last.operands)
            layouts = tuple(kernel.layouts[i] for i in last.operands)
            grid, loops = last.ints_attr("grid"), last.int_attr("forloop_range")
            key = (operands, layouts, grid, loops, last.body.args)
            if self._block is None or self._block[0] != key:
                builder = ExprBuilder(
                    operands, last.body.args, grid=grid, forloop_range=loops, arg_layouts=layouts
                )
                self._block = (key, _Level(builder))
            ok = self._sync(self._block[1], last.body.ops)
        if not ok:
            self.stats.prefixes_pruned += 1
        return ok

    __call__ = keep

    def _sync(self, level: _Level, ops: tuple[Op, ...]) -> bool:
        """Bring `level` to `ops` (popping what differs); do all their values fit?"""
        common = 0
        for mine, theirs in zip(level.ops, ops, strict=False):
            if mine is not theirs and mine != theirs:
                break
            common += 1
        while len(level.ops) > common:
            level.builder.pop()
            level.ops.pop()
            level.ok.pop()
        for op in ops[common:]:
            if level.ok and not level.ok[-1]:
                return False
            index = len(level.ops)
            outs = level.builder.push(op)
            body = level.builder.bodies.get(index)
            passed = all(self.keep_term(t) for t in outs) and (
                body is None or all(self.keep_term(t) for _, t in body.results())
            )
            level.ops.append(op)
            level.ok.append(passed)
        return level.ok[-1] if level.ok else True
