"""What a block graph needs from the GPU, computed on the model: shared memory (the same
peak that `mirage.dialects.smem` computes on the IR, so a candidate that fits here verifies
there), registers per thread, and whether it fits a target."""

from __future__ import annotations

from dataclasses import dataclass

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import LAUNCHES, OUTPUTS
from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS, Graph, Op


def peak_shared_memory(body: Graph) -> int:
    """Peak bytes of the tiles alive at once over the block graph's schedule: every
    block-level value is a tile in shared memory, accumulators live through the whole loop,
    output savers write to device memory."""
    n_args = len(body.args)
    # The IR schedule puts block.yield and block.for_loop between the loop and the rest.
    position = [j if j < body.loop_end else j + 2 for j in range(len(body.ops))]
    start: dict[int, int] = {}
    end: dict[int, int] = {}
    producer: dict[int, int] = {}
    for j, (op, results) in enumerate(body.result_ids()):
        for r in results:
            producer[r] = j
            if op.kind in OUTPUTS:
                continue
            if op.kind in ACCUMULATOR_KINDS:
                start[r] = 0
                end[r] = body.loop_end  # used by block.yield
            else:
                start[r] = end[r] = position[j]
    for j, op in enumerate(body.ops):
        for v in op.operands:
            if v >= n_args and v in end:
                end[v] = max(end[v], position[j])
    # Sweep the schedule: a tile counts from its first to its last position.
    delta: dict[int, int] = {}
    for v, s in start.items():
        size = body.type_of(v).nbytes
        delta[s] = delta.get(s, 0) + size
        delta[end[v] + 1] = delta.get(end[v] + 1, 0) - size
    peak = live = 0
    for i in sorted(delta):
        live += delta[i]
        peak = max(peak, live)
    return peak


def accumulator_elements(body: Graph) -> int:
    """Elements of all accumulators of a block: they live in registers across the loop."""
    return sum(op.results[0].numel for op in body.ops if op.kind in ACCUMULATOR_KINDS)


def registers_per_thread(body: Graph, threads: int) -> int:
    """A rough count: a base for addressing and loop state, plus each thread's share of
    the accumulators (f32, one register per element)."""
    return 32 + -(-accumulator_elements(body) // threads)


@dataclass(frozen=True, slots=True)
class Fit:
    ok: bool
    reason: str = ""
    shared_memory: int = 0
    registers: int = 0


def check_fit(op: Op, target: Target) -> Fit:
    """Whether a graph-defined op can run on `target`."""
    return _fit(op, target)


def _fit(op: Op, target: Target) -> Fit:
    body = op.body
    assert body is not None and op.kind in LAUNCHES
    block = op.ints_attr("block")
    threads = block[0] * block[1] * block[2]
    if threads > target.max_threads_per_block:
        return Fit(False, f"{threads} threads per block, more than {target.max_threads_per_block}")
    smem = peak_shared_memory(body)
    if smem > target.shared_memory_per_block:
        return Fit(
            False,
            f"{smem} bytes of shared memory, more than {target.shared_memory_per_block}",
            smem,
        )
    regs = registers_per_thread(body, threads)
    if regs > target.max_registers_per_thread:
        return Fit(False, f"{regs} registers per thread", smem, regs)
    grid = op.ints_attr("grid")
    if grid[1] > target.max_grid_yz or grid[2] > target.max_grid_yz:
        return Fit(False, "grid y or z extent over the hardware limit", smem, regs)
    return Fit(True, "", smem, regs)
