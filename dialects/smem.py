"""Shared-memory need of a block graph, as its verifier checks it: the peak, over the
graph's schedule, of the bytes of the tiles alive at once (each block-level value a tile in
shared memory; accumulators alive through the whole loop)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from mirage.dialects.block import AccumulatorOp, ForLoopOp, OutputOp, ReturnOp, YieldOp
from mirage.dialects.types import element_name, tensor_or_none
from mirage.dialects.ugraph.graph import DTYPE_BYTES


def tile_bytes(value: SSAValue) -> int:
    ty = tensor_or_none(value.type)
    if ty is None:
        return 0
    n = 1
    for d in ty.get_shape():
        n *= d
    return n * DTYPE_BYTES[element_name(ty.element_type)]


def peak_shared_memory(graph: Operation) -> int:
    """The most shared memory a kernel.graph's body holds at once."""
    schedule: list[Operation] = []
    for op in graph.regions[0].block.ops:
        if isinstance(op, ForLoopOp):
            schedule.extend(op.body.block.ops)
        schedule.append(op)
    position = {op: i for i, op in enumerate(schedule)}
    start: dict[SSAValue, int] = {}
    end: dict[SSAValue, int] = {}
    for i, op in enumerate(schedule):
        if isinstance(op, OutputOp | ReturnOp | YieldOp | ForLoopOp):
            continue  # outputs go to device memory; loop results alias the accumulators
        for r in op.results:
            start[r] = 0 if isinstance(op, AccumulatorOp) else i
            end[r] = i
            for use in r.uses:
                user: Operation | None = use.operation
                while user is not None and user not in position:
                    user = user.parent_op()  # a use inside a thread.fuse body
                if user is not None:
                    end[r] = max(end[r], position[user])
        if isinstance(op, AccumulatorOp):
            loop_results = op.parent_op()
            assert isinstance(loop_results, ForLoopOp)
            # the accumulator lives on in the loop result it becomes
            for use in op.result.uses:
                idx = use.index
                for u2 in loop_results.results[idx].uses:
                    user = u2.operation
                    if user in position:
                        end[op.result] = max(end[op.result], position[user])
    peak = 0
    for i in range(len(schedule)):
        live = sum(tile_bytes(v) for v in start if start[v] <= i <= end[v])
        peak = max(peak, live)
    return peak
