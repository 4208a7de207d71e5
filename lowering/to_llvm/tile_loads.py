"""The load strategies' code: how a kernel's input tiles reach shared memory and how its
loop waits for them (`mirage.lowering.optimize.load_plan` says which one a plan runs).

Each strategy emits the whole skeleton of the kernel body around the tasks it orders: the
prologue that fills the pipeline, the loop with its waits, and what follows the loop. The
tasks themselves are the `KernelEmitter`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from xdsl.dialects import llvm
from xdsl.ir import Block, Operation, SSAValue

from mirage.dialects import nvvm
from mirage.dialects.shapes import dim_factors
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize.layout import SWIZZLE_ATOM, SWIZZLE_BYTES, Tile
from mirage.lowering.optimize.load_plan import BULK_ROWS, TMA, stage_bytes
from mirage.lowering.optimize.plan import Plan, Task
from mirage.lowering.to_llvm.emitter import StageRing
from mirage.lowering.to_llvm.llvm_builder import Builder, Int
from mirage.lowering.to_llvm.memory_access import contiguous_run, storage_type, vector_width

_T = TypeVar("_T")


class KernelEmitter(Protocol):
    """What a load strategy uses of the kernel it emits into (`graph_kernel.KernelEmitter`)."""

    b: Builder
    plan: Plan
    graph: Graph
    producer: dict[int, tuple[int, Op]]

    @property
    def params(self) -> Sequence[SSAValue]: ...
    @property
    def tensor_map_params(self) -> Sequence[SSAValue]: ...

    tid: Int
    bid: list[Int]
    smem: SSAValue
    smem32: Int
    iteration: Int
    stage_index: Int

    def tile(self, v: int) -> Tile: ...
    def smem_ptr(self, byte_offset: Int) -> SSAValue: ...
    def element_offset(self, t: Tile, coords: Sequence[Int]) -> Int: ...
    def for_each(
        self,
        count: int,
        body: Callable[[Int], None],
        threads: int | None = None,
        first: Int | None = None,
    ) -> None: ...
    def for_each_chunk(
        self, shape: Sequence[int], vec: int, body: Callable[[list[Int]], None]
    ) -> None: ...
    def run_task(self, task: Task) -> None: ...
    def run_phases(self, tasks: Sequence[Task]) -> None: ...
    def run_invariant(self) -> None: ...
    def run_overlapped(self, task: Task, ring: StageRing) -> None: ...


CONSUMER_BARRIER = 1
"""The named barrier of the consumer warps (0 is every thread's, `bar.sync 0`)."""


class ConsumerBuilder(Builder):
    """A builder whose barriers hold only the block's own warps, not the producer warp."""

    def __init__(self, entry: Block, consumers: int):
        super().__init__(entry)
        self.consumers = consumers

    def barrier(self) -> None:
        if self.fence_async_proxy:
            self.emit(nvvm.FenceProxyAsyncSharedOp())
        self.emit(nvvm.BarrierSyncOp(CONSUMER_BARRIER, self.consumers))


def builder_for(plan: Plan, entry: Block, consumers: int | None = None) -> Builder:
    """The builder of `plan`'s kernel; `consumers`: the threads that its barriers hold
    where a producer warp of another plan's loads shares the block."""
    if plan.loads == TMA:
        consumers = plan.threads
    b = Builder(entry) if consumers is None else ConsumerBuilder(entry, consumers)
    # what threads write to shared memory (cp.async copies, tasks) a wgmma reads through
    # the asynchronous proxy: each barrier after such writes is preceded by a proxy fence
    b.fence_async_proxy = plan.async_proxy_reads
    return b


def launch_block(plan: Plan, block: tuple[int, ...]) -> tuple[int, int, int]:
    """The launch's block: the graph's, or one dimension with the producer warp added."""
    if plan.loads == TMA:
        return (plan.launch_threads, 1, 1)
    return (block[0], block[1], block[2])


def _value(b: Builder, op: Operation) -> SSAValue:
    b.emit(op)
    return op.results[0]


def _coords(b: Builder, linear: Int, shape: tuple[int, ...] | list[int]) -> list[Int]:
    out: list[Int] = [0] * len(shape)
    rest = linear
    for d in range(len(shape) - 1, -1, -1):
        if d == 0:
            out[d] = rest
        else:
            out[d] = b.urem(rest, shape[d])
            rest = b.udiv(rest, shape[d])
    return out


def swizzled_offset(b: Builder, t: Tile, row: Int, col: Int) -> Int:
    """Byte offset of element (row, col) in one stage of swizzled tile `t`: its panel, its
    row there (`t.swizzle` bytes), and the 16-byte chunk XOR the bits of the row's offset
    from 128 up (as many as a row has chunks)."""
    s = t.swizzle
    shift = int(math.log2(t.esize))
    byte = b.shl(col, shift) if shift else col
    panel = b.lshr(byte, int(math.log2(s)))
    within = b.and_(byte, s - 1)
    rows_per_128 = SWIZZLE_BYTES // s
    bits = b.lshr(row, int(math.log2(rows_per_128))) if rows_per_128 > 1 else row
    chunk = b.xor(b.lshr(within, 4), b.and_(bits, s // 16 - 1))
    off = b.add(b.mul(panel, t.panel_bytes), b.mul(row, s))
    return b.add(off, b.add(b.shl(chunk, 4), b.and_(within, 15)))


def spin(b: Builder, try_once: Callable[[], SSAValue]) -> None:
    """Loop until try_once() gives non-zero."""
    wait, done = b.new_block(), b.new_block()
    b.emit(llvm.BrOp(wait))
    b.block = wait
    ok = b.icmp("ne", try_once(), 0)
    assert isinstance(ok, SSAValue)
    b.emit(llvm.CondBrOp(ok, done, [], wait, []))
    b.block = done


def tile_origin(k: KernelEmitter, v: int, iteration: Int) -> tuple[list[Int], list[int], SSAValue]:
    """(the first element's coordinates of the tile of `iteration` in its tensor, the
    tensor's element strides, its pointer; for a window, the pointer to the window's
    first element)."""
    b = k.b
    _, op = k.producer[v]
    src_value = op.operands[0]
    # a strided or permuted view on the input reads the tensor with the view's strides
    _, view_strides = op.layout(k.graph.type_of(src_value).shape)
    t = k.tile(v)
    imap = op.ints_attr("imap")
    fdim = op.int_attr("forloop_dim")
    fstrides = list(view_strides)
    origin: list[Int] = []
    for d, n in enumerate(t.shape):
        off: Int = 0
        for axis, parts in dim_factors(imap, k.plan.grid, fdim, k.plan.loops, d):
            coord = k.bid[axis] if axis < 3 else iteration
            off = b.add(b.mul(off, parts), coord)
        origin.append(b.mul(off, n))
    gptr = k.params[src_value]
    if op.offset:
        gptr = b.gep(gptr, op.offset * t.esize)
    return origin, fstrides, gptr


def _linear(b: Builder, coords: list[Int], strides: list[int]) -> Int:
    out: Int = 0
    for c, s in zip(coords, strides, strict=True):
        out = b.add(out, b.mul(c, s))
    return out


def _storage_order(t: Tile, xs: list[_T]) -> list[_T]:
    """`xs` (one per tile dim) in the order of the tile's storage: the last two swapped for a
    transposed tile (the swap is its own inverse)."""
    return [*xs[:-2], xs[-1], xs[-2]] if t.transposed else list(xs)


def cp_async_copy(k: KernelEmitter, v: int, iteration: Int, slot: Int) -> None:
    """Issue the cp.async copy of input tile `v` for `iteration` into stage `slot`, 16
    bytes (or less where the rows are narrower) per thread and instruction."""
    b = k.b
    t = k.tile(v)
    esize = t.esize
    origin, fstrides, gptr = tile_origin(k, v, iteration)
    base = _linear(b, origin, fstrides)
    # a transposed tile is walked in its tensor's order: chunks run along its dim -2
    run = contiguous_run(t.storage_shape, _storage_order(t, fstrides))
    _, op = k.producer[v]
    # a window starts where its offset says: its vectors are aligned only as far as it is
    vec = vector_width(math.gcd(run, op.offset) if op.offset else run, esize)
    nbytes = vec * esize
    tile_base: Int = t.offset
    if t.stages > 1:
        tile_base = b.add(tile_base, b.mul(slot, t.copy_bytes))

    def body(coords: list[Int]) -> None:
        goff = b.add(base, _linear(b, coords, fstrides))
        src = b.gep(gptr, b.mul(goff, esize))
        dst = k.smem_ptr(b.add(tile_base, k.element_offset(t, coords)))
        if nbytes >= 4:
            cache = "cg" if nbytes == 16 else "ca"
            b.emit(nvvm.CpAsyncOp(dst, src, nbytes, cache))
        else:
            ty = storage_type(t.dtype)
            for e in range(vec):
                x = b.load(ty, b.gep(src, e * esize), esize)
                b.store(x, b.gep(dst, e * esize), esize)

    k.for_each_chunk(t.storage_shape, vec, lambda coords: body(_storage_order(t, coords)))


def _hoisted(k: KernelEmitter) -> None:
    for v in sorted(k.plan.hoisted):
        cp_async_copy(k, v, 0, 0)


def epilogue_copies(k: KernelEmitter) -> None:
    """After the loop and a barrier (its tiles' memory may be reused): the epilogue
    operands' tiles, copied and waited for before the first post-loop phase."""
    if not k.plan.epilogue:
        return
    for v in k.plan.epilogue:
        cp_async_copy(k, v, 0, 0)
    k.b.emit(nvvm.CpAsyncCommitGroupOp())
    k.b.emit(nvvm.CpAsyncWaitGroupOp(0))
    k.b.barrier()


def after_loop(k: KernelEmitter) -> None:
    """The tasks after the loop, behind a barrier (they read what other threads wrote, and
    epilogue copies may reuse the loop's tiles); none where nothing follows the loop."""
    if k.plan.post or k.plan.epilogue:
        k.b.barrier()
    epilogue_copies(k)
    k.run_phases(k.plan.post)


def emit_body(k: KernelEmitter) -> None:
    """The kernel body as the plan's load strategy orders it."""
    if k.plan.loads == TMA:
        _emit_tma(k)
    elif k.plan.loads == BULK_ROWS:
        _emit_bulk_rows(k)
    else:
        _emit_cp_async(k)


# --- cp.async: every thread copies, commit groups count the stages ---------------------------


def _emit_cp_async(k: KernelEmitter) -> None:
    p = k.plan
    b = k.b
    for task in p.pre:
        k.run_task(task)
    # prologue: loop-invariant tiles, then the first stages of the streamed ones
    _hoisted(k)
    if p.invariant:
        b.emit(nvvm.CpAsyncCommitGroupOp())
        b.emit(nvvm.CpAsyncWaitGroupOp(0))
        k.run_invariant()
    stages = p.stages
    streamed = bool(p.streamed) and p.loops > 1
    if streamed and stages > 1:
        # groups 0 .. stages-2 hold iterations 0 .. stages-2 (group 0 also the rest)
        for s in range(stages - 1):
            if s < p.loops:
                for v in p.streamed:
                    cp_async_copy(k, v, s, s)
            b.emit(nvvm.CpAsyncCommitGroupOp())
    task = overlapped_chain(p)
    if task is not None:
        _overlapped_cp_async(k, task)
    else:
        _cp_async_loop(k)
    if p.loop or p.loops > 1 or p.epilogue:
        b.emit(nvvm.CpAsyncWaitGroupOp(0))
        after_loop(k)
    else:
        # an empty loop that runs once (a kernel of elementwise ops) already waited for
        # its copies, with the barrier after them
        k.run_phases(p.post)


def overlapped_chain(p: Plan) -> Task | None:
    """The loop's one task where it is a chain the plan overlaps (`MatmulPlan.overlap`)."""
    if not any(t.kind == "chain" and p.matmuls[t.op].overlap for t in p.loop):
        return None
    (task,) = p.loop  # the plan overlaps a chain only where it is the loop's one task
    return task


def _select(k: KernelEmitter, i: Int) -> None:
    """Make iteration `i` (and its stage of the ring) the one tasks read."""
    k.iteration = i
    k.stage_index = k.b.urem(i, k.plan.stages)


def _overlapped_cp_async(k: KernelEmitter, task: Task) -> None:
    """An overlapped chain's loop on cp.async stages: iteration i reads stage i (V, for
    e V) and stage i + 1 (K, for the next S), so the copies run `stages` - 2 iterations
    ahead; acquiring iteration j waits for its group, and after the barrier (everybody
    is done with iteration j - 2) copies iteration j + stages - 2 into that stage."""
    p = k.plan
    b = k.b
    stages = p.stages
    ahead = stages - 2
    for s in range(ahead):
        if s < p.loops:
            for v in p.streamed:
                cp_async_copy(k, v, s, s)
        b.emit(nvvm.CpAsyncCommitGroupOp())

    def acquire(j: Int) -> None:
        b.emit(nvvm.CpAsyncWaitGroupOp(stages - 3))
        b.barrier()
        later = b.add(j, ahead)
        with b.if_(b.icmp("slt", later, p.loops)):
            for v in p.streamed:
                cp_async_copy(k, v, later, b.urem(later, stages))
        b.emit(nvvm.CpAsyncCommitGroupOp())
        _select(k, j)

    k.run_overlapped(task, StageRing(acquire, lambda i: _select(k, i), lambda i: None))


def _cp_async_loop(k: KernelEmitter) -> None:
    p = k.plan
    b = k.b
    stages = p.stages
    streamed = bool(p.streamed) and p.loops > 1
    with b.loop(p.loops) as i:
        k.iteration = i
        k.stage_index = b.urem(i, stages) if streamed else 0
        if streamed and stages > 1:
            b.emit(nvvm.CpAsyncWaitGroupOp(stages - 2))
            b.barrier()
            ahead = b.add(i, stages - 1)
            with b.if_(b.icmp("slt", ahead, p.loops)):
                slot = b.urem(ahead, stages)
                for v in p.streamed:
                    cp_async_copy(k, v, ahead, slot)
            b.emit(nvvm.CpAsyncCommitGroupOp())
        else:
            if streamed:
                for v in p.streamed:
                    cp_async_copy(k, v, i, 0)
            b.emit(nvvm.CpAsyncCommitGroupOp())
            b.emit(nvvm.CpAsyncWaitGroupOp(0))
            b.barrier()
        k.run_phases(p.loop)
        if streamed and stages == 1:
            b.barrier()  # the next iteration overwrites the tiles just read


# --- bulk rows: one cp.async.bulk per row, one mbarrier per stage ----------------------------


def _mbar(k: KernelEmitter, slot: Int, first: int = 0) -> Int:
    """32-bit shared-window address of mbarrier `first + slot` of the plan's array."""
    b = k.b
    return b.add(k.smem32, b.add(k.plan.mbarriers, b.mul(b.add(slot, first), 8)))


def _emit_bulk_rows(k: KernelEmitter) -> None:
    """Stage s of the ring has an mbarrier whose k-th phase completes when the copies for
    iteration s + k * stages have landed."""
    p = k.plan
    b = k.b
    stages = p.stages
    with b.if_(b.icmp("eq", k.tid, 0)):
        for s in range(stages):
            b.emit(nvvm.MBarrierInitOp(b.v(_mbar(k, s)), b.const(1)))
        b.emit(nvvm.FenceMBarrierInitOp())
    for task in p.pre:
        k.run_task(task)
    b.barrier()  # the mbarriers are initialized before anyone uses them
    for s in range(min(stages - 1, p.loops)):
        _issue_rows(k, s, s)
    _hoisted(k)
    if p.hoisted:
        b.emit(nvvm.CpAsyncCommitGroupOp())
        b.emit(nvvm.CpAsyncWaitGroupOp(0))
    if p.invariant:
        k.run_invariant()
    with b.loop(p.loops) as i:
        k.iteration = i
        k.stage_index = b.urem(i, stages)
        parity = b.and_(b.udiv(i, stages), 1)
        mbar = _mbar(k, k.stage_index)
        spin(b, lambda: _value(b, nvvm.MBarrierTryWaitParityOp(b.v(mbar), b.v(parity))))
        b.barrier()  # everyone is done with the stage the next copy overwrites
        ahead = b.add(i, stages - 1)
        with b.if_(b.icmp("slt", ahead, p.loops)):
            _issue_rows(k, ahead, b.urem(ahead, stages))
        k.run_phases(p.loop)
    after_loop(k)


def _issue_rows(k: KernelEmitter, iteration: Int, slot: Int) -> None:
    """Thread 0 announces the stage's bytes; the tiles' rows are spread over threads, one
    bulk copy each."""
    p = k.plan
    b = k.b
    total = sum(_row_bytes(k.tile(v)) * k.tile(v).rows for v in p.streamed)
    mbar = b.v(_mbar(k, slot))
    with b.if_(b.icmp("eq", k.tid, 0)):
        b.emit(nvvm.MBarrierArriveExpectTxOp(mbar, b.const(total)))
    b.emit(nvvm.FenceProxyAsyncSharedOp())
    for v in p.streamed:
        _copy_rows(k, v, iteration, slot, mbar)


def _row_bytes(t: Tile) -> int:
    return t.shape[-1] * t.esize


def _copy_rows(k: KernelEmitter, v: int, iteration: Int, slot: Int, mbar: SSAValue) -> None:
    b = k.b
    t = k.tile(v)
    origin, fstrides, gptr = tile_origin(k, v, iteration)
    base = _linear(b, origin, fstrides)
    tile_base: Int = b.add(t.offset, b.mul(slot, t.copy_bytes))
    row_shape = [*t.shape[:-1], 1]

    def body(index: Int) -> None:
        coords = _coords(b, index, row_shape)
        goff = b.add(base, _linear(b, coords, fstrides))
        src = b.gep(gptr, b.mul(goff, t.esize))
        dst = b.add(k.smem32, b.add(tile_base, k.element_offset(t, coords)))
        b.emit(nvvm.CpAsyncBulkSharedGlobalOp(b.v(dst), src, b.const(_row_bytes(t)), mbar))

    k.for_each(t.rows, body)


# --- tma: a producer warp copies tensor-map boxes, full/empty mbarriers per stage ------------


def align_shared_base(k: KernelEmitter) -> None:
    """Moves the kernel's shared-memory base up to a swizzle atom (the plan asked for the
    slack): the swizzle is computed from address bits, so panels must start 1024-aligned."""
    b = k.b
    raw = k.smem32
    aligned = b.and_(b.add(raw, SWIZZLE_ATOM - 1), -SWIZZLE_ATOM)
    k.smem = b.gep(k.smem, b.sub(aligned, raw))
    k.smem32 = aligned


def _emit_tma(k: KernelEmitter) -> None:
    """Warps 0 .. W-1 (the graph's block) compute; warp W, the producer, issues every
    tensor-map copy. Stage s has a `full` mbarrier (one arrival with the stage's bytes;
    its j-th phase completes when iteration s + j * stages has landed) and an `empty` one
    (one arrival per consumer thread; its j-th phase completes when they are all done
    with that iteration)."""
    p = k.plan
    b = k.b
    stages = p.stages
    consumers = p.threads
    with b.if_(b.icmp("eq", k.tid, 0)):
        for s in range(stages):
            b.emit(nvvm.MBarrierInitOp(b.v(_mbar(k, s)), b.const(1)))
            b.emit(nvvm.MBarrierInitOp(b.v(_mbar(k, s, stages)), b.const(consumers)))
        b.emit(nvvm.FenceMBarrierInitOp())
    b.emit(nvvm.Barrier0Op())  # every warp, the producer's too: the mbarriers are ready
    # lane 0 of the producer warp; the other 31 lanes of it have nothing to do
    with b.if_(b.icmp("eq", k.tid, consumers)):
        _produce(k)
    with b.if_(b.icmp("ult", k.tid, consumers)):
        _consume(k)


def _produce(k: KernelEmitter) -> None:
    p = k.plan
    b = k.b
    stages = p.stages
    expect = stage_bytes(p.streamed, p.tiles)
    maps = p.tensor_maps()
    with b.loop(p.loops) as i:
        slot = b.urem(i, stages)
        rnd = b.udiv(i, stages)
        with b.if_(b.icmp("uge", i, stages)):
            # iteration i - stages released the slot: phase rnd - 1 of its empty barrier
            parity = b.xor(b.and_(rnd, 1), 1)
            empty = _mbar(k, slot, stages)
            spin(b, lambda: _value(b, nvvm.MBarrierTryWaitParityOp(b.v(empty), b.v(parity))))
        full = b.v(_mbar(k, slot))
        b.emit(nvvm.MBarrierArriveExpectTxOp(full, b.const(expect)))
        for m, tmap in zip(maps, k.tensor_map_params, strict=True):
            t = k.tile(m.value)
            origin, _, _ = tile_origin(k, m.value, i)
            row0, col0 = _map_coords(k, m.value, origin)
            stage = b.add(k.smem32, b.add(t.offset, b.mul(slot, t.copy_bytes)))
            for panel in range(t.panels):
                x = b.v(b.add(col0, panel * t.panel_elems))
                for r in range(0, t.shape[-2], m.box[1]):
                    dst = b.v(b.add(stage, panel * t.panel_bytes + r * t.swizzle))
                    y = b.v(b.add(row0, r))
                    b.emit(nvvm.CpAsyncBulkTensor2dOp(dst, tmap, x, y, full))


def _map_coords(k: KernelEmitter, v: int, origin: list[Int]) -> tuple[Int, Int]:
    """(row, column) of a tile's origin in its tensor map, which sees the tensor as rows
    of its last dim: a batched tile's leading coordinates fold into the row."""
    b = k.b
    _, op = k.producer[v]
    full = k.graph.type_of(op.operands[0]).shape
    row: Int = 0
    for c, n in zip(origin[:-1], full[:-1], strict=True):
        row = b.add(b.mul(row, n), c)
    return row, origin[-1]


def _consume(k: KernelEmitter) -> None:
    p = k.plan
    b = k.b
    stages = p.stages
    for task in p.pre:
        k.run_task(task)
    _hoisted(k)
    if p.hoisted:
        b.emit(nvvm.CpAsyncCommitGroupOp())
        b.emit(nvvm.CpAsyncWaitGroupOp(0))
    if p.invariant:
        k.run_invariant()
    else:
        b.barrier()  # what `pre` wrote and every thread's hoisted tiles, before the loop

    def acquire(i: Int) -> None:
        _select(k, i)
        parity = b.and_(b.udiv(i, stages), 1)
        full = _mbar(k, k.stage_index)
        spin(b, lambda: _value(b, nvvm.MBarrierTryWaitParityOp(b.v(full), b.v(parity))))

    def release(i: Int) -> None:
        b.emit(nvvm.MBarrierArriveOp(b.v(_mbar(k, b.urem(i, stages), stages))))

    task = overlapped_chain(p)
    if task is not None:
        k.run_overlapped(task, StageRing(acquire, lambda i: _select(k, i), release))
    else:
        # a loop task that writes shared memory must not overwrite what another thread of
        # the previous iteration still reads: a barrier opens each iteration then
        writes = any(task.writes for task in p.loop)
        with b.loop(p.loops) as i:
            acquire(i)
            if writes:
                b.barrier()
            k.run_phases(p.loop)
            release(i)
    after_loop(k)


__all__ = [
    "CONSUMER_BARRIER",
    "ConsumerBuilder",
    "KernelEmitter",
    "after_loop",
    "align_shared_base",
    "builder_for",
    "cp_async_copy",
    "emit_body",
    "launch_block",
    "swizzled_offset",
    "tile_origin",
]
