"""Evaluation of kernel-level programs one op at a time, with results shared across
programs: candidates of a search share prefixes, and an op whose operands and attributes
match one evaluated before (in any program, on the same inputs) is not run again.

Each op still runs through the one evaluator (`mirage.dialects.semantics.evaluate`) as a
one-op program; this module only decides what to run.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, Generic, TypeVar

from mirage.dialects.semantics import evaluate
from mirage.dialects.semantics.domain import Domain
from mirage.dialects.semantics.evaluate import last_uses, live
from mirage.dialects.ugraph.graph import Graph, Op

V = TypeVar("V")

ValueKey = Hashable
"""("arg", i) for an input, (op number, result index) for an op result: equal keys, equal
values (on the same inputs)."""


class ResultCache(Generic[V]):
    """Op results by (namespace, op key), least recently used evicted past `max_bytes`."""

    def __init__(self, size_of: Callable[[V], int], max_bytes: int = 1 << 30) -> None:
        self.size_of = size_of
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, tuple[tuple[V, ...], int]] = OrderedDict()
        self.ids: dict[Hashable, int] = {}
        """Op keys by number: a value's key names its op by number, not by the nested keys
        of everything before it, so keys stay flat and hash in constant time however long
        the program."""

    def get(self, key: Hashable) -> tuple[V, ...] | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, values: tuple[V, ...]) -> None:
        size = sum(self.size_of(v) for v in values)
        if size > self.max_bytes:
            return
        self._entries[key] = (values, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, (_, old) = self._entries.popitem(last=False)
            self.bytes -= old

    def __len__(self) -> int:
        return len(self._entries)


def op_key(op: Op, operand_keys: Sequence[ValueKey]) -> Hashable:
    return (op.kind, op.attrs, op.results, op.body, tuple(operand_keys))


def run_incremental(
    graph: Graph,
    inputs: Sequence[V],
    domain: Domain[Any],
    cache: ResultCache[V] | None,
    namespace: Hashable,
    force: Callable[[Any], V],
) -> list[V]:
    """The outputs of a kernel-level `graph`, reusing cached op results under `namespace`
    (which names the inputs and the domain). `force` turns what the domain returns into
    final values (a wrapping domain may return pending ones)."""
    ids: dict[Hashable, int] = cache.ids if cache is not None else {}
    keys: list[ValueKey] = [("arg", i) for i in range(len(graph.args))]
    # A value is let go after its last use: at realistic shapes the values of a whole
    # program do not fit in memory together (those the cache keeps stay, within its bytes).
    values: list[V | None] = list(inputs)
    for op, freed in zip(graph.ops, last_uses(graph), strict=True):
        key = ids.setdefault(op_key(op, [keys[i] for i in op.operands]), len(ids))
        results = cache.get((namespace, key)) if cache is not None else None
        if results is None:
            operands = [live(values, i) for i in op.operands]
            results = _run_op(graph, op, operands, domain, force)
            del operands
            if cache is not None:
                cache.put((namespace, key), results)
        for j, r in enumerate(results):
            keys.append((key, j))
            values.append(r)
        del results
        for i in freed:
            values[i] = None
    return [live(values, o) for o in graph.outputs]


def _run_op(
    graph: Graph, op: Op, operands: list[V], domain: Domain[Any], force: Callable[[Any], V]
) -> tuple[V, ...]:
    n = len(op.operands)
    single = Graph(
        tuple(graph.type_of(i) for i in op.operands),
        (replace(op, operands=tuple(range(n))),),
        tuple(range(n, n + len(op.results))),
    )
    return tuple(force(r) for r in evaluate(single, operands, domain))
