"""One `kernel.graph` as an `llvm.func` kernel (llvm and nvvm ops), following its `Plan`.

Kernel parameters are the graph's device tensors, then its outputs, then (with `tma`
loads) one tensor map per streamed tile. Every block-level value lives in a shared-memory
tile, except those the plan fuses: those are computed in registers where they are read
(`_Reader.read`). Matmuls run as the plan's matmul strategy says (`mma_sync`, `wgmma`,
`fma`).
Input iterators are loaded `plan.stages` iterations ahead of the compute, as the plan's
load strategy does it (`tile_loads`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    UnitAttr,
    f32,
    i32,
)
from xdsl.ir import Attribute, Block, Region, SSAValue

from mirage.dialects import nvvm
from mirage.dialects.opkinds import (
    FUSES,
    LOOP_MAX,
    LOOP_RESCALE,
    LOOP_RMS_LAST,
    LOOP_SUM,
    NORMS,
    PLAIN_ACCUMULATORS,
    SUM_REDUCTIONS,
)
from mirage.dialects.shapes import REPLICATE, dim_factors
from mirage.dialects.ugraph.graph import DTYPE_BYTES, Graph, Op, TensorType
from mirage.lowering.optimize import load_plan
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.plan import (
    MatmulPlan,
    Plan,
    Task,
    dependent_launch,
    group_layout,
    rescale_layout,
    scratch_set_bytes,
    wide_group,
)
from mirage.lowering.to_llvm import fma, mma_sync, tile_loads, wgmma
from mirage.lowering.to_llvm.emitter import StageRing
from mirage.lowering.to_llvm.llvm_builder import GLOBAL_PTR, SHARED_PTR, Builder, Int, tree
from mirage.lowering.to_llvm.llvm_builder import broadcast_coords as _broadcast
from mirage.lowering.to_llvm.llvm_builder import row_major_coords as _coords
from mirage.lowering.to_llvm.memory_access import contiguous_run, storage_type, vector_width
from mirage.lowering.to_llvm.scalar import pointwise_op

SMEM_SYMBOL = "mirage_smem"
GRID_CONSTANT = "nvvm.grid_constant"
"""On a kernel: the indices of its `__grid_constant__` parameters (128-byte tensor maps)."""

NEG_INF = float("-inf")


class KernelEmitter:
    def __init__(
        self,
        plan: Plan,
        name: str,
        block_dims: Sequence[int],
        outputs: Sequence[TensorType],
        extra_params: int = 0,
    ):
        """`extra_params`: device pointers the kernel takes after its graph's (those of a
        graph joined into its launch, `cluster_kernel`)."""
        self.plan = plan
        self.graph: Graph = plan.graph
        self.name = name
        self.block_dims = tile_loads.launch_block(plan, tuple(block_dims))
        self.outputs = list(outputs)
        g = self.graph
        self.producer = plan.producer()
        arg_types: list[Attribute] = [GLOBAL_PTR] * (len(g.args) + len(self.outputs) + extra_params)
        # tensor maps: 128-byte __grid_constant__ parameters, used through generic pointers
        maps = plan.tensor_maps()
        arg_types += [llvm.LLVMPointerType()] * len(maps)
        self.func = llvm.FuncOp(
            name,
            llvm.LLVMFunctionType(arg_types),
            linkage=llvm.LinkageAttr("external"),
            body=Region(Block(arg_types=arg_types)),
        )
        self.func.attributes["nvvm.kernel"] = UnitAttr()
        self.func.attributes["nvvm.maxntid"] = DenseArrayBase.from_list(i32, list(self.block_dims))
        if maps:
            first = len(arg_types) - len(maps)
            self.func.attributes[GRID_CONSTANT] = DenseArrayBase.from_list(
                i32, list(range(first, len(arg_types)))
            )
        entry = self.func.body.block
        self.b = tile_loads.builder_for(plan, entry)
        self.params = list(entry.args)
        self.tensor_map_params = self.params[len(arg_types) - len(maps) :]
        self.stage_index: Int = 0
        self.iteration: Int = 0
        self.kept_outputs: set[int] = set()
        """Output ops whose tiles stay in shared memory for a joined graph (not stored)."""
        self.output_windows: dict[int, _OutputWindow] = {}
        """Output op -> `_output_window`, for the matmul that stores it (mode 'global')."""

    @classmethod
    def within(
        cls,
        host: KernelEmitter,
        plan: Plan,
        outputs: Sequence[TensorType],
        params: Sequence[SSAValue],
        bid: list[Int],
        smem_offset: int,
    ) -> KernelEmitter:
        """An emitter of `plan` that goes on where `host` stands, in its function: block
        coordinates `bid`, its shared memory from `smem_offset` of the host's (aligned)
        base on, the frame of the host's own tile offsets."""
        self = cls.__new__(cls)
        self.plan = plan
        self.graph = plan.graph
        self.name = host.name
        self.block_dims = host.block_dims
        self.outputs = list(outputs)
        self.producer = plan.producer()
        self.func = host.func
        # the host's barriers: those of its consumer warps where it has a producer warp
        consumers = host.plan.threads if host.plan.loads == load_plan.TMA else None
        self.b = tile_loads.builder_for(plan, host.b.entry, consumers)
        self.b.block = host.b.block
        self.params = list(params)
        self.tensor_map_params = []
        self.stage_index = 0
        self.iteration = 0
        self.kept_outputs = set()
        self.output_windows = {}
        self.tid, self.lane, self.warp = host.tid, host.lane, host.warp
        self.bid = bid
        self.smem = self.b.gep(host.smem, smem_offset)
        self.smem32 = self.b.add(host.smem32, smem_offset)
        if any(t.swizzle for t in plan.tiles.values()):
            tile_loads.align_shared_base(self)
        self._slots()
        return self

    # --- setup ----------------------------------------------------------------------------

    def emit(self) -> llvm.FuncOp:
        self.setup()
        self._emit_body()
        self.b.ret()
        return self.func

    def setup(self) -> None:
        """Thread and block indices, the shared-memory base. Where launches are
        programmatic (`dependent_launch`), the kernel first waits for the launch before
        it, whose output it may read (the next launch may start once this one ends)."""
        b = self.b
        if dependent_launch(self.plan.target):
            b.emit(nvvm.GridDepControlWaitOp())
        bx, by, _ = self.block_dims
        tid: Int = b.sreg("tid.x")
        if self.block_dims[1] > 1:
            tid = b.add(tid, b.mul(b.sreg("tid.y"), bx))
        if self.block_dims[2] > 1:
            tid = b.add(tid, b.mul(b.sreg("tid.z"), bx * by))
        self.tid = tid
        self.lane = b.and_(tid, 31)
        self.warp = b.lshr(tid, 5)
        grid = self.plan.grid
        self.bid: list[Int] = [
            b.sreg(f"ctaid.{axis}") if grid[g] > 1 else 0 for g, axis in enumerate("xyz")
        ]
        self.smem = b._r(llvm.AddressOfOp(SMEM_SYMBOL, SHARED_PTR))  # pyright: ignore[reportPrivateUsage]
        self.smem32: Int = b._r(llvm.PtrToIntOp(self.smem, i32))  # pyright: ignore[reportPrivateUsage]
        if any(t.swizzle for t in self.plan.tiles.values()):
            tile_loads.align_shared_base(self)
        self._slots()

    def _slots(self) -> None:
        self.scratch_turn: SSAValue | None = None
        if self.plan.scratch >= 0:
            self.scratch_turn = self.b.alloca(i32)
            self.b.store(self.b.const(0), self.scratch_turn, 4)
        self.acc_slots: dict[int, SSAValue] = {}
        self.rowsum_slots: dict[int, SSAValue] = {}
        self.rowmax_slots: dict[int, SSAValue] = {}
        self.row_slots: dict[int, SSAValue] = {}

    def _emit_body(self) -> None:
        tile_loads.emit_body(self)

    def run_invariant(self) -> None:
        """The loop-invariant tasks, once, between barriers: after every thread's hoisted
        copies have landed, and before any loop task reads their results."""
        self.b.barrier()
        self.run_phases(self.plan.invariant)
        self.b.barrier()

    def run_phases(self, tasks: Sequence[Task]) -> None:
        phase = 0
        for task in tasks:
            if task.phase != phase:
                self.b.barrier()
                phase = task.phase
            self.run_task(task)

    def run_task(self, task: Task) -> None:
        handler: Callable[[Task], None] = getattr(self, "_t_" + task.kind)
        handler(task)

    # --- addressing ---------------------------------------------------------------------

    def tile(self, v: int) -> Tile:
        return self.plan.tiles[v]

    def tile_base(self, v: int, plane: Int = 0) -> Int:
        """Byte offset in shared memory of tile `v` (this iteration's stage)."""
        t = self.tile(v)
        base: Int = t.offset
        if t.stages > 1:
            base = self.b.add(base, self.b.mul(self.stage_index, t.copy_bytes))
        if t.planes > 1:
            base = self.b.add(base, self.b.mul(plane, t.copy_bytes))
        return base

    def element_offset(self, t: Tile, coords: Sequence[Int]) -> Int:
        b = self.b
        if t.swizzle:
            # the rows of every leading dim, one after the other
            row: Int = 0
            for c, n in zip(coords[:-1], t.shape[:-1], strict=True):
                row = b.add(b.mul(row, n), c) if n > 1 else row
            return tile_loads.swizzled_offset(b, t, row, coords[-1])
        off: Int = 0
        for c, s, n in zip(coords, t.strides, t.shape, strict=True):
            if n > 1:
                off = b.add(off, b.mul(c, s))
        return b.mul(off, t.esize)

    def smem_ptr(self, byte_offset: Int) -> SSAValue:
        return self.b.gep(self.smem, byte_offset)

    def load_tile(
        self, v: int, coords: Sequence[Int], plane: Int = 0, align: int | None = None
    ) -> SSAValue:
        """Element `coords` of tile `v` as f32 (one plane, no finalize)."""
        t = self.tile(v)
        b = self.b
        ptr = self.smem_ptr(b.add(self.tile_base(v, plane), self.element_offset(t, coords)))
        raw = b.load(storage_type(t.dtype), ptr, align or t.esize)
        return b.to_f32(raw, t.dtype)

    def store_tile(
        self,
        v: int,
        coords: Sequence[Int],
        value: SSAValue,
        plane: Int = 0,
        align: int | None = None,
    ) -> None:
        t = self.tile(v)
        b = self.b
        ptr = self.smem_ptr(b.add(self.tile_base(v, plane), self.element_offset(t, coords)))
        b.store(b.from_f32(value, t.dtype), ptr, align or t.esize)

    def store_run(
        self, v: int, coords: Sequence[Int], values: Sequence[SSAValue], plane: Int = 0
    ) -> None:
        """Elements of tile `v` at `coords` and the columns after it, one a value; the
        first column is a multiple of their count (what the stores' alignment says)."""
        b = self.b
        t = self.tile(v)
        for e, x in enumerate(values):
            align = self.hint_align(t, (len(values), e))
            self.store_tile(v, [*coords[:-1], b.add(coords[-1], e)], x, plane, align)

    def read_run(self, v: int, coords: Sequence[Int], m: int) -> list[SSAValue]:
        """m adjacent elements of tile `v` from `coords` on, as f32, by one wide load per
        plane (planes summed, finalize applied)."""
        t = self.tile(v)
        b = self.b
        bits = t.esize * 8
        total: list[SSAValue] = []
        for plane in range(t.planes):
            ptr = self.smem_ptr(b.add(self.tile_base(v, plane), self.element_offset(t, coords)))
            # 32-bit words from one base: LLVM fuses them into one ld.shared.v{2,4}
            per_word = max(1, 4 // t.esize)
            words = [
                b.load(i32, b.gep(ptr, 4 * w), m * t.esize if w == 0 else 4)
                for w in range(max(1, m // per_word))
            ]
            values: list[SSAValue] = []
            for e in range(m):
                word = words[e // per_word]
                piece = b.v(b.lshr(word, (e % per_word) * bits), IntegerType(bits))
                if t.dtype != "bf16":
                    piece = b.bitcast(piece, storage_type(t.dtype))
                values.append(b.to_f32(piece, t.dtype))
            total = (
                values if not total else [b.fadd(x, y) for x, y in zip(total, values, strict=True)]
            )
        return [self._finalize(t, x) for x in total]

    def _finalize(self, t: Tile, x: SSAValue) -> SSAValue:
        """An accumulator's stored sum as its value: a mean (plus eps), or the root of one."""
        b = self.b
        kind, c, eps = t.finalize
        if kind in ("scale", "rms"):
            x = b.fmul(x, b.f32(c))
            if eps:
                x = b.fadd(x, b.f32(eps))
        return b.sqrt(x) if kind == "rms" else x

    def hint_align(self, t: Tile, hint: tuple[int, int] | None) -> int | None:
        """Alignment of an element whose last coordinate is m q + r (hint (m, r))."""
        if hint is None:
            return None
        multiple, offset = hint
        inner = t.shape[-1]
        a = 16
        if len(t.shape) >= 2:
            a = math.gcd(a, t.pitch * t.esize)
        if inner > 1:
            a = math.gcd(a, multiple * t.esize)
            if offset:
                a = math.gcd(a, offset * t.esize)
        return max(a, t.esize)

    def read_tile(self, v: int, coords: Sequence[Int], align: int | None = None) -> SSAValue:
        """The value of tile `v` at `coords`: planes summed, finalize applied."""
        t = self.tile(v)
        b = self.b
        x = self.load_tile(v, coords, 0, align)
        for plane in range(1, t.planes):
            x = b.fadd(x, self.load_tile(v, coords, plane, align))
        return self._finalize(t, x)

    # --- reading values: tiles, or fused producers computed in place -------------------

    def reader(self, override: dict[int, SSAValue] | None = None) -> _Reader:
        return _Reader(self, override or {})

    # --- mapping of work to threads ----------------------------------------------------

    def for_each(
        self,
        count: int,
        body: Callable[[Int], None],
        threads: int | None = None,
        first: Int | None = None,
    ) -> None:
        """body(index) for index in range(count), spread over the block's threads."""
        b = self.b
        t = threads or self.plan.threads
        me = self.tid if first is None else first
        rounds = math.ceil(count / t)
        with b.loop(rounds) as j:
            index = b.add(me, b.mul(j, t))
            if count % t:
                with b.if_(b.icmp("ult", index, count)):
                    body(index)
            else:
                body(index)

    def for_each_chunk(
        self, shape: Sequence[int], vec: int, body: Callable[[list[Int]], None]
    ) -> None:
        """body(coords of a chunk's first element) for every chunk of `vec` elements along
        the last dim of `shape`."""
        chunk_shape = [*shape[:-1], shape[-1] // vec]

        def run(index: Int) -> None:
            coords = _coords(self.b, index, chunk_shape)
            coords[-1] = self.b.mul(coords[-1], vec)
            body(coords)

        self.for_each(math.prod(chunk_shape), run)

    def chunk_align(self, t: Tile, vec: int) -> int:
        """Alignment in bytes of a chunk of `vec` elements of tile `t`."""
        a = 16
        a = math.gcd(a, vec * t.esize)
        if len(t.shape) >= 2:
            a = math.gcd(a, t.pitch * t.esize)
        return a

    # --- tasks ----------------------------------------------------------------------------

    def _t_compute(self, task: Task) -> None:
        op = self.graph.ops[task.op]
        results = self.results_of(task.op)
        shape = op.results[0].shape or (1,)
        vec = self._vec(shape, [*results], list(op.operands))

        def body(coords: list[Int]) -> None:
            rd = self.reader()
            for k in range(vec):
                c = [*coords[:-1], self.b.add(coords[-1], k)]
                values = rd.at(vec, k, coords[-1]).apply(task.op, c)
                for r, x in zip(results, values, strict=True):
                    self.store_tile(r, c, x, align=self._elem_align(r, vec, k))

        self.for_each_chunk(shape, vec, body)

    def _t_convert(self, task: Task) -> None:
        twin = task.writes[0]
        src = self.plan.converts[twin]
        shape = self.tile(twin).shape
        vec = self._vec(shape, [twin], [src])

        def body(coords: list[Int]) -> None:
            rd = self.reader()
            for k in range(vec):
                c = [*coords[:-1], self.b.add(coords[-1], k)]
                x = rd.at(vec, k, coords[-1]).read(src, c)
                self.store_tile(twin, c, x, align=self._elem_align(twin, vec, k))

        self.for_each_chunk(shape, vec, body)

    def _vec(self, shape: Sequence[int], written: Sequence[int], read: Sequence[int]) -> int:
        """Elements per chunk: 16-byte accesses where every tile involved allows."""
        vec = 8
        for v in [*written, *read]:
            t = self.plan.tiles.get(v)
            if t is None:
                continue
            if t.shape[-1] > 1:
                vec = min(vec, vector_width(t.shape[-1], t.esize))
                if len(t.shape) >= 2:
                    vec = math.gcd(vec, t.pitch)
        return max(1, math.gcd(vec, shape[-1]))

    def _elem_align(self, v: int, vec: int, k: int) -> int:
        t = self.tile(v)
        a = self.chunk_align(t, vec)
        if k:
            a = math.gcd(a, k * t.esize)
        return a

    def results_of(self, index: int) -> list[int]:
        n = len(self.graph.args)
        for i, op in enumerate(self.graph.ops):
            if i == index:
                return list(range(n, n + len(op.results)))
            n += len(op.results)
        raise KeyError(index)

    def _result(self, index: int) -> int:
        return self.results_of(index)[0]

    # input iterators ----------------------------------------------------------------------

    # outputs --------------------------------------------------------------------------

    def _output_window(self, index: int) -> _OutputWindow:
        """Where block output op `index` writes this block's tile."""
        b = self.b
        op = self.graph.ops[index]
        out_index = self.graph.outputs.index(self._result(index))
        gptr = self.params[len(self.graph.args) + out_index]
        _, view_strides = op.layout(op.results[0].shape)
        shape = self.graph.type_of(op.operands[0]).shape
        omap = op.ints_attr("omap")
        fstrides = list(view_strides)
        base: Int = 0
        for d, n in enumerate(shape):
            off: Int = 0
            for axis, parts in dim_factors(omap, self.plan.grid, REPLICATE, 1, d):
                off = b.add(b.mul(off, parts), self.bid[axis])
            base = b.add(base, b.mul(off, n * fstrides[d]))
        multiple = math.gcd(*fstrides[:-1], *(n * f for n, f in zip(shape, fstrides, strict=True)))
        return _OutputWindow(gptr, base, fstrides, multiple)

    def _output_element(
        self, gptr: SSAValue, base: Int, fstrides: list[int], coords: Sequence[Int], esize: int
    ) -> SSAValue:
        b = self.b
        goff: Int = base
        for d, c in enumerate(coords):
            goff = b.add(goff, b.mul(c, fstrides[d]))
        return b.gep(gptr, b.mul(goff, esize))

    def _t_output(self, task: Task) -> None:
        if task.op in self.kept_outputs:
            return
        b = self.b
        op = self.graph.ops[task.op]
        src = op.operands[0]
        gptr, base, fstrides, _ = self._output_window(task.op)
        dtype = op.results[0].dtype
        esize = DTYPE_BYTES[dtype]
        shape = self.graph.type_of(src).shape
        vec = self._vec(shape, [], [src])
        vec = math.gcd(vec, vector_width(contiguous_run(shape, fstrides), esize))
        galign = math.gcd(16, vec * esize)

        def body(coords: list[Int]) -> None:
            rd = self.reader()
            gp = self._output_element(gptr, base, fstrides, coords, esize)
            for k in range(vec):
                c = [*coords[:-1], b.add(coords[-1], k)]
                x = rd.at(vec, k, coords[-1]).read(src, c)
                align = galign if k == 0 else math.gcd(galign, k * esize)
                b.store(b.from_f32(x, dtype), b.gep(gp, k * esize), align)

        self.for_each_chunk(shape, vec, body)

    # accumulators ------------------------------------------------------------------------

    def _fill(self, v: int, value: float) -> None:
        t = self.tile(v)
        b = self.b
        words = t.total_bytes // 4
        x = b.f32(value) if t.dtype == "f32" else None
        assert x is not None, "accumulator tiles hold f32"

        def body(index: Int) -> None:
            b.store(x, self.smem_ptr(b.add(t.offset, b.mul(index, 4))), 4)

        self.for_each(words, body)

    def _filled(self, count: int, value: float) -> SSAValue:
        """`count` register slots, each holding `value`."""
        slots = self.b.alloca(f32, count)
        x = self.b.f32(value)
        for i in range(count):
            self.b.store(x, self.b.slot(slots, i, f32), 4)
        return slots

    def _t_acc_init(self, task: Task) -> None:
        op = self.graph.ops[task.op]
        if not task.writes and op.kind in LOOP_RESCALE:  # elements and maxima in registers
            value, scale = (self.graph.type_of(o).shape for o in op.operands)
            _, passes, rounds = rescale_layout(self.plan.threads, value, scale)
            self.row_slots[task.op] = self._filled(passes * rounds, 0.0)
            self.rowmax_slots[task.op] = self._filled(passes, NEG_INF)
            return
        if not task.writes and task.op not in self.plan.matmuls:  # row sums in registers
            src = op.operands[0]
            shape = self.graph.type_of(src).shape
            _, _, passes = self._groups(math.prod(shape[:-1]), shape[-1])
            self.row_slots[task.op] = self._filled(passes, 0.0)
            return
        if not task.writes:  # a register accumulator
            mm = self.plan.matmuls[task.op]
            bt, mt, nt, _ = mm.tiles
            if mm.chain_next >= 0:  # row sums (and online: maxima) of a chained result
                rows = max(1, bt * mt * 2)
                fills = [(self.rowsum_slots, 0.0)]
                if mm.rowmax >= 0:
                    fills.append((self.rowmax_slots, NEG_INF))
                for where, value in fills:
                    where[task.op] = self._filled(rows, value)
                return
            self.acc_slots[task.op] = self._filled(bt * mt * nt * 4, 0.0)
            return
        for v in task.writes:
            prod = self.producer.get(v)
            kind = prod[1].kind if prod else "accum_max"  # running maxima of accum_rescale
            self._fill(v, NEG_INF if kind in LOOP_MAX else 0.0)

    def _t_acc_update(self, task: Task) -> None:
        op = self.graph.ops[task.op]
        acc = self._result(task.op)
        if op.kind in PLAIN_ACCUMULATORS:
            combine = "sum" if op.kind in LOOP_SUM else "max"
            shape = self.tile(acc).shape
            vec = self._vec(shape, [acc], list(op.operands))

            def body(coords: list[Int]) -> None:
                rd = self.reader()
                for k in range(vec):
                    c = [*coords[:-1], self.b.add(coords[-1], k)]
                    x = rd.at(vec, k, coords[-1]).read(op.operands[0], c)
                    old = self.load_tile(acc, c)
                    new = self.b.fadd(old, x) if combine == "sum" else self.b.fmax(old, x)
                    self.store_tile(acc, c, new)

            self.for_each_chunk(shape, vec, body)
        elif op.kind in LOOP_RESCALE:
            self._rescale(task, op, acc)
        else:
            square = op.kind in LOOP_RMS_LAST
            src = op.operands[0]
            shape = self.graph.type_of(src).shape

            def finish(coords: list[Int], total: SSAValue) -> None:
                old = self.load_tile(acc, coords)
                self.store_tile(acc, coords, self.b.fadd(old, total))

            slots = self.row_slots.get(task.op)
            self._group_reduce(
                src, shape, len(shape) - 1, 1, "sum", finish, square=square, into=slots
            )

    def _t_acc_flush(self, task: Task) -> None:
        """After the loop: combine each output's lane partials and write the accumulator."""
        b = self.b
        op = self.graph.ops[task.op]
        acc = self._result(task.op)
        if op.kind in LOOP_RESCALE:  # each lane's own elements, as they are
            slots = self.row_slots[task.op]

            def store(slot: int, vc: list[Int], valid: SSAValue | bool) -> None:
                with b.if_(valid):
                    self.store_tile(acc, vc, b.load(f32, b.slot(slots, slot, f32), 4))

            self._rescale_lanes(op, lambda p, oc, valid: None, store)
            return
        shape = self.graph.type_of(op.operands[0]).shape
        out_shape = [*shape[:-1], 1]
        outputs = math.prod(out_shape)
        group, per_pass, passes = self._groups(outputs, shape[-1])
        slots = self.row_slots[task.op]
        lane = b.urem(self.tid, group)
        for p in range(passes):
            o = b.add(b.udiv(self.tid, group) if group > 1 else self.tid, p * per_pass)
            total = b.load(f32, b.slot(slots, p, f32), 4)
            off = group // 2
            while off >= 1:
                total = b.fadd(total, b.shfl_bfly(total, off))
                off //= 2
            valid = b.icmp("ult", o, outputs) if outputs % per_pass or p else True
            with b.if_(b.and1(valid, b.icmp("eq", lane, 0))):
                self.store_tile(acc, _coords(b, o, out_shape), total)

    def _rescale(self, task: Task, op: Op, acc: int) -> None:
        """acc = acc * exp(M - M') + v * exp(s - M'), M' = max(M, s); one group of lanes per
        element of s, over the elements of v that s broadcasts to (`rescale_layout`). In
        registers (`Plan.register_rows`) each lane keeps its elements and its copy of their
        maxima; else both are tiles, the group's first lane storing the new maximum."""
        b = self.b
        value, scale = op.operands
        sshape = self.graph.type_of(scale).shape
        slots = self.row_slots.get(task.op)
        maxima = self.rowmax_slots.get(task.op)
        mtile = self.plan.rescale_max.get(acc, -1)
        state: dict[str, SSAValue] = {}

        def start(p: Int, oc: list[Int], valid: SSAValue | bool) -> None:
            rd = self.reader()
            if maxima is not None:
                assert isinstance(p, int)
                m_old = b.load(f32, b.slot(maxima, p, f32), 4)
            else:
                m_old = self.load_tile(mtile, oc)
            m_new = b.fmax(m_old, rd.read(scale, oc))
            state["new"], state["keep"] = m_new, b.exp_weight(b.fsub(m_old, m_new))
            if maxima is not None:
                assert isinstance(p, int)
                b.store(m_new, b.slot(maxima, p, f32), 4)

        def element(slot: int, vc: list[Int], valid: SSAValue | bool) -> None:
            rd = self.reader()
            x = rd.read(value, vc)
            w = b.exp_weight(b.fsub(rd.read(scale, _broadcast(vc, sshape)), state["new"]))
            if slots is not None:
                where = b.slot(slots, slot, f32)
                b.store(b.fma(x, w, b.fmul(b.load(f32, where, 4), state["keep"])), where, 4)
                return
            new = b.fma(x, w, b.fmul(self.load_tile(acc, vc), state["keep"]))
            with b.if_(valid):
                self.store_tile(acc, vc, new)

        def finish(oc: list[Int], first: SSAValue | bool) -> None:
            b.emit(nvvm.BarWarpSyncOp())
            with b.if_(first):
                self.store_tile(mtile, oc, state["new"])

        self._rescale_lanes(op, start, element, None if slots is not None else finish)

    def _rescale_lanes(
        self,
        op: Op,
        start: Callable[[Int, list[Int], SSAValue | bool], None],
        element: Callable[[int, list[Int], SSAValue | bool], None],
        finish: Callable[[list[Int], SSAValue | bool], None] | None = None,
    ) -> None:
        """Walk this lane's part of accum_rescale `op`: per pass, start(pass, coords in the
        scale, valid), then element(slot, coords in the value, valid) for each element the
        lane takes, then finish(coords in the scale, whether this is the valid first lane of
        its group). With registers (no `finish`) the passes and rounds are unrolled, so that
        `slot` (pass x rounds + round) indexes registers."""
        b = self.b
        vshape = self.graph.type_of(op.operands[0]).shape
        sshape = self.graph.type_of(op.operands[1]).shape
        inner_dims, passes, rounds = rescale_layout(self.plan.threads, vshape, sshape)
        inner_shape = [vshape[d] for d in inner_dims] or [1]
        outer = math.prod(sshape)
        inner = math.prod(inner_shape)
        group, per_pass, _ = self._groups(outer, inner)
        lane = b.urem(self.tid, group)
        unrolled = finish is None

        def run_pass(p: Int) -> None:
            o = b.add(b.udiv(self.tid, group), b.mul(p, per_pass))
            valid = b.icmp("ult", o, outer)
            oc = _coords(b, b.umin(o, outer - 1), sshape)
            start(p, oc, valid)

            def at(j: Int) -> None:
                r = b.add(lane, b.mul(j, group))
                slot = p * rounds + j if isinstance(p, int) and isinstance(j, int) else 0

                def visit() -> None:
                    ic = _coords(b, r, inner_shape)
                    vc = list(oc)
                    for d, c in zip(inner_dims, ic, strict=False):
                        vc[d] = c
                    element(slot, vc, valid)

                if inner % group:
                    with b.if_(b.icmp("ult", r, inner)):
                        visit()
                else:
                    visit()

            if unrolled:
                for j in range(rounds):
                    at(j)
            else:
                with b.loop(rounds) as j:
                    at(j)
            if finish is not None:
                finish(oc, b.and1(valid, b.icmp("eq", lane, 0)))

        if unrolled:
            for p in range(passes):
                run_pass(p)
            return
        with b.loop(passes) as p:
            run_pass(p)

    # reductions ---------------------------------------------------------------------------

    def _wide(self, outputs: int, per_output: int) -> int:
        """Lanes per output of a reduction across warps (0: within a warp)."""
        if self.plan.scratch < 0:
            return 0
        return wide_group(self.plan.threads, outputs, per_output)

    def _scratch_set(self) -> Int:
        """Byte offset of the set of per-warp partials that this reduction pass writes.
        Passes take the plan's two sets in turn (a count kept in a register, so that the
        same code run again by a loop still alternates): a pass's writes then never meet
        the reads of the pass before it, and the barrier that publishes the pass in
        between has waited for every reader of the one before that. So no barrier frees
        the scratch after its reads."""
        b = self.b
        assert self.scratch_turn is not None, "a reduction across warps needs the scratch"
        turn = b.load(i32, self.scratch_turn, 4)
        b.store(b.v(b.xor(turn, 1)), self.scratch_turn, 4)
        return b.add(self.plan.scratch, b.mul(turn, scratch_set_bytes(self.plan.threads)))

    def _groups(self, outputs: int, per_output: int) -> tuple[int, int, int]:
        """(lanes per output, outputs per pass, passes) for a group reduction."""
        return group_layout(self.plan.threads, outputs, per_output)

    def _group_reduce(
        self,
        src: int,
        shape: Sequence[int],
        dim: int,
        size: int,
        kind: str,
        finish: Callable[[list[Int], SSAValue], None],
        square: bool = False,
        everyone: bool = False,
        into: SSAValue | None = None,
    ) -> None:
        """For each output element (dim `dim` reduced to `size`), combine its inputs over a
        group of lanes and call finish(output coords, total) on lane 0 of the group (on
        every lane of it, with `everyone`). With `into`, each lane instead adds its own
        partial to register slot `pass` of `into` (combined later, by `_t_acc_flush`)."""
        b = self.b
        out_shape = [*shape[:dim], size, *shape[dim + 1 :]]
        outputs = math.prod(out_shape)
        per_output = shape[dim] // size
        group, per_pass, passes = self._groups(outputs, per_output)
        wide = self._wide(outputs, per_output) if into is None else 0
        if wide:
            group, per_pass, passes = wide, self.plan.threads // wide, 1
        neutral = 0.0 if kind == "sum" else NEG_INF

        def combine(x: SSAValue, y: SSAValue) -> SSAValue:
            return b.fadd(x, y) if kind == "sum" else b.fmax(x, y)

        def run_pass(p: Int) -> None:
            o = b.add(b.udiv(self.tid, group) if group > 1 else self.tid, b.mul(p, per_pass))
            valid = b.icmp("ult", o, outputs) if outputs % per_pass else True
            oc = _coords(b, b.umin(o, outputs - 1) if valid is not True else o, out_shape)
            lane = b.urem(self.tid, group)
            acc = b.alloca(f32)
            b.store(b.f32(neutral), acc, 4)
            # along the contiguous last dim, each lane takes runs of `vec` elements (wide
            # shared-memory loads); elsewhere single elements, `size` apart
            vec = 1
            if size == 1 and dim == len(shape) - 1:
                vec = 8
                while vec > 1 and per_output % (group * vec):
                    vec //= 2
            rounds = math.ceil(per_output / (group * vec))

            def element(r: Int) -> None:
                rd = self.reader()
                xs: list[SSAValue] = []
                start = b.mul(r, vec)
                for v in range(vec):
                    c = list(oc)
                    c[dim] = b.add(oc[dim], b.mul(b.add(start, v), size))
                    base = b.add(oc[dim], start) if vec > 1 else None
                    x = rd.at(vec, v, base).read(src, c)
                    xs.append(b.fmul(x, x) if square else x)
                # a tree, not a chain: the loads need not wait
                b.store(combine(b.load(f32, acc, 4), tree(xs, combine)), acc, 4)

            chunks = per_output // vec
            with b.loop(rounds) as j:
                r = b.add(lane, b.mul(j, group))
                if chunks % group:
                    with b.if_(b.icmp("ult", r, chunks)):
                        element(r)
                else:
                    element(r)
            total = b.load(f32, acc, 4)
            if into is not None:
                assert isinstance(p, int)
                slot = b.slot(into, p, f32)
                b.store(combine(b.load(f32, slot, 4), total), slot, 4)
                return
            off = min(group, 32) // 2
            while off >= 1:
                total = combine(total, b.shfl_bfly(total, off))
                off //= 2
            if group > 32:
                # each warp's total to shared memory; the group's warps, summed by all
                scratch = self._scratch_set()
                with b.if_(b.icmp("eq", self.lane, 0)):
                    b.store(total, self.smem_ptr(b.add(scratch, b.mul(self.warp, 4))), 4)
                b.barrier()
                first = b.mul(b.udiv(self.tid, group), group // 32)
                parts = [
                    b.load(f32, self.smem_ptr(b.add(scratch, b.mul(b.add(first, w), 4))), 4)
                    for w in range(group // 32)
                ]
                total = tree(parts, combine)
            cond = valid if everyone else b.and1(valid, b.icmp("eq", lane, 0))
            with b.if_(cond):
                finish(oc, total)

        if into is not None:
            for p in range(passes):  # unrolled: slots are indexed by the pass
                run_pass(p)
            return
        with b.loop(passes) as p:
            run_pass(p)

    def _t_reduce(self, task: Task) -> None:
        op = self.graph.ops[task.op]
        out = self._result(task.op)
        src = op.operands[0]
        shape = self.graph.type_of(src).shape
        kind = "sum" if op.kind in SUM_REDUCTIONS else "max"
        then = self.plan.reduce_epilogues.get(out)

        def finish(c: list[Int], total: SSAValue) -> None:
            if then is None:
                self.store_tile(out, c, total)
            else:  # the one reader's value, from this total
                (x,) = self.reader({out: total}).apply(self.producer[then][0], c)
                self.store_tile(then, c, x)

        self._group_reduce(src, shape, op.int_attr("dim"), op.int_attr("size"), kind, finish)

    def _t_rms_norm(self, task: Task) -> None:
        b = self.b
        op = self.graph.ops[task.op]
        out = self._result(task.op)
        src = op.operands[0]
        shape = self.graph.type_of(src).shape
        n = shape[-1]
        dim = len(shape) - 1
        outputs = math.prod(shape[:-1])
        group = self._wide(outputs, n) or self._groups(outputs, n)[0]

        eps = op.eps
        scales = self.plan.norm_scales.get(out)

        def row_scale(total: SSAValue) -> SSAValue:
            mean = b.fmul(total, b.f32(1.0 / n))
            return b.rsqrt(b.fadd(mean, b.f32(eps)) if eps else mean)

        if scales is not None:  # the readers scale the rows (`_Reader.apply`)
            self._group_reduce(
                src,
                shape,
                dim,
                1,
                "sum",
                lambda c, total: self.store_tile(scales, c, row_scale(total)),
                square=True,
            )
            return

        def finish(coords: list[Int], total: SSAValue) -> None:
            scale = row_scale(total)
            lane = b.urem(self.tid, group)
            with b.loop(math.ceil(n / group)) as j:
                r = b.add(lane, b.mul(j, group))

                def element() -> None:
                    c = [*coords[:-1], r]
                    self.store_tile(out, c, self.reader().normalized(task.op, c, scale))

                if n % group:
                    with b.if_(b.icmp("ult", r, n)):
                        element()
                else:
                    element()

        self._group_reduce(src, shape, dim, 1, "sum", finish, square=True, everyone=True)

    def _t_concat(self, task: Task) -> None:
        op = self.graph.ops[task.op]
        out = self._result(task.op)
        dim = op.int_attr("dim")
        start = 0
        for src in op.operands:
            shape = self.graph.type_of(src).shape
            vec = self._vec(shape, [out], [src])
            if dim == len(shape) - 1:
                vec = math.gcd(vec, start) if start else vec

            def body(coords: list[Int], src: int = src, start: int = start, vec: int = vec) -> None:
                rd = self.reader()
                for k in range(vec):
                    c = [*coords[:-1], self.b.add(coords[-1], k)]
                    oc = list(c)
                    oc[dim] = self.b.add(oc[dim], start)
                    self.store_tile(out, oc, rd.read(src, c))

            self.for_each_chunk(shape, vec, body)
            start += shape[dim]

    # matmuls -------------------------------------------------------------------------------

    def _t_matmul(self, task: Task) -> None:
        mm = self.plan.matmuls[task.op]
        if mm.mode == "global":  # where its elements go, computed where every warp runs
            index = self.producer[mm.target][0]
            self.output_windows[index] = self._output_window(index)
        if mm.wgmma:
            wgmma.WgmmaEmitter(self, mm).emit()
        elif mm.tensor_core:
            mma_sync.MmaEmitter(self, mm).emit()
        else:
            fma.emit(self, mm)

    def _t_chain(self, task: Task) -> None:
        mm = self.plan.matmuls[task.op]
        if mm.wgmma:
            wgmma.WgmmaEmitter(self, mm).chain()
        else:
            mma_sync.MmaEmitter(self, mm).chain()

    def run_overlapped(self, task: Task, ring: StageRing) -> None:
        """The whole loop of an overlapped chain (`MatmulPlan.overlap`), its stages held
        as the load strategy says."""
        mm = self.plan.matmuls[task.op]
        wgmma.WgmmaEmitter(self, mm).overlapped_chain(self.plan.loops, ring)

    def _t_rowsum(self, task: Task) -> None:
        mm = self.plan.matmuls[task.op]
        if mm.wgmma:
            wgmma.WgmmaEmitter(self, mm).rowsum_out()
        else:
            mma_sync.MmaEmitter(self, mm).rowsum_out()

    def _t_rowmax(self, task: Task) -> None:
        mm = self.plan.matmuls[task.op]
        if mm.wgmma:
            wgmma.WgmmaEmitter(self, mm).rowmax_out(task.writes[0])
        else:
            mma_sync.MmaEmitter(self, mm).rowmax_out(task.writes[0])

    def _t_materialize(self, task: Task) -> None:
        mm = self.plan.matmuls[task.op]
        if mm.wgmma:
            wgmma.WgmmaEmitter(self, mm).materialize()
        else:
            mma_sync.MmaEmitter(self, mm).materialize()

    def write_results(
        self, mm: MatmulPlan, coords: list[Int], values: Sequence[SSAValue], plane: Int
    ) -> None:
        """The matmul's elements at `coords` and the columns after it, one a value; the
        first column is a multiple of their count (so a block output's run may be stored
        as one wide store)."""
        b = self.b
        if mm.mode != "global":
            for e, x in enumerate(values):
                self.write_result(mm, [*coords[:-1], b.add(coords[-1], e)], x, plane)
            return
        index, out = self.producer[mm.target]
        dtype = out.results[0].dtype
        esize = DTYPE_BYTES[dtype]
        gptr, base, fstrides, multiple = self.output_windows[index]
        # the run's first offset: the window's multiple and, along a contiguous last dim,
        # the run's length
        run = len(values) if fstrides[-1] == 1 else 1
        align = math.gcd(16, math.gcd(run, multiple) * esize)
        gp = self._output_element(gptr, base, fstrides, coords, esize)
        for e, x in enumerate(values):
            c = [*coords[:-1], b.add(coords[-1], e)]
            y = self.reader({mm.result: x}).read(out.operands[0], c)
            step = e * fstrides[-1] * esize
            b.store(b.from_f32(y, dtype), b.gep(gp, step), math.gcd(align, step) if e else align)

    def write_result(self, mm: MatmulPlan, coords: list[Int], value: SSAValue, plane: Int) -> None:
        """The matmul's element at `coords` (of its result): through the fused epilogue to
        its target tile, stored or combined into the accumulator."""
        b = self.b
        if mm.mode == "regs":
            self.store_tile(mm.target, coords, value, plane)
            return
        if mm.mode == "global":
            self.write_results(mm, coords, [value], plane)
            return
        rd = self.reader({mm.result: value})
        if mm.mode == "store":
            x = value
            if mm.target != mm.result:
                # the target has a tile (this writes it): compute its op on the result
                index = self.producer[mm.target][0]
                results = self.results_of(index)
                x = rd.apply(index, coords)[results.index(mm.target)]
            self.store_tile(mm.target, coords, x, plane)
            return
        acc_op = self.producer[mm.target][1]
        x = rd.read(acc_op.operands[0], coords)
        old = self.load_tile(mm.target, coords, plane)
        new = b.fadd(old, x) if mm.combine == "sum" else b.fmax(old, x)
        self.store_tile(mm.target, coords, new, plane)


class _OutputWindow(NamedTuple):
    """Where a block output writes this block's tile."""

    gptr: SSAValue
    """The output tensor."""
    base: Int
    """Element offset of this block's tile."""
    strides: list[int]
    """The tensor's strides, by tile dim."""
    multiple: int
    """What every element's offset is a multiple of, but for its last coordinate's part."""


class _Reader:
    """Reads values element by element within one task: a tiled value is loaded, a fused
    one is computed from its operands (recursively), with one load or computation per
    (value, coordinates) in the task."""

    def __init__(self, k: KernelEmitter, override: dict[int, SSAValue]):
        self.k = k
        self.override = override
        self.cache: dict[tuple[int, tuple[object, ...]], SSAValue] = {}
        self.hint: tuple[int, int] | None = None
        """(m, r): the last coordinate of the next reads is m q + r, so wide loads can be
        proved aligned."""
        self.base: Int | None = None
        """m q, the last coordinate of the run of m elements the next reads belong to."""
        self.runs: dict[tuple[object, ...], list[SSAValue]] = {}

    def at(self, multiple: int, offset: int, base: Int | None = None) -> _Reader:
        self.hint = (multiple, offset)
        self.base = base
        return self

    def _run_read(self, v: int, coords: Sequence[Int]) -> SSAValue | None:
        """Element of a run of m adjacent elements, all loaded by one wide load."""
        k = self.k
        t = k.plan.tiles[v]
        if self.hint is None or self.base is None or t.shape[-1] == 1:
            return None
        m, offset = self.hint
        if m < 2 or m * t.esize > 16 or (k.hint_align(t, (m, 0)) or 0) < m * t.esize:
            return None
        key = (v, *(c if isinstance(c, int) else id(c) for c in coords[:-1]), id(self.base))
        run = self.runs.get(key)
        if run is None:
            run = k.read_run(v, [*coords[:-1], self.base], m)
            self.runs[key] = run
        return run[offset]

    def read(self, v: int, coords: Sequence[Int]) -> SSAValue:
        if v in self.override:
            return self.override[v]
        key = (v, tuple(c if isinstance(c, int) else id(c) for c in coords))
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        k = self.k
        if v in k.plan.tiles:
            x = self._run_read(v, coords) or k.read_tile(
                v, coords, k.hint_align(k.plan.tiles[v], self.hint)
            )
        else:
            index = k.producer[v][0]
            results = k.results_of(index)
            x = self.apply(index, coords)[results.index(v)]
        self.cache[key] = x
        return x

    def normalized(self, index: int, coords: Sequence[Int], scale: SSAValue) -> SSAValue:
        """Normalization `index` at `coords`, its row's scale given: x s, times the gain,
        plus the bias."""
        k = self.k
        op = k.graph.ops[index]
        y = k.b.fmul(self.read(op.operands[0], coords), scale)
        for j, v in enumerate(op.operands[1:]):  # gain, then bias
            w = self.read(v, _broadcast(coords, k.graph.type_of(v).shape))
            y = k.b.fmul(y, w) if j == 0 else k.b.fadd(y, w)
        return y

    def apply(self, index: int, coords: Sequence[Int]) -> list[SSAValue]:
        """The results of op `index` at `coords` of its result shape, for an op the plan
        computes where it is read: elementwise, a normalization (from its tile of row
        scales) or an accumulator of a loop that runs once (its operand)."""
        k = self.k
        op = k.graph.ops[index]
        if op.kind in NORMS:
            out = k.results_of(index)[0]
            scales = k.plan.norm_scales[out]
            scale = self.read(scales, _broadcast(coords, k.plan.tiles[scales].shape))
            return [self.normalized(index, coords, scale)]
        if op.kind in PLAIN_ACCUMULATORS:
            return [self.read(op.operands[0], coords)]
        args = [self.read(o, _broadcast(coords, k.graph.type_of(o).shape)) for o in op.operands]
        if op.kind in FUSES:
            assert op.body is not None
            return _run_scalar_graph(k.b, op.body, args)
        return [pointwise_op(k.b, op, args)]


def _run_scalar_graph(b: Builder, body: Graph, args: list[SSAValue]) -> list[SSAValue]:
    values: list[SSAValue] = list(args)
    for op in body.ops:
        operands = [values[i] for i in op.operands]
        values.append(pointwise_op(b, op, operands))
    return [values[i] for i in body.outputs]


def smem_global(size: int = 0) -> llvm.GlobalOp:
    """The dynamic shared memory of every kernel: `extern __shared__` bytes."""
    return llvm.GlobalOp(
        llvm.LLVMArrayType(size, IntegerType(8)),
        SMEM_SYMBOL,
        "external",
        addr_space=nvvm.SHARED,
        alignment=16,
    )


__all__ = ["KernelEmitter", "smem_global"]
