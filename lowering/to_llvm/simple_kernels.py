"""Kernels for the kernel ops that have no block-level form: `kernel.constant` (a fill),
`kernel.transpose` (a permuting copy) and `kernel.slice` (a copy of a window).
`kernel.reshape` needs no kernel: its result is its operand's buffer under another shape."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, UnitAttr, i32
from xdsl.ir import Block, Region, SSAValue

from mirage.dialects.ugraph.graph import DTYPE_BYTES, TensorType
from mirage.lowering.to_llvm.llvm_builder import GLOBAL_PTR, Builder, Int
from mirage.lowering.to_llvm.memory_access import storage_type

THREADS = 256
ELEMENTS_PER_THREAD = 4


def _kernel(name: str, params: int) -> tuple[llvm.FuncOp, Builder, list[SSAValue]]:
    types = [GLOBAL_PTR] * params
    func = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType(types),
        linkage=llvm.LinkageAttr("external"),
        body=Region(Block(arg_types=types)),
    )
    func.attributes["nvvm.kernel"] = UnitAttr()
    func.attributes["nvvm.maxntid"] = DenseArrayBase.from_list(i32, [THREADS, 1, 1])
    entry = func.body.block
    return func, Builder(entry), list(entry.args)


def _index(b: Builder) -> Int:
    return b.add(b.sreg("tid.x"), b.mul(b.sreg("ctaid.x"), THREADS))


def grid_for(numel: int) -> tuple[int, int, int]:
    return (math.ceil(numel / (THREADS * ELEMENTS_PER_THREAD)), 1, 1)


def fill_kernel(name: str, out: TensorType, value: float) -> llvm.FuncOp:
    func, b, args = _kernel(name, 1)
    n = out.numel
    esize = DTYPE_BYTES[out.dtype]
    first = _index(b)
    x = b.from_f32(b.f32(value), out.dtype)
    for k in range(ELEMENTS_PER_THREAD):
        i = b.add(first, k * THREADS * grid_for(n)[0])
        with b.if_(b.icmp("ult", i, n)):
            b.store(x, b.gep(args[0], b.mul(i, esize)), esize)
    b.ret()
    return func


def transpose_kernel(
    name: str, src: TensorType, out: TensorType, permutation: Sequence[int]
) -> llvm.FuncOp:
    """out[i_0, ..., i_r] = src[j] with j[permutation[d]] = i_d; writes are coalesced."""
    return _gather_kernel(name, src, out, permutation, (0,) * len(src.shape))


def slice_kernel(
    name: str, src: TensorType, out: TensorType, offsets: Sequence[int]
) -> llvm.FuncOp:
    """out[i] = src[offsets + i], a window of unit strides; writes are coalesced."""
    return _gather_kernel(name, src, out, tuple(range(len(src.shape))), offsets)


def _gather_kernel(
    name: str,
    src: TensorType,
    out: TensorType,
    permutation: Sequence[int],
    offsets: Sequence[int],
) -> llvm.FuncOp:
    """out[i] = src[j] with j[permutation[d]] = offsets[permutation[d]] + i_d."""
    func, b, args = _kernel(name, 2)
    n = out.numel
    esize = DTYPE_BYTES[out.dtype]
    src_strides = [math.prod(src.shape[d + 1 :]) for d in range(len(src.shape))]
    base = sum(o * s for o, s in zip(offsets, src_strides, strict=True))
    first = _index(b)
    ty = storage_type(src.dtype)
    src_esize = DTYPE_BYTES[src.dtype]
    for k in range(ELEMENTS_PER_THREAD):
        i = b.add(first, k * THREADS * grid_for(n)[0])
        with b.if_(b.icmp("ult", i, n)):
            rest: Int = i
            offset: Int = base
            for d in range(len(out.shape) - 1, -1, -1):
                c = b.urem(rest, out.shape[d]) if d else rest
                rest = b.udiv(rest, out.shape[d]) if d else 0
                offset = b.add(offset, b.mul(c, src_strides[permutation[d]]))
            raw = b.load(ty, b.gep(args[0], b.mul(offset, src_esize)), src_esize)
            x = b.from_f32(b.to_f32(raw, src.dtype), out.dtype)
            b.store(x, b.gep(args[1], b.mul(i, esize)), esize)
    b.ret()
    return func
