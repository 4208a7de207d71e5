"""One block op as a launch of its own: one block, one loop iteration, whole tensors. The
memoized evaluation and the abstract expressions of structures are computed op by op
through such launches, by the one evaluator and the pruner's own rules."""

from __future__ import annotations

from collections.abc import Sequence

from mirage.dialects.opkinds import ACCUMULATORS
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op

_NO_MAP = (-1, -1, -1)


def one_op_launch(bop: Op, types: Sequence[TensorType], post: bool) -> Op:
    """A one-block, one-iteration launch of a single block op on whole tensors."""
    k = len(types)
    ops: list[Op] = [
        make_op("input", [i], [t], imap=_NO_MAP, forloop_dim=-1) for i, t in enumerate(types)
    ]
    result = bop.results[0]
    if post:
        # Post-loop ops read accumulator results: carry the inputs out of the loop.
        ops += [make_op("accum_sum", [k + i], [t]) for i, t in enumerate(types)]
        loop_end = len(ops)
        ops.append(Op(bop.kind, tuple(range(2 * k, 3 * k)), (result,), bop.attrs))
        value = 3 * k
    elif bop.kind in ACCUMULATORS:
        ops.append(Op(bop.kind, tuple(range(k, 2 * k)), (result,), bop.attrs))
        loop_end = len(ops)
        value = 2 * k
    else:
        ops.append(Op(bop.kind, tuple(range(k, 2 * k)), (result,), bop.attrs))
        ops.append(make_op("accum_sum", [2 * k], [result]))
        loop_end = len(ops)
        value = 2 * k + 1
    ops.append(make_op("output", [value], [result], omap=_NO_MAP))
    body = Graph(tuple(types), tuple(ops), (value + 1,), loop_end)
    return make_op(
        "graph",
        list(range(k)),
        [result],
        body=body,
        grid=(1, 1, 1),
        block=(128, 1, 1),
        forloop_range=1,
    )
