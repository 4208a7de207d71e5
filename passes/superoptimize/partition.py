"""Long programs cut into segments that are searched one by one.

The search space grows steeply with the number of ops a μGraph must cover; the reference
system, too, cuts large programs into subprograms of a few ops and superoptimizes each.
Here a program of more than `MAX_SEGMENT_OPS` kernel ops is cut, in its op order, into
segments of at most that many ops, choosing the cuts where the fewest bytes cross from one
segment to the next (a value crosses a cut when it is made before and read after it; the
program's arguments count too, so a cut that makes a segment re-read a large input costs).
Cuts also fall wherever searchability changes: ops the search cannot generate (layout ops
such as reshape and transpose, constants) form segments of their own, which stay as they
are, so that one of them does not keep the ops around it from fusing; a program that mixes
both kinds is cut even when it is short.
Each segment becomes a program of its own (`subprogram`); the μGraphs found for the
segments, put back together (`compose`), are one candidate of the whole program, verified
against it like any other.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mirage.dialects.ugraph.graph import Graph, Op
from mirage.passes.superoptimize.seed import BLOCK_KINDS

MAX_SEGMENT_OPS = 6


def searchable(op: Op) -> bool:
    """Whether the search can generate this op (it has a block-level form)."""
    return op.kind in BLOCK_KINDS


@dataclass(frozen=True)
class Segment:
    start: int
    stop: int
    """Ops [start, stop) of the program."""
    inputs: tuple[int, ...]
    """Program values the segment reads from outside it, in increasing order."""
    outputs: tuple[int, ...]
    """Values the segment makes that later ops or the program's outputs read."""


def _result_ids(program: Graph) -> list[tuple[int, ...]]:
    """Every op's result numbers, in op order."""
    return [ids for _, ids in program.result_ids()]


def _last_reads(program: Graph) -> list[int]:
    """Per value: the index of the last op that reads it (len(ops) for an output of the
    program, -1 for a value nothing reads)."""
    last = [-1] * program.num_values
    for j, op in enumerate(program.ops):
        for v in op.operands:
            last[v] = j
    for v in program.outputs:
        last[v] = len(program.ops)
    return last


def _segment(
    program: Graph, results: list[tuple[int, ...]], last: list[int], start: int, stop: int
) -> Segment:
    made = {v for ids in results[start:stop] for v in ids}
    reads = sorted({v for op in program.ops[start:stop] for v in op.operands if v not in made})
    outputs = tuple(v for ids in results[start:stop] for v in ids if last[v] >= stop)
    return Segment(start, stop, tuple(reads), outputs)


def segment_of(program: Graph, start: int, stop: int) -> Segment:
    """Ops [start, stop) of the program as a segment: what it reads and what it makes
    for later ops or the program's outputs."""
    return _segment(program, _result_ids(program), _last_reads(program), start, stop)


def _crossing_bytes(program: Graph, results: list[tuple[int, ...]], last: list[int]) -> list[int]:
    """Per cut c (before op c): the bytes of the values made before it and read after it.
    One pass over the values (a value crosses the cuts from just after its op to its last
    reader), so that programs of thousands of ops are cut in linear time."""
    n = len(program.ops)
    delta = [0] * (n + 2)
    made_by = [-1] * len(program.args) + [j for j, ids in enumerate(results) for _ in ids]
    for v, first in enumerate(made_by):
        lo, hi = max(first + 1, 1), min(last[v], n - 1)
        if lo <= hi:
            size = program.type_of(v).nbytes
            delta[lo] += size
            delta[hi + 1] -= size
    crossing = [0] * n
    running = 0
    for c in range(1, n):
        running += delta[c]
        crossing[c] = running
    return crossing


def segments(program: Graph, max_ops: int = MAX_SEGMENT_OPS) -> list[Segment] | None:
    """The cut with the fewest crossing bytes (ties: fewer segments, then later cuts) into
    segments of at most `max_ops` ops, each all searchable or all not; None for a program
    of at most `max_ops` ops that needs no cut."""
    n = len(program.ops)
    kinds = [searchable(op) for op in program.ops]
    mixed = len(set(kinds)) > 1
    if n <= max_ops and not mixed:
        return None
    results = _result_ids(program)
    last = _last_reads(program)
    crossing = _crossing_bytes(program, results, last)
    # best[i]: (bytes, segments, -cut positions) of the best cutting of ops[:i]
    best: list[tuple[int, int, tuple[int, ...]] | None] = [None] * (n + 1)
    best[0] = (0, 0, ())
    for i in range(1, n + 1):
        for j in range(i - 1, max(0, i - max_ops) - 1, -1):
            if kinds[j] != kinds[i - 1]:
                break  # a segment never mixes searchable ops with others
            prev = best[j]
            if prev is None:
                continue
            cost = prev[0] + (crossing[j] if j else 0)
            cand = (cost, prev[1] + 1, (*prev[2], -j))
            if best[i] is None or cand < best[i]:  # type: ignore[operator]
                best[i] = cand
    final = best[n]
    assert final is not None
    cuts = [-c for c in final[2]] + [n]
    return [_segment(program, results, last, a, b) for a, b in itertools.pairwise(cuts)]


def subprogram(program: Graph, segment: Segment) -> Graph:
    """The segment as a program: its inputs become arguments."""
    number = {v: i for i, v in enumerate(segment.inputs)}
    n = len(segment.inputs)
    first = len(program.args) + sum(len(op.results) for op in program.ops[: segment.start])
    ops: list[Op] = []
    for op in program.ops[segment.start : segment.stop]:
        ops.append(
            Op(op.kind, tuple(number[v] for v in op.operands), op.results, op.attrs, op.body)
        )
        for _ in op.results:
            number[first] = n
            first += 1
            n += 1
    args = tuple(program.type_of(v) for v in segment.inputs)
    return Graph(args, tuple(ops), tuple(number[v] for v in segment.outputs))


def compose(program: Graph, parts: list[tuple[Segment, Graph]]) -> Graph:
    """The program with each segment replaced by a graph that computes its subprogram."""
    number = {v: v for v in range(len(program.args))}
    n = len(program.args)
    ops: list[Op] = []
    for segment, graph in parts:
        local = {i: number[v] for i, v in enumerate(segment.inputs)}
        for op, ids in graph.result_ids():
            ops.append(
                Op(op.kind, tuple(local[v] for v in op.operands), op.results, op.attrs, op.body)
            )
            for v in ids:
                local[v] = n
                n += 1
        for v, out in zip(segment.outputs, graph.outputs, strict=True):
            number[v] = local[out]
    return Graph(program.args, tuple(ops), tuple(number[v] for v in program.outputs))
