"""The `mma-sync` matmul strategy: warps split (batch, m16 tiles, n8 tiles, k16 steps) as
the plan says; each loads A fragments with ldmatrix, B fragments with ldmatrix.trans, and
issues mma.sync.m16n8k16 into f32 accumulators (register slots, 4 per m16n8 tile). Also the
chain of two matmuls whose first result (through its epilogue) is the second's A operand
straight from registers, and the row sums of that operand."""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects.builtin import f32, i32
from xdsl.ir import SSAValue

from mirage.dialects import nvvm
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.matmul_plan import mma_sync_k_chains
from mirage.lowering.optimize.plan import MatmulPlan
from mirage.lowering.to_llvm.emitter import MatmulKernel
from mirage.lowering.to_llvm.llvm_builder import Int, broadcast_coords, row_major_coords
from mirage.lowering.to_llvm.online_rows import OnlineRows


def a_fragment(
    k: MatmulKernel,
    a: int,
    tile: Tile,
    batch: list[Int],
    mtile: Int,
    k0: Int,
    clamp: bool,
) -> list[SSAValue]:
    """The A fragment of m16 tile `mtile` (rows 16 mtile ...), k from `k0`, of tile `a`: 4
    registers of packed pairs by one ldmatrix.x4 (lanes 0-15 give rows at k0, 16-31 at
    k0 + 8). `clamp`: rows past the matrix read its last row (their products are never
    written)."""
    b = k.b
    lane = k.lane
    m = tile.shape[-2]
    row = b.add(b.mul(mtile, 16), b.and_(lane, 15))
    if clamp:
        row = b.umin(row, m - 1)
    col = b.add(k0, b.mul(b.lshr(lane, 4), 8))
    coords = [*broadcast_coords(batch, tile.shape[:-2]), row, col]
    off = b.add(k.tile_base(a), k.element_offset(tile, coords))
    res = b._r(nvvm.LdMatrixOp(k.smem_ptr(off), 4))  # pyright: ignore[reportPrivateUsage]
    return [b.extract(res, i, i32) for i in range(4)]


class MmaEmitter:
    """A matmul on tensor cores: warps split (batch, m, n, k) as the plan says; each warp
    loads A fragments with ldmatrix, B fragments with ldmatrix.trans, and issues
    mma.sync.m16n8k16 into f32 accumulators."""

    def __init__(self, k: MatmulKernel, mm: MatmulPlan):
        self.k = k
        self.b = k.b
        self.mm = mm
        g = k.graph
        plan = k.plan
        a_tile = plan.tiles.get(mm.a)  # none when A comes from registers (a chain)
        self.a_tile = a_tile if a_tile is not None else Tile((1, 1), "f16", 1)
        self.b_tile = plan.tiles[mm.b]
        a_shape = a_tile.shape if a_tile is not None else g.type_of(mm.a).shape
        self.a_batch = a_shape[:-2]
        self.b_batch = self.b_tile.shape[:-2]
        pb, pm, pn, pk = mm.parts
        b = self.b
        w: Int = k.warp
        self.wk = b.urem(w, pk)
        w = b.udiv(w, pk)
        self.wn = b.urem(w, pn)
        w = b.udiv(w, pn)
        self.wm = b.urem(w, pm)
        self.wb = b.udiv(w, pm)
        self.used = pb * pm * pn * pk
        self.bt, self.mt, self.nt, self.kt = mm.tiles
        self.m16 = math.ceil(mm.m / 16)
        self.n8 = math.ceil(mm.n / 8)
        del g

    def _batchrow_major_coords(self, ib: Int) -> list[Int]:
        b = self.b
        flat = b.add(b.mul(self.wb, self.bt), ib)
        return row_major_coords(b, flat, self.mm.batch) if self.mm.batch else []

    def _a_fragment(self, batch: list[Int], mtile: Int, k0: Int) -> list[SSAValue]:
        return a_fragment(self.k, self.mm.a, self.a_tile, batch, mtile, k0, self.mm.m % 16 != 0)

    def _b_fragments(self, batch: list[Int], ntile: Int, k0: Int, pair: bool) -> list[SSAValue]:
        """B fragments (b0, b1) of n tile `ntile`, and of `ntile + 1` when `pair`."""
        b = self.b
        lane = self.k.lane
        # lanes 8 j .. 8 j + 7 address the rows of matrix j: (b0, b1) of n tile `ntile`,
        # then of `ntile + 1`; b0 holds k0 .. k0 + 7, b1 k0 + 8 .. k0 + 15
        half = b.mul(b.and_(b.lshr(lane, 3), 1), 8)
        col = b.mul(ntile, 8)
        if pair:
            col = b.add(col, b.mul(b.lshr(lane, 4), 8))
        if self.b_tile.transposed:
            # rows of n in shared memory, k contiguous: what mma's B fragment holds as is
            krow = b.add(k0, half)
            col = b.add(col, b.and_(lane, 7))
        else:
            krow = b.add(k0, b.add(b.and_(lane, 7), half))
        coords = [*broadcast_coords(batch, self.b_batch), krow, col]
        off = b.add(self.k.tile_base(self.mm.b), self.k.element_offset(self.b_tile, coords))
        num = 4 if pair else 2
        trans = not self.b_tile.transposed
        res = b._r(nvvm.LdMatrixOp(self.k.smem_ptr(off), num, trans=trans))  # pyright: ignore[reportPrivateUsage]
        return [b.extract(res, i, i32) for i in range(num)]

    def _k_steps(
        self, batch: list[Int], mtiles: list[Int], ntiles: list[Int], slots: SSAValue, first: int
    ) -> None:
        """acc[first + ...] += A B over this warp's k steps, for the given tiles: step s
        into accumulator set s mod `chains` (the first set is `slots`), so that that many
        mma.sync per tile are in flight; the sets are summed after the last step."""
        b = self.b
        count = len(mtiles) * len(ntiles) * 4
        chains = mma_sync_k_chains(len(mtiles) * len(ntiles), self.kt)
        extra = b.alloca(f32, (chains - 1) * count) if chains > 1 else None
        if extra is not None:
            zero = b.f32(0.0)
            for e in range((chains - 1) * count):
                b.store(zero, b.slot(extra, e, f32), 4)
        with b.loop(self.kt // chains) as outer:
            for c_i in range(chains):
                s = b.add(b.mul(outer, chains), c_i) if chains > 1 else outer
                into, at = (slots, first) if c_i == 0 else (extra, (c_i - 1) * count)
                assert into is not None
                self._k_step(batch, mtiles, ntiles, s, into, at)
        if extra is not None:
            for e in range(count):
                ptr = b.slot(slots, first + e, f32)
                total = b.load(f32, ptr, 4)
                for c_i in range(1, chains):
                    total = b.fadd(total, b.load(f32, b.slot(extra, (c_i - 1) * count + e, f32), 4))
                b.store(total, ptr, 4)

    def _k_step(
        self,
        batch: list[Int],
        mtiles: list[Int],
        ntiles: list[Int],
        s: Int,
        slots: SSAValue,
        first: int,
    ) -> None:
        b = self.b
        k0 = b.mul(b.add(b.mul(self.wk, self.kt), s), 16)
        a = [self._a_fragment(batch, m, k0) for m in mtiles]
        bf: list[list[SSAValue]] = []
        j = 0
        while j < len(ntiles):
            pair = j + 1 < len(ntiles)
            regs = self._b_fragments(batch, ntiles[j], k0, pair)
            bf.append(regs[0:2])
            if pair:
                bf.append(regs[2:4])
            j += 2
        for i in range(len(mtiles)):
            for jj in range(len(ntiles)):
                base = first + (i * len(ntiles) + jj) * 4
                ptrs = [b.slot(slots, base + e, f32) for e in range(4)]
                c = [b.load(f32, p, 4) for p in ptrs]
                res = b._r(nvvm.MmaSyncOp(a[i], bf[jj], c, self.mm.ab_type))  # pyright: ignore[reportPrivateUsage]
                for e in range(4):
                    b.store(b.extract(res, e, f32), ptrs[e], 4)

    def _tile_lists(self, i0: int, mc: int, j0: int, nc: int) -> tuple[list[Int], list[Int]]:
        b = self.b
        mtiles = [b.add(b.mul(self.wm, self.mt), i0 + i) for i in range(mc)]
        ntiles = [b.add(b.mul(self.wn, self.nt), j0 + j) for j in range(nc)]
        return mtiles, ntiles

    def _write(
        self,
        batch: list[Int],
        mtiles: list[Int],
        ntiles: list[Int],
        slots: SSAValue,
        first: int,
        write: Callable[[list[Int], list[SSAValue]], None],
    ) -> None:
        """write(coords, values) for each run of adjacent elements of this thread's
        accumulator tiles (the pair of columns an m16n8 fragment row holds), rows and
        columns past m and n dropped."""
        b = self.b
        lane = self.k.lane
        mm = self.mm
        for i, mtile in enumerate(mtiles):
            for j, ntile in enumerate(ntiles):
                base = first + (i * len(ntiles) + j) * 4
                for h in range(2):
                    row = b.add(b.add(b.mul(mtile, 16), b.lshr(lane, 2)), 8 * h)
                    col = b.add(b.mul(ntile, 8), b.mul(b.and_(lane, 3), 2))
                    pair = [b.load(f32, b.slot(slots, base + 2 * h + e, f32), 4) for e in (0, 1)]
                    row_ok = b.icmp("ult", row, mm.m) if mm.m % 16 else True
                    if mm.n % 8 == 0:  # both columns of the pair or neither
                        with b.if_(row_ok):
                            write([*batch, row, col], pair)
                        continue
                    for e in range(2):
                        c = b.add(col, e)
                        with b.if_(b.and1(row_ok, b.icmp("ult", c, mm.n))):
                            write([*batch, row, c], pair[e : e + 1])

    def emit(self) -> None:
        b = self.b
        mm = self.mm
        with b.if_(
            b.icmp("ult", self.k.warp, self.used) if self.used < self.k.plan.warps else True
        ):
            if mm.mode == "regs":
                slots = self.k.acc_slots[mm.op]
                for ib in range(self.bt):
                    batch = self._batchrow_major_coords(ib)
                    mtiles, ntiles = self._tile_lists(0, self.mt, 0, self.nt)
                    self._k_steps(batch, mtiles, ntiles, slots, ib * self.mt * self.nt * 4)
                return
            # register blocks of at most MAX_CHUNK registers
            nc = min(self.nt, 8)
            mc = max(1, min(self.mt, 32 // (4 * nc)))
            slots = b.alloca(f32, mc * nc * 4)
            with b.loop(self.bt) as ib:
                batch = self._batchrow_major_coords(ib)
                for i0 in range(0, self.mt, mc):
                    for j0 in range(0, self.nt, nc):
                        mcount, ncount = min(mc, self.mt - i0), min(nc, self.nt - j0)
                        mtiles, ntiles = self._tile_lists(i0, mcount, j0, ncount)
                        zero = b.f32(0.0)
                        for e in range(mcount * ncount * 4):
                            b.store(zero, b.slot(slots, e, f32), 4)
                        self._k_steps(batch, mtiles, ntiles, slots, 0)
                        self._write(
                            batch,
                            mtiles,
                            ntiles,
                            slots,
                            0,
                            lambda c, xs: self.k.write_results(mm, c, xs, self.wk),
                        )

    def chain(self) -> None:
        """S = A B on tensor cores, its epilogue e = f(S) in registers, then O += e V with
        e's fragments as the A operand (the C and A layouts of m16n8k16 coincide), and the
        row sums of e accumulated in registers. In an online chain (`rowmax`), e = f(S, m)
        with m the row maxima of S, and O, the row sums and the running maxima M are
        rescaled as accum_rescale does (`online_rows`)."""
        b = self.b
        k = self.k
        m1 = self.mm
        m2 = k.plan.matmuls[m1.chain_next]
        second = MmaEmitter(k, m2)
        n8 = m1.n // 8
        n8_2 = math.ceil(m2.n / 8)
        rows = OnlineRows(k, m1, self.mt, n8_2)
        online, direct = rows.online, rows.direct
        acc2 = k.acc_slots[m2.op]
        guard = b.icmp("ult", k.warp, self.used) if self.used < k.plan.warps else True
        with b.if_(guard):
            for ib in range(self.bt):
                batch = self._batchrow_major_coords(ib)
                mtiles, ntiles = self._tile_lists(0, self.mt, 0, n8)
                s_slots = b.alloca(f32, self.mt * n8 * 4)
                zero = b.f32(0.0)
                for e in range(self.mt * n8 * 4):
                    b.store(zero, b.slot(s_slots, e, f32), 4)
                self._k_steps(batch, mtiles, ntiles, s_slots, 0)

                def s_at(i: int, j: int, h: int, c: int, slots: SSAValue = s_slots) -> SSAValue:
                    return b.load(f32, b.slot(slots, (i * n8 + j) * 4 + 2 * h + c, f32), 4)

                packed: list[dict[tuple[int, int], SSAValue]] = []
                partials: list[list[SSAValue]] = []
                maxima: list[list[SSAValue]] = []
                for i, mtile in enumerate(mtiles):
                    done = rows.epilogue(
                        ib,
                        i,
                        lambda j, h, c, i=i: s_at(i, j, h, c),
                        batch,
                        b.mul(mtile, 16),
                        m1.m % 16 != 0,
                    )
                    packed.append(done[0])
                    partials.append(done[1])
                    maxima.append(done[2])
                # O += e V (online: this step's e V apart, rescaled into O below), k walking
                # e's columns 16 at a time
                first = ib * self.mt * n8_2 * 4
                into, into_first = acc2, first
                if direct:
                    for i in range(self.mt):
                        rows.rescale(ib, i, partials[i])
                elif online:
                    into, into_first = b.alloca(f32, self.mt * n8_2 * 4), 0
                    for e in range(self.mt * n8_2 * 4):
                        b.store(zero, b.slot(into, e, f32), 4)
                for step in range(m1.n // 16):
                    bf: list[list[SSAValue]] = []
                    jj = 0
                    while jj < n8_2:
                        pair = jj + 1 < n8_2
                        regs = second._b_fragments(batch, jj, step * 16, pair)
                        bf.append(regs[0:2])
                        if pair:
                            bf.append(regs[2:4])
                        jj += 2
                    for i in range(self.mt):
                        a = [
                            packed[i][(2 * step, 0)],
                            packed[i][(2 * step, 1)],
                            packed[i][(2 * step + 1, 0)],
                            packed[i][(2 * step + 1, 1)],
                        ]
                        for jj in range(n8_2):
                            base = into_first + (i * n8_2 + jj) * 4
                            ptrs = [b.slot(into, base + e, f32) for e in range(4)]
                            c_in = [b.load(f32, q, 4) for q in ptrs]
                            res = b._r(nvvm.MmaSyncOp(a, bf[jj], c_in, m2.ab_type))  # pyright: ignore[reportPrivateUsage]
                            for e in range(4):
                                b.store(b.extract(res, e, f32), ptrs[e], 4)
                if online and not direct:
                    for i, step_max in enumerate(maxima):
                        weights = rows.step_weights(ib, i, step_max)
                        rows.rescale(ib, i, partials[i], (into, i * n8_2 * 4, weights))

    def rowmax_out(self, running: int) -> None:
        """After the loop: an online chain's running maxima to the accum_max tile (every
        lane of a quad holds its row's)."""
        self._rows_out(self.k.rowmax_slots[self.mm.op], running, quad_sum=False)

    def rowsum_out(self) -> None:
        """After the loop: each quad of lanes adds its row sums and writes them."""
        self._rows_out(self.k.rowsum_slots[self.mm.op], self.mm.rowsum, quad_sum=True)

    def _rows_out(self, slots: SSAValue, target: int, quad_sum: bool) -> None:
        k = self.k
        b = self.b
        mm = self.mm
        guard = b.icmp("ult", k.warp, self.used) if self.used < k.plan.warps else True
        mtiles, _ = self._tile_lists(0, self.mt, 0, 0)

        def place(ib: int, i: int) -> tuple[list[Int], Int]:
            return self._batchrow_major_coords(ib), b.mul(mtiles[i], 16)

        rows = OnlineRows(k, mm, self.mt, 0)
        rows.rows_out(slots, target, quad_sum, self.bt, place, guard, mm.m % 16 != 0)

    def materialize(self) -> None:
        """After the loop: register accumulators to their tile (plane = k split)."""
        b = self.b
        mm = self.mm
        slots = self.k.acc_slots[mm.op]
        with b.if_(
            b.icmp("ult", self.k.warp, self.used) if self.used < self.k.plan.warps else True
        ):
            for ib in range(self.bt):
                batch = self._batchrow_major_coords(ib)
                mtiles, ntiles = self._tile_lists(0, self.mt, 0, self.nt)
                self._write(
                    batch,
                    mtiles,
                    ntiles,
                    slots,
                    ib * self.mt * self.nt * 4,
                    lambda c, xs: self.k.store_run(mm.target, c, xs, self.wk),
                )


__all__ = ["MmaEmitter", "a_fragment"]
