"""Thread-level fusion: chains of elementwise block ops become one `fuse` op whose body runs
per element in registers, so their intermediate tiles never touch shared memory.

A chain is a tree of elementwise ops (and scaled ones, `mul_scalar`, `add_scalar`, ...) of
one loop segment (in the loop, or after it) whose inner values have a single use, inside
the tree; its root is the fuse op's one result. Every value of the tree has one dtype:
thread-level ops do not convert.
"""

from __future__ import annotations

from mirage.dialects.opkinds import POINTWISE
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op

FUSIBLE = POINTWISE
"""What a fused thread chain may hold."""


def fuse_chains(body: Graph) -> Graph:
    """The block graph with every fusible chain of two or more ops turned into `fuse`."""
    n_args = len(body.args)
    producer = body.producers()
    uses: dict[int, int] = {}
    for op in body.ops:
        for v in op.operands:
            uses[v] = uses.get(v, 0) + 1
    for v in body.outputs:
        uses[v] = uses.get(v, 0) + 1

    def segment(j: int) -> int:
        return 0 if j < body.loop_end else 1

    # Op j joins the chain of its consumer when it is fusible, used once, by a fusible op of
    # the same segment and dtype.
    parent: dict[int, int] = {}
    for j, op in enumerate(body.ops):
        if op.kind not in FUSIBLE:
            continue
        for v in set(op.operands):
            if v < n_args or uses.get(v, 0) != 1:
                continue
            p = producer[v]
            pop = body.ops[p]
            if (
                pop.kind in FUSIBLE
                and segment(p) == segment(j)
                and pop.results[0].dtype == op.results[0].dtype
            ):
                parent[p] = j
    chains: dict[int, list[int]] = {}
    for j in range(len(body.ops)):
        r = j
        while r in parent:
            r = parent[r]
        chains.setdefault(r, []).append(j)
    chains = {r: m for r, m in chains.items() if len(m) >= 2}
    member_of = {j: r for r, m in chains.items() for j in m}
    if not chains:
        return body

    new_ops: list[Op] = []
    renumber: dict[int, int] = {i: i for i in range(n_args)}
    next_value = n_args
    new_loop_end = 0
    for j, (op, results) in enumerate(body.result_ids()):
        if j == body.loop_end:
            new_loop_end = len(new_ops)
        if j in member_of and member_of[j] != j:
            continue  # emitted with its chain's root
        if j in chains:
            fused = _fuse(body, chains[j], producer, renumber)
            if fused is None:
                return body  # a chain with mixed input dtypes: leave the graph as it is
            new_ops.append(fused)
        else:
            new_ops.append(
                Op(op.kind, tuple(renumber[v] for v in op.operands), op.results, op.attrs, op.body)
            )
        for k, r in enumerate(results):
            renumber[r] = next_value + k
        next_value += len(results)
    if body.loop_end == len(body.ops):
        new_loop_end = len(new_ops)
    return Graph(body.args, tuple(new_ops), tuple(renumber[v] for v in body.outputs), new_loop_end)


def _fuse(
    body: Graph, members: list[int], producer: dict[int, int], renumber: dict[int, int]
) -> Op | None:
    member_set = set(members)
    inputs: list[int] = []
    for j in members:
        for v in body.ops[j].operands:
            if (v not in producer or producer[v] not in member_set) and v not in inputs:
                inputs.append(v)
    root = body.ops[members[-1]]
    dtype = root.results[0].dtype
    if any(body.type_of(v).dtype != dtype for v in inputs):
        return None
    local: dict[int, int] = {v: i for i, v in enumerate(inputs)}
    scalar = TensorType((), dtype)
    ops: list[Op] = []
    count = len(inputs)
    for j in members:
        op = body.ops[j]
        ops.append(Op(op.kind, tuple(local[v] for v in op.operands), (scalar,), op.attrs))
        base = sum(len(o.results) for o in body.ops[:j]) + len(body.args)
        local[base] = count
        count += 1
    thread = Graph(tuple(scalar for _ in inputs), tuple(ops), (count - 1,))
    return make_op("fuse", [renumber[v] for v in inputs], list(root.results), body=thread)


def fuse_program(graph: Graph) -> Graph:
    """Thread-level fusion in every graph-defined op of a kernel-level graph."""
    return graph.with_bodies(fuse_chains)
