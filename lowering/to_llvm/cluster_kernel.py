"""Two graphs in one kernel of thread-block clusters (`cluster_join` says when and how).

The first graph runs as usual, except that the results the second reads stay in its
shared-memory tiles. A cluster barrier makes them visible across the cluster; each block
then pulls every loop step's tile of the second graph from the block of the step's
cluster rank (`ld.shared::cluster`, all steps' loads issued before the first store, so
their latencies overlap), and runs the second graph's tasks on them with no loads in the
loop. The second graph's memory overlays the first's, clear of the kept tiles. A last
cluster barrier keeps each block's tiles alive until its peers have read them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, f32, i32
from xdsl.ir import SSAValue

from mirage.dialects import nvvm
from mirage.dialects.opkinds import INPUTS, OUTPUTS
from mirage.dialects.ugraph.graph import TensorType
from mirage.lowering.optimize.cluster_join import ClusterJoin, Pull, second_offset
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.load_plan import TMA
from mirage.lowering.optimize.plan import Plan
from mirage.lowering.to_llvm import tile_loads
from mirage.lowering.to_llvm.graph_kernel import KernelEmitter
from mirage.lowering.to_llvm.llvm_builder import Int, row_major_coords

CLUSTER_DIM = "nvvm.cluster_dim"
"""On a kernel: its cluster's dims (x, y, z), `.reqnctapercluster` in PTX."""


def emit_joined(
    first: Plan,
    second: Plan,
    join: ClusterJoin,
    name: str,
    block_dims: Sequence[int],
    outputs1: Sequence[TensorType],
    outputs2: Sequence[TensorType],
) -> llvm.FuncOp:
    """One kernel: `first`'s graph, then `second`'s in the same blocks. Parameters: the
    first graph's tensors and outputs, then the second's."""
    n2 = len(second.graph.args) + len(outputs2)
    host = KernelEmitter(first, name, block_dims, outputs1, extra_params=n2)
    host.func.attributes[CLUSTER_DIM] = DenseArrayBase.from_list(i32, list(join.cluster))
    g1 = first.graph
    out_ops = [i for i, op in enumerate(g1.ops) if op.kind in OUTPUTS]
    host.kept_outputs = {out_ops[p.result] for p in join.pulls}
    host.setup()
    tile_loads.emit_body(host)
    b = host.b
    b.emit(nvvm.ClusterBarrierOp())
    rank = host.bid[join.axis]
    bid = join.second_block(b, host.bid, rank)
    n1 = len(first.graph.args) + len(outputs1)
    params = host.params[n1 : n1 + n2]
    offset = second_offset(first, join, second.smem_bytes)
    # a producer warp (tensor-map loads) has no part in the second graph; it waits at the
    # last cluster barrier
    with b.if_(b.icmp("ult", host.tid, first.threads) if first.loads == TMA else True):
        inner = KernelEmitter.within(host, second, outputs2, params, bid, offset)
        _run_second(inner, host, join, rank)
        b.block = inner.b.block
    b.emit(nvvm.ClusterBarrierOp())
    b.ret()
    return host.func


def _run_second(k: KernelEmitter, host: KernelEmitter, join: ClusterJoin, rank: Int) -> None:
    p = k.plan
    b = k.b
    for task in p.pre:
        k.run_task(task)
    for v in sorted(p.hoisted):  # read once, from device memory
        tile_loads.cp_async_copy(k, v, 0, 0)
    b.emit(nvvm.CpAsyncCommitGroupOp())
    _pull_all(k, host, join, rank)
    b.emit(nvvm.CpAsyncWaitGroupOp(0))
    b.barrier()
    if p.invariant:
        k.run_invariant()
    # the next step's tasks read what this one wrote; tasks that keep their state in
    # registers write nothing
    wrote = any(t.writes for t in p.loop)
    with b.loop(p.loops) as i:
        k.iteration = i
        k.stage_index = i
        k.run_phases(p.loop)
        if wrote:
            b.barrier()
    tile_loads.epilogue_copies(k)
    k.run_phases(p.post)


def _input_value(k: KernelEmitter, arg: int) -> int:
    for v, (_, op) in k.producer.items():
        if op.kind in INPUTS and op.operands[0] == arg:
            return v
    raise KeyError(arg)


def _width(src: Tile, dst: Tile, pull: Pull) -> int:
    """f32 per load: a run along the last dim contiguous and aligned in both tiles."""
    inner = pull.tile[-1]
    for vec in (4, 2, 1):
        if inner % vec:
            continue
        if all(_runs(t, vec) for t in (src, dst)):
            return vec
    return 1


def _runs(t: Tile, vec: int) -> bool:
    """Runs of `vec` f32 along the last dim are adjacent and 16-byte-aligned as a whole."""
    if t.swizzle or t.transposed or (len(t.shape) > 1 and t.strides[-1] != 1):
        return False
    aligned = t.offset % (4 * vec) == 0 and t.copy_bytes % (4 * vec) == 0
    return aligned and (len(t.shape) == 1 or (t.pitch * 4) % (4 * vec) == 0)


def _pull_all(k: KernelEmitter, host: KernelEmitter, join: ClusterJoin, rank: Int) -> None:
    """Every loop step's tile of every pulled input, from the peers into this block's
    stages. Pulls run side by side in separate threads where the block has enough."""
    b = k.b
    sub = join.sub_tile(b, rank)
    chunks: list[tuple[Pull, int, int]] = []
    for pull in join.pulls:
        v = _input_value(k, pull.arg)
        vec = _width(host.tile(pull.source), k.tile(v), pull)
        chunks.append((pull, v, vec))
    counts = [math.prod(pull.tile) // vec for pull, _, vec in chunks]
    side_by_side = sum(counts) <= k.plan.threads
    base = 0
    for (pull, v, vec), count in zip(chunks, counts, strict=True):
        first = b.sub(k.tid, base) if side_by_side and base else None
        _pull(k, host, join, pull, v, vec, sub, first)
        if side_by_side:
            base += count


def _pull(
    k: KernelEmitter,
    host: KernelEmitter,
    join: ClusterJoin,
    pull: Pull,
    v: int,
    vec: int,
    sub: list[Int],
    first: Int | None,
) -> None:
    b = k.b
    src = host.tile(pull.source)
    dst = k.tile(v)
    chunk_shape = [*pull.tile[:-1], pull.tile[-1] // vec]

    def body(index: Int) -> None:
        coords = row_major_coords(b, index, chunk_shape)
        coords[-1] = b.mul(coords[-1], vec)
        theirs = [
            c if d == join.split_dim else b.add(c, b.mul(sub[d], n))
            for d, (c, n) in enumerate(zip(coords, pull.tile, strict=True))
        ]
        # the same layout in every block: the peer's tile is where this block's is
        local = b.v(b.add(host.smem32, b.add(src.offset, k.element_offset(src, theirs))))
        loaded: list[SSAValue] = []
        for step in range(join.size):
            remote = b._r(nvvm.MapaSharedClusterOp(local, b.v(step)))  # pyright: ignore[reportPrivateUsage]
            loaded.append(b._r(nvvm.LdSharedClusterOp(remote, vec)))  # pyright: ignore[reportPrivateUsage]
        mine = k.element_offset(dst, coords)
        for step, x in enumerate(loaded):
            at = k.smem_ptr(b.add(b.add(dst.offset, step * dst.copy_bytes), mine))
            values = [x] if vec == 1 else [b.extract(x, e, f32) for e in range(vec)]
            for e, value in enumerate(values):
                b.store(value, b.gep(at, 4 * e), 4 * vec if e == 0 else 4)

    k.for_each(math.prod(chunk_shape), body, first=first)


__all__ = ["CLUSTER_DIM", "emit_joined"]
