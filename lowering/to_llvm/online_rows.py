"""The online-softmax state of a matmul chain kept in registers (FlashAttention's loop),
for both tensor-core strategies. mma.sync and wgmma leave S alike, per warp: m16n8
accumulator tiles, thread t holding rows t/4 and t/4 + 8 of each 16 and columns
2 (t % 4) + {0, 1} + 8 j, so a row's maximum is its quad's. The second product's
accumulator, the row sums and the running maxima have one slot layout in both: O at
((batch, row tile) n8 tiles + n8 tile) 4 + 2 half + column, the rows at
(batch, row tile) 2 + half, where a row tile is an m16 tile of the warp (mma.sync) or an
m64 tile of the warpgroup (wgmma)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import f32
from xdsl.ir import SSAValue

from mirage.dialects import nvvm
from mirage.lowering.optimize.plan import MatmulPlan, online_direct
from mirage.lowering.to_llvm.emitter import MatmulKernel
from mirage.lowering.to_llvm.llvm_builder import LOG2E, Int


class OnlineRows:
    """The rows of chain head `mm` (S = A B), `mt` row tiles a warp per batch; O (the chained
    matmul's accumulator) has `n8_out` n8 tiles a row tile."""

    def __init__(self, k: MatmulKernel, mm: MatmulPlan, mt: int, n8_out: int):
        self.k = k
        self.b = k.b
        self.mm = mm
        self.mt = mt
        self.n8_out = n8_out
        self.keep: dict[tuple[int, int, int], SSAValue] = {}
        """exp(M - M') of each (batch, row tile, half) of the current step."""
        self.online = mm.rowmax >= 0
        self.direct = online_direct(k.graph, mm)

    def epilogue(
        self,
        ib: int,
        i: int,
        value: Callable[[int, int, int], SSAValue],
        batch: list[Int],
        first_row: Int,
        padded: bool,
    ) -> tuple[dict[tuple[int, int], SSAValue], list[SSAValue], list[SSAValue]]:
        """e = f(S) (online: f(S, m), m the row maxima; the direct form against the running
        maxima, O and l rescaled by `rescale` after) for row tile `i` of batch `ib`:
        value(j, h, c) is this thread's element of S, first_row the first of its warp's 16
        rows. Returns e packed in pairs, as the A fragments of e V want them, by (n8 tile,
        half); e's partial row sums of this thread (rows past m left out where `padded`);
        the maxima e was taken against. Without a running maximum the sums are added to
        the row sums here."""
        b = self.b
        k = self.k
        mm = self.mm
        lane = k.lane
        n8 = mm.n // 8
        maxima: list[SSAValue] = []
        if self.online:
            maxima = [self.row_max(lambda j, c, h=h: value(j, h, c), n8) for h in (0, 1)]
        shifted = None
        if self.direct:
            maxima = self.advance(ib, i, maxima)
            shifted = self.shifted_exp(maxima)
        e_value = mm.target
        e_index = k.producer[e_value][0]
        e_result = k.results_of(e_index).index(e_value)
        dtype = k.graph.type_of(e_value).dtype
        pack = nvvm.CvtF32x2ToBf16x2Op if dtype == "bf16" else nvvm.CvtF32x2ToF16x2Op
        packed: dict[tuple[int, int], SSAValue] = {}
        partial = [b.f32(0.0), b.f32(0.0)]
        for j in range(n8):
            for h in range(2):
                row = b.add(b.add(first_row, b.lshr(lane, 2)), 8 * h)
                pair: list[SSAValue] = []
                for c in range(2):
                    if shifted is not None:
                        x = shifted(value(j, h, c), h)
                    else:
                        col = b.add(j * 8, b.add(b.mul(b.and_(lane, 3), 2), c))
                        known = {mm.result: value(j, h, c)}
                        if self.online:
                            known[mm.rowmax] = maxima[h]
                        x = k.reader(known).apply(e_index, [*batch, row, col])[e_result]
                    pair.append(x)
                    if padded:  # rows past m repeat the last one: not summed
                        x = b.select(b.icmp("ult", row, mm.m), x, b.f32(0.0))  # type: ignore[arg-type]
                    partial[h] = b.fadd(partial[h], x)
                packed[(j, h)] = b._r(pack(pair[0], pair[1]))  # pyright: ignore[reportPrivateUsage]
        sums = k.rowsum_slots.get(mm.op)
        if sums is not None and not self.online:
            for h in range(2):
                slot = b.slot(sums, self.row(ib, i, h), f32)
                b.store(b.fadd(b.load(f32, slot, 4), partial[h]), slot, 4)
        return packed, partial, maxima

    def row(self, ib: int, i: int, h: int) -> int:
        """The slot of (batch `ib`, row tile `i`, half `h`) in the row sums and maxima."""
        return (ib * self.mt + i) * 2 + h

    def out_slot(self, ib: int, i: int, j: int, h: int, c: int) -> int:
        """The slot of O's element (n8 tile `j`, half `h`, column `c`) of row tile `i`."""
        return ((ib * self.mt + i) * self.n8_out + j) * 4 + 2 * h + c

    def row_max(self, value: Callable[[int, int], SSAValue], n8: int) -> SSAValue:
        """The maximum of one row of S (value(j, c): this thread's element c of n8 tile j;
        the row's other elements are in the other lanes of the quad)."""
        b = self.b
        best = value(0, 0)
        for j in range(n8):
            for c in range(2):
                if j or c:
                    best = b.fmax(best, value(j, c))
        best = b.fmax(best, b.shfl_bfly(best, 1))
        return b.fmax(best, b.shfl_bfly(best, 2))

    def advance(self, ib: int, i: int, step_max: list[SSAValue]) -> list[SSAValue]:
        """M' = max(M, m) for both halves of row tile `i`; keeps exp(M - M') for `rescale`."""
        b = self.b
        running = self.k.rowmax_slots[self.mm.op]
        out: list[SSAValue] = []
        for h in range(2):
            m_slot = b.slot(running, self.row(ib, i, h), f32)
            m_old = b.load(f32, m_slot, 4)
            m_new = b.fmax(m_old, step_max[h])
            self.keep[(ib, i, h)] = b.exp_weight(b.fsub(m_old, m_new))
            b.store(m_new, m_slot, 4)
            out.append(m_new)
        return out

    def shifted_exp(self, maxima: list[SSAValue]) -> Callable[[SSAValue, int], SSAValue]:
        """exp(x - M) for the direct form's e, x of row half h: one fma and ex2 each
        (x log2 e - M log2 e), M log2 e taken once a row; flushed below 1e-38 as
        `Builder.exp_weight` is (M is the row's maximum: its e of 1 is in the same sum)."""
        b = self.b
        neg = [b.fmul(m, b.f32(-LOG2E)) for m in maxima]
        return lambda x, h: b.ex2(b.fma(x, b.f32(LOG2E), neg[h]), ftz=True)

    def rescale(
        self,
        ib: int,
        i: int,
        partial: list[SSAValue],
        step: tuple[SSAValue, int, list[SSAValue]] | None = None,
    ) -> None:
        """O <- O exp(M - M') and l <- l exp(M - M') + sum(e) for row tile `i`, before e V
        adds to O (the direct form). With `step` (slots holding this step's e V of the row
        tile from a first slot, in O's order, and exp(m - M') per half), the step's e V and
        sum of e are added weighted instead, as accum_rescale does."""
        b = self.b
        k = self.k
        acc = k.acc_slots[k.plan.matmuls[self.mm.chain_next].op]
        sums = k.rowsum_slots.get(self.mm.op)
        for h in range(2):
            keep = self.keep[(ib, i, h)]
            w = step[2][h] if step is not None else None
            if sums is not None:
                slot = b.slot(sums, self.row(ib, i, h), f32)
                add = partial[h] if w is None else b.fmul(partial[h], w)
                b.store(b.fma(b.load(f32, slot, 4), keep, add), slot, 4)
            for j in range(self.n8_out):
                for c in range(2):
                    o_slot = b.slot(acc, self.out_slot(ib, i, j, h, c), f32)
                    o = b.fmul(b.load(f32, o_slot, 4), keep)
                    if step is not None and w is not None:  # both or neither
                        x = b.load(f32, b.slot(step[0], step[1] + j * 4 + 2 * h + c, f32), 4)
                        o = b.fma(x, w, o)
                    b.store(o, o_slot, 4)

    def step_weights(self, ib: int, i: int, step_max: list[SSAValue]) -> list[SSAValue]:
        """After a step's e V went apart (e against the step's own maxima m): M' = max(M, m)
        and the step's weights exp(m - M') for both halves of row tile `i`."""
        m_new = self.advance(ib, i, step_max)
        return [self.b.exp_weight(self.b.fsub(step_max[h], m_new[h])) for h in (0, 1)]

    def rows_out(
        self,
        slots: SSAValue,
        target: int,
        quad_sum: bool,
        bt: int,
        place: Callable[[int, int], tuple[list[Int], Int]],
        guard: SSAValue | bool,
        padded: bool,
    ) -> None:
        """After the loop: one register per (batch, row tile, half) of each lane to
        `target`'s tile (rows of one column), by the first lane of each quad; `quad_sum`:
        added over the quad first. place(ib, i): the batch coordinates and the first row of
        this warp's 16 in row tile i; where `padded` (m not a multiple of the row tile),
        rows past m are dropped."""
        b = self.b
        k = self.k
        lane = k.lane
        # shuffles need every lane of the warp: the guard comes after them
        for ib in range(bt):
            for i in range(self.mt):
                batch, first_row = place(ib, i)
                for h in range(2):
                    x = b.load(f32, b.slot(slots, self.row(ib, i, h), f32), 4)
                    if quad_sum:
                        x = b.fadd(x, b.shfl_bfly(x, 1))
                        x = b.fadd(x, b.shfl_bfly(x, 2))
                    row = b.add(b.add(first_row, b.lshr(lane, 2)), 8 * h)
                    ok = b.and1(guard, b.icmp("eq", b.and_(lane, 3), 0))
                    if padded:
                        ok = b.and1(ok, b.icmp("ult", row, self.mm.m))
                    with b.if_(ok):
                        k.store_tile(target, [*batch, row, 0], x)


__all__ = ["OnlineRows"]
