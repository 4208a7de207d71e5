"""The program cut at its contraction stages: the launches an expert writes for a chain of
matmuls with elementwise and row work between them.

A contraction that reads another contraction's result (through any elementwise or row
ops) needs whole rows of it, which no tile of a kernel computing the first one holds: an
expert's kernel ends there. The stage of an op is the number of contractions on its
longest path from the program's arguments (a contraction counts itself); ops before
every contraction (a norm of the input) join the first stage that reads them, as its
prologue, and the ops after a contraction (a bias, an activation, a gate's product, a
residual add) stay in its stage, as its epilogue. The softmax-weighted sum of attention
is the exception: its second matmul reads exp of the first one's result, but in online
form (`online.py`) one kernel walks the keys for both, so it stays in the scores' stage.

Each stage, fused into one launch as the fused seed fuses a whole program (`seed.py`,
`online.py`) and parallelized at its own shapes, and the stages put back together
(`partition.compose`) are one candidate of the whole program: the gate/up kernel with
SiLU and the product in its epilogue, then the down projection; FlashAttention, then the
output projection with its bias. It is verified like any other; where a stage has no
fused form that fits, its ops stay as they are.
"""

from __future__ import annotations

import itertools

from mirage.dialects.opkinds import CONTRACTIONS
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.passes.superoptimize.online import softmax_weighted_sums
from mirage.passes.superoptimize.partition import Segment, searchable, segment_of


def op_stages(program: Graph) -> list[int]:
    """Per op, its stage (1 for the first contractions and what they need or feed)."""
    producer = program.producers()
    # the matmul of a softmax-weighted sum, and the value of exp it reads
    online = {mm: e for mm, e in softmax_weighted_sums(program)}
    depth: list[int] = []
    for j, op in enumerate(program.ops):
        contraction = op.kind in CONTRACTIONS
        levels = [int(contraction)]
        for v in op.operands:
            k = producer.get(v)
            if k is not None:
                levels.append(depth[k] + int(contraction and online.get(j) != v))
        depth.append(max(levels))
    readers: dict[int, list[int]] = {}
    for j, op in enumerate(program.ops):
        for v in op.operands:
            k = producer.get(v)
            if k is not None:
                readers.setdefault(k, []).append(j)
    stage = list(depth)
    for j in reversed(range(len(program.ops))):
        if depth[j] == 0:
            later = [stage[r] for r in readers.get(j, [])]
            stage[j] = min(later) if later else 1
    return stage


def reorder(program: Graph, order: list[int]) -> Graph:
    """The program with its ops in `order` (a topological order of them)."""
    n = len(program.args)
    old_ids = [ids for _, ids in program.result_ids()]
    number = {v: v for v in range(n)}
    ops: list[Op] = []
    next_id = n
    for j in order:
        op = program.ops[j]
        operands = tuple(number[v] for v in op.operands)
        ops.append(Op(op.kind, operands, op.results, op.attrs, op.body))
        for r in old_ids[j]:
            number[r] = next_id
            next_id += 1
    return Graph(program.args, tuple(ops), tuple(number[v] for v in program.outputs))


def stages(program: Graph) -> tuple[Graph, list[Segment]] | None:
    """The program with its ops ordered stage by stage, and one segment per stage, cut
    again where ops the search cannot fuse begin or end (a head merge's transpose between
    attention and its projection: a segment of its own, which stays as it is or folds
    into a neighbour's view); None where it has fewer than two stages."""
    stage = op_stages(program)
    if len(set(stage)) < 2:
        return None
    order = sorted(range(len(program.ops)), key=lambda j: (stage[j], j))
    ordered = reorder(program, order)
    keys = [(stage[j], searchable(program.ops[j])) for j in order]
    bounds: list[int] = [0]
    for i in range(1, len(order)):
        if keys[i] != keys[i - 1]:
            bounds.append(i)
    bounds.append(len(order))
    return ordered, [segment_of(ordered, a, b) for a, b in itertools.pairwise(bounds)]
