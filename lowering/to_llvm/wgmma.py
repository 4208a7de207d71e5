"""The `wgmma` matmul strategy (sm_90a): warpgroups split (batch, m64 tiles, n) as the plan
says (`matmul_plan.wgmma_parts`); each issues wgmma.mma_async.m64nNk16 over the k16 steps
of its tiles, B (and A where the plan says so) read through shared-memory matrix
descriptors over 128-byte-swizzled tiles, A otherwise from registers (ldmatrix, as
mma.sync's A fragment: the rows of each warp of the warpgroup).

Per task: `wgmma.fence` (the accumulator registers and the shared memory the barriers
ordered are ready; with A from registers, again after each ldmatrix of A), the
instructions of the task as one group (`commit_group`), and `wait_group 0` before
anything reads the accumulators or the operands' stage is released (the tile loads of
the next stages are in flight meanwhile: the producer warp of `tma`, or the cp.async
groups issued before the task). Operands written by threads (cp.async copies, tasks)
reach the asynchronous proxy through the fence the barriers carry
(`Plan.async_proxy_reads`).

The accumulator of m64nNk16 is, per warp, N/8 m16n8 tiles of 4 f32 in mma.sync's order:
thread t holds rows t/4 and t/4 + 8 of its warp's 16, columns 2 (t % 4) + {0, 1} + 8 j.
Register slots follow that order, as the mma-sync strategy's do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import f32, i32
from xdsl.ir import SSAValue

from mirage.dialects import nvvm
from mirage.lowering.optimize import matmul_plan
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.matmul_plan import Descriptor, encode_descriptor
from mirage.lowering.optimize.plan import PINGPONG_GROUPS, MatmulPlan
from mirage.lowering.to_llvm.emitter import MatmulKernel, StageRing
from mirage.lowering.to_llvm.llvm_builder import Int, broadcast_coords, row_major_coords
from mirage.lowering.to_llvm.mma_sync import a_fragment
from mirage.lowering.to_llvm.online_rows import OnlineRows

WARPS_PER_GROUP = 4
PINGPONG_BARRIERS = (2, 3)
"""The named barriers at which the `plan.PINGPONG_GROUPS` warpgroups of a ping-pong chain
wait for their turns (0 is every thread's, 1 the consumer warps',
`tile_loads.CONSUMER_BARRIER`)."""


def descriptor_words(leading: int, stride: int) -> tuple[int, int]:
    """The constant parts of a descriptor's (low, high) 32-bit words: everything but the
    start address."""
    bits = encode_descriptor(Descriptor(0, leading, stride))
    return bits & 0xFFFFFFFF, bits >> 32


class WgmmaEmitter:
    def __init__(self, k: MatmulKernel, mm: MatmulPlan):
        self.k = k
        self.b = k.b
        self.mm = mm
        plan = k.plan
        a_tile = plan.tiles.get(mm.a)  # none when A comes from registers (a chain)
        self.a_tile = a_tile if a_tile is not None else Tile((1, 1), mm.ab_type, 1)
        self.b_tile = plan.tiles[mm.b]
        self.a_desc = bool(self.a_tile.swizzle) and matmul_plan.wgmma_a_descriptor(
            mm.m, mm.k, mm.ab_type
        )
        b = self.b
        pb, pm, pn, _ = mm.parts
        group = b.lshr(k.warp, 2)
        self.wq = b.and_(k.warp, WARPS_PER_GROUP - 1)
        self.wn = b.urem(group, pn)
        rest = b.udiv(group, pn)
        self.wm = b.urem(rest, pm)
        self.wb = b.udiv(rest, pm)
        self.used = pb * pm * pn
        self.group = group
        self.bt, self.mt, self.nt, self.kt = mm.tiles
        self.width = matmul_plan.wgmma_instruction_n(
            self.nt * 8, self.a_tile.esize, mm.mode == "regs"
        )

    # --- addressing -------------------------------------------------------------------------

    def _guard(self) -> SSAValue | bool:
        """Whole warpgroups take part (wgmma is .sync.aligned over the warpgroup)."""
        groups = matmul_plan.warpgroups(self.k.plan.threads)
        return self.b.icmp("ult", self.group, self.used) if self.used < groups else True

    def _batch(self, ib: Int) -> list[Int]:
        b = self.b
        flat = b.add(b.mul(self.wb, self.bt), ib)
        return row_major_coords(b, flat, self.mm.batch) if self.mm.batch else []

    def _descriptor(self, byte_offset: Int, leading: int, stride: int) -> list[SSAValue]:
        """(low, high) words of the descriptor of the matrix at `byte_offset` of the
        kernel's shared memory."""
        b = self.b
        lo_bits, hi_bits = descriptor_words(leading, stride)
        address = b.add(self.k.smem32, byte_offset)
        lo = b.or_(b.and_(b.lshr(address, 4), 0x3FFF), lo_bits)
        return [b.v(lo), b.const(hi_bits)]

    def _a_operand(self, batch: list[Int], mtile: Int, k0: int) -> list[SSAValue]:
        mm = self.mm
        if not self.a_desc:
            m16 = self.b.add(self.b.mul(mtile, WARPS_PER_GROUP), self.wq)
            clamp = mm.m % matmul_plan.WGMMA_M != 0
            return a_fragment(self.k, mm.a, self.a_tile, batch, m16, k0, clamp)
        t = self.a_tile
        coords = [*broadcast_coords(batch, t.shape[:-2]), self.b.mul(mtile, 64), k0]
        off = self.b.add(self.k.tile_base(mm.a), self.k.element_offset(t, coords))
        return self._descriptor(off, *matmul_plan.a_descriptor_fields())

    def _b_operand(self, batch: list[Int], n0: Int, k0: int) -> list[SSAValue]:
        t = self.b_tile
        coords = [*broadcast_coords(batch, t.shape[:-2]), k0, n0]
        off = self.b.add(self.k.tile_base(self.mm.b), self.k.element_offset(t, coords))
        return self._descriptor(off, *matmul_plan.b_descriptor_fields(t.panel_bytes))

    # --- the instructions -------------------------------------------------------------------

    def _steps(self, batch: list[Int], mtile: Int, n0: Int, acc: list[SSAValue]) -> list[SSAValue]:
        """acc += A B over every k16 step, for m64 tile `mtile` and the `width` columns
        from `n0`: one instruction a step."""
        b = self.b
        mm = self.mm
        for s in range(self.kt):
            k0 = s * matmul_plan.WGMMA_K
            a = self._a_operand(batch, mtile, k0)
            if not self.a_desc:
                # A's registers were just written (ldmatrix): ordered before the wgmma
                # that reads them
                b.emit(nvvm.WgmmaFenceOp())
            desc_b = self._b_operand(batch, n0, k0)
            op = nvvm.WgmmaMmaAsyncOp(acc, a, desc_b, self.width, mm.ab_type, trans_b=True)
            res = b._r(op)  # pyright: ignore[reportPrivateUsage]
            acc = [b.extract(res, e, f32) for e in range(self.width // 2)]
        return acc

    def _wait(self, acc: list[SSAValue]) -> list[SSAValue]:
        """Commit the instructions issued since the last commit and wait for all of them."""
        self.b.emit(nvvm.WgmmaCommitGroupOp())
        return self._pending(acc, 0)

    def _pending(self, acc: list[SSAValue], pending: int) -> list[SSAValue]:
        """Wait until at most `pending` groups run; `acc` (of a group that has then landed)
        passes through the wait."""
        b = self.b
        res = b._r(nvvm.WgmmaWaitGroupOp(pending, acc))  # pyright: ignore[reportPrivateUsage]
        return [b.extract(res, e, f32) for e in range(len(acc))]

    def _mtile(self, i: int) -> Int:
        return self.b.add(self.b.mul(self.wm, self.mt), i)

    def _n0(self, chunk: int) -> Int:
        return self.b.add(self.b.mul(self.wn, self.nt * 8), chunk * self.width)

    def _slot(self, ib: int, i: int, j: int) -> int:
        """First of the 4 slots of n8 tile `j` of (batch `ib`, m64 tile `i`)."""
        return ((ib * self.mt + i) * self.nt + j) * 4

    def _write(
        self,
        batch: list[Int],
        mtile: Int,
        n0: Int,
        values: Callable[[int], SSAValue],
        write: Callable[[list[Int], list[SSAValue]], None],
    ) -> None:
        """write(coords, pair) for each pair of adjacent accumulator elements of this
        thread (values(e) the e-th of the instruction's registers); rows past m (padding
        of the m64 tile) are dropped."""
        b = self.b
        mm = self.mm
        lane = self.k.lane
        m16 = b.add(b.mul(mtile, WARPS_PER_GROUP), self.wq)
        for j in range(self.width // 8):
            for h in range(2):
                row = b.add(b.add(b.mul(m16, 16), b.lshr(lane, 2)), 8 * h)
                ok = b.icmp("ult", row, mm.m) if mm.m % matmul_plan.WGMMA_M else True
                col = b.add(b.add(n0, 8 * j), b.mul(b.and_(lane, 3), 2))
                pair = [values(4 * j + 2 * h + e) for e in (0, 1)]
                with b.if_(ok):
                    write([*batch, row, col], pair)

    # --- tasks ------------------------------------------------------------------------------

    def emit(self) -> None:
        b = self.b
        mm = self.mm
        chunks = self.nt * 8 // self.width
        with b.if_(self._guard()):
            if mm.mode == "regs":
                slots = self.k.acc_slots[mm.op]
                b.emit(nvvm.WgmmaFenceOp())
                for ib in range(self.bt):
                    batch = self._batch(ib)
                    for i in range(self.mt):
                        for c in range(chunks):
                            first = self._slot(ib, i, c * self.width // 8)
                            ptrs = [b.slot(slots, first + e, f32) for e in range(self.width // 2)]
                            acc = [b.load(f32, q, 4) for q in ptrs]
                            acc = self._steps(batch, self._mtile(i), self._n0(c), acc)
                            for q, x in zip(ptrs, acc, strict=True):
                                b.store(x, q, 4)
                count = self.bt * self.mt * self.nt * 4
                ptrs = [b.slot(slots, e, f32) for e in range(count)]
                done = self._wait([b.load(f32, q, 4) for q in ptrs])
                for q, x in zip(ptrs, done, strict=True):
                    b.store(x, q, 4)
                return
            with b.loop(self.bt) as ib:
                batch = self._batch(ib)
                for i in range(self.mt):
                    for c in range(chunks):
                        b.emit(nvvm.WgmmaFenceOp())
                        zero = [b.f32(0.0)] * (self.width // 2)
                        acc = self._steps(batch, self._mtile(i), self._n0(c), zero)
                        done = self._wait(acc)
                        self._write(
                            batch,
                            self._mtile(i),
                            self._n0(c),
                            lambda e, done=done: done[e],
                            lambda coords, xs: self.k.write_results(mm, coords, xs, 0),
                        )

    def chain(self) -> None:
        """S = A B (one instruction of all n1 columns a k16 step), its epilogue e = f(S) in
        registers, then O += e V with e's registers as the second matmul's A operand (the
        accumulator of m64nN is, per warp, that of N/8 m16n8 tiles, whose pairs packed are
        the A fragment of m64k16), and e's row sums accumulated in registers. In an online
        chain (`rowmax`), e = f(S, m) with m the row maxima of S, and O, the row sums and
        the running maxima are rescaled as accum_rescale does (`online_rows`), one m64 tile
        at a time."""
        b = self.b
        k = self.k
        second, rows = self._chain_parts()
        online, direct = rows.online, rows.direct
        acc2 = k.acc_slots[second.mm.op]
        with b.if_(self._guard()):
            for ib in range(self.bt):
                batch = self._batch(ib)
                for i in range(self.mt):
                    b.emit(nvvm.WgmmaFenceOp())
                    if self.mm.pingpong:
                        self._turn(wait=True)
                    s = self._issue_s(batch, i)
                    b.emit(nvvm.WgmmaCommitGroupOp())
                    if self.mm.pingpong:
                        self._turn(wait=False)
                    s = self._pending(s, 0)
                    packed, partial, maxima = self._softmax(rows, ib, i, batch, s)
                    if direct:
                        rows.rescale(ib, i, partial)
                    # O += e V: k walks e's columns 16 at a time, from registers (online and
                    # not direct: this step's e V apart, rescaled into O after)
                    count = second.nt * 4
                    if online and not direct:
                        into, first = b.alloca(f32, count), 0
                        for e in range(count):
                            b.store(b.f32(0.0), b.slot(into, e, f32), 4)
                    else:
                        into, first = acc2, second._slot(ib, i, 0)  # pyright: ignore[reportPrivateUsage]
                    ptrs = [b.slot(into, first + e, f32) for e in range(count)]
                    self._issue_pv(second, batch, packed.__getitem__, ptrs)
                    self._land(ptrs)
                    if online and not direct:
                        weights = rows.step_weights(ib, i, maxima)
                        rows.rescale(ib, i, partial, (into, 0, weights))

    def overlapped_chain(self, loops: int, ring: StageRing) -> None:
        """The chain's whole loop, software-pipelined as FlashAttention-3 overlaps within a
        warpgroup (`MatmulPlan.overlap`): step i + 1's S = A B is issued, then step i's
        O += e V, and step i + 1's softmax runs while the tensor cores work on both; O and
        the row sums are rescaled once step i's product has landed (the direct form:
        O_i+1 = O_i exp(M_i - M_i+1) + e_i+1 V_i+1, so the rescale may wait). `ring`
        holds the stages: step i's V and step i + 1's K are resident together."""
        b = self.b
        k = self.k
        second, rows = self._chain_parts()
        assert rows.direct and self.bt == self.mt == 1 and loops >= 2
        assert self._guard() is True, "an overlapped chain runs on every warpgroup"
        acc2 = k.acc_slots[second.mm.op]
        count = second.nt * 4
        o_ptrs = [b.slot(acc2, second._slot(0, 0, 0) + e, f32) for e in range(count)]  # pyright: ignore[reportPrivateUsage]
        keys = [(j, h) for j in range(self.mm.n // 8) for h in range(2)]
        held = b.alloca(i32, len(keys))  # e of the step whose e V comes next, packed

        def hold(packed: dict[tuple[int, int], SSAValue]) -> None:
            for n, key in enumerate(keys):
                b.store(packed[key], b.slot(held, n, i32), 4)

        def held_e(key: tuple[int, int]) -> SSAValue:
            return b.load(i32, b.slot(held, keys.index(key), i32), 4)

        batch = self._batch(0)
        ring.acquire(0)
        b.emit(nvvm.WgmmaFenceOp())
        s = self._wait(self._issue_s(batch, 0))
        packed, partial, _ = self._softmax(rows, 0, 0, batch, s)
        rows.rescale(0, 0, partial)
        hold(packed)
        with b.loop(loops - 1) as step:
            following = b.add(step, 1)
            ring.acquire(following)
            b.emit(nvvm.WgmmaFenceOp())
            s = self._issue_s(batch, 0)
            b.emit(nvvm.WgmmaCommitGroupOp())
            ring.select(step)
            self._issue_pv(second, batch, held_e, o_ptrs)
            b.emit(nvvm.WgmmaCommitGroupOp())
            s = self._pending(s, 1)  # S landed; step's e V still running
            ring.select(following)
            packed, partial, _ = self._softmax(rows, 0, 0, batch, s)
            # the running e V reads the held e: those registers live until it has landed
            # (else the next e may be made in them)
            reading = [b.bitcast(held_e(key), f32) for key in keys]
            self._land(o_ptrs, commit=False, keep=reading)
            ring.release(step)
            rows.rescale(0, 0, partial)
            hold(packed)
        ring.select(loops - 1)
        b.emit(nvvm.WgmmaFenceOp())
        self._issue_pv(second, batch, held_e, o_ptrs)
        self._land(o_ptrs)
        ring.release(loops - 1)

    # --- the chain's parts ------------------------------------------------------------------

    def _turn(self, wait: bool) -> None:
        """Ping-pong (`MatmulPlan.pingpong`): warpgroup g waits at its barrier for its turn
        to issue S (`wait`), or passes the turn at the other's barrier. The turns alternate
        from the first warpgroup's: the second passes once before its first wait, and not
        after its last issue, so every arrival has its wait."""
        b = self.b
        k = self.k
        threads = PINGPONG_GROUPS * WARPS_PER_GROUP * 32
        for g, mine in enumerate(PINGPONG_BARRIERS):
            other = PINGPONG_BARRIERS[1 - g]
            with b.if_(b.icmp("eq", self.group, g)):
                if wait:
                    if g:  # the second's pass before its first wait
                        with b.if_(b.icmp("eq", k.iteration, 0)):
                            b.emit(nvvm.BarrierArriveOp(other, threads))
                    b.emit(nvvm.BarrierSyncOp(mine, threads))
                else:  # the second passes no turn after its last issue
                    with b.if_(b.icmp("ne", k.iteration, k.plan.loops - 1) if g else True):
                        b.emit(nvvm.BarrierArriveOp(other, threads))

    def _chain_parts(self) -> tuple[WgmmaEmitter, OnlineRows]:
        m2 = self.k.plan.matmuls[self.mm.chain_next]
        second = WgmmaEmitter(self.k, m2)
        assert self.width == self.mm.n, "the chain's first matmul is one instruction wide"
        return second, OnlineRows(self.k, self.mm, self.mt, second.nt)

    def _issue_s(self, batch: list[Int], i: int) -> list[SSAValue]:
        """S = A B of m64 tile `i`, issued (not committed): its accumulators in flight."""
        zero = [self.b.f32(0.0)] * (self.mm.n // 2)
        return self._steps(batch, self._mtile(i), 0, zero)

    def _softmax(
        self, rows: OnlineRows, ib: int, i: int, batch: list[Int], s: list[SSAValue]
    ) -> tuple[dict[tuple[int, int], SSAValue], list[SSAValue], list[SSAValue]]:
        """e = f(S) of m64 tile `i` (`OnlineRows.epilogue`), S landed."""
        b = self.b
        m16 = b.add(b.mul(self._mtile(i), WARPS_PER_GROUP), self.wq)
        return rows.epilogue(
            ib,
            i,
            lambda j, h, c: s[4 * j + 2 * h + c],
            batch,
            b.mul(m16, 16),
            self.mm.m % matmul_plan.WGMMA_M != 0,
        )

    def _issue_pv(
        self,
        second: WgmmaEmitter,
        batch: list[Int],
        e: Callable[[tuple[int, int]], SSAValue],
        ptrs: list[SSAValue],
    ) -> None:
        """O += e V issued over the k16 steps of e's columns, A from e's registers (e(key):
        the packed pair of (n8 tile, half)), the accumulators read from and left in flight
        in `ptrs` (O's slots of the row tile)."""
        b = self.b
        m2 = second.mm
        for c2 in range(second.nt * 8 // second.width):
            part = ptrs[c2 * second.width // 2 : (c2 + 1) * second.width // 2]
            acc = [b.load(f32, q, 4) for q in part]
            n0 = second._n0(c2)  # pyright: ignore[reportPrivateUsage]
            for step in range(self.mm.n // 16):
                a = [e((2 * step, 0)), e((2 * step, 1)), e((2 * step + 1, 0)), e((2 * step + 1, 1))]
                b.emit(nvvm.WgmmaFenceOp())  # e's registers were just written
                desc_b = second._b_operand(batch, n0, step * 16)  # pyright: ignore[reportPrivateUsage]
                op = nvvm.WgmmaMmaAsyncOp(acc, a, desc_b, second.width, m2.ab_type, trans_b=True)
                res = b._r(op)  # pyright: ignore[reportPrivateUsage]
                acc = [b.extract(res, x, f32) for x in range(second.width // 2)]
            for q, x in zip(part, acc, strict=True):
                b.store(x, q, 4)

    def _land(
        self, ptrs: list[SSAValue], commit: bool = True, keep: Sequence[SSAValue] = ()
    ) -> None:
        """The accumulators in flight in `ptrs`, waited for with every other group;
        `keep`: registers that in-flight instructions read, passed through the wait so
        that nothing is written into them before it."""
        b = self.b
        if commit:
            b.emit(nvvm.WgmmaCommitGroupOp())
        done = self._pending([*(b.load(f32, q, 4) for q in ptrs), *keep], 0)
        for q, x in zip(ptrs, done, strict=False):
            b.store(x, q, 4)

    def rowmax_out(self, running: int) -> None:
        """After the loop: an online chain's running maxima to the accum_max tile (every
        lane of a quad holds its row's)."""
        self._rows_out(self.k.rowmax_slots[self.mm.op], running, quad_sum=False)

    def rowsum_out(self) -> None:
        """After the loop: each quad of lanes adds its row sums of the chain's e and writes
        them (every lane shuffles; the writes are guarded)."""
        self._rows_out(self.k.rowsum_slots[self.mm.op], self.mm.rowsum, quad_sum=True)

    def _rows_out(self, slots: SSAValue, target: int, quad_sum: bool) -> None:
        b = self.b

        def place(ib: int, i: int) -> tuple[list[Int], Int]:
            m16 = b.add(b.mul(self._mtile(i), WARPS_PER_GROUP), self.wq)
            return self._batch(ib), b.mul(m16, 16)

        rows = OnlineRows(self.k, self.mm, self.mt, 0)
        padded = self.mm.m % matmul_plan.WGMMA_M != 0
        rows.rows_out(slots, target, quad_sum, self.bt, place, self._guard(), padded)

    def materialize(self) -> None:
        """After the loop: the register accumulator to its tile."""
        b = self.b
        mm = self.mm
        slots = self.k.acc_slots[mm.op]
        chunks = self.nt * 8 // self.width
        with b.if_(self._guard()):
            for ib in range(self.bt):
                batch = self._batch(ib)
                for i in range(self.mt):
                    for c in range(chunks):
                        first = self._slot(ib, i, c * self.width // 8)

                        def value(e: int, first: int = first) -> SSAValue:
                            return b.load(f32, b.slot(slots, first + e, f32), 4)

                        self._write(
                            batch,
                            self._mtile(i),
                            self._n0(c),
                            value,
                            lambda coords, xs: self.k.store_run(mm.target, coords, xs),
                        )


__all__ = ["WgmmaEmitter", "descriptor_words"]
