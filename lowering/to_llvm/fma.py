"""The `fma` matmul strategy: one output element per thread and step, an FMA loop over k on
the CUDA cores (any element types, any shapes)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import f32

from mirage.lowering.optimize.plan import MatmulPlan
from mirage.lowering.to_llvm.emitter import MatmulKernel
from mirage.lowering.to_llvm.llvm_builder import Int, broadcast_coords, row_major_coords


def emit(k: MatmulKernel, mm: MatmulPlan) -> None:
    """The matmul's result, element by element, through `k.write_result`."""
    b = k.b
    g = k.graph
    a_shape = g.type_of(mm.a if mm.a < g.num_values else k.plan.converts[mm.a]).shape
    b_shape = g.type_of(mm.b if mm.b < g.num_values else k.plan.converts[mm.b]).shape
    out_shape = (*mm.batch, mm.m, mm.n)

    def body(index: Int) -> None:
        c = row_major_coords(b, index, out_shape)
        batch = c[:-2]
        acc = b.alloca(f32)
        b.store(b.f32(0.0), acc, 4)
        with b.loop(mm.k) as kk:
            rd = k.reader()
            av = rd.read(mm.a, [*broadcast_coords(batch, a_shape[:-2]), c[-2], kk])
            bv = rd.read(mm.b, [*broadcast_coords(batch, b_shape[:-2]), kk, c[-1]])
            b.store(b.fma(av, bv, b.load(f32, acc, 4)), acc, 4)
        k.write_result(mm, c, b.load(f32, acc, 4), 0)

    k.for_each(math.prod(out_shape), body)


__all__ = ["emit"]
