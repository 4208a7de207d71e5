"""An instruction builder over xDSL's `llvm` dialect (and our `nvvm` ops), for generated
kernels: integer arithmetic folds Python ints, loops and branches are plain blocks, and
register state lives in entry-block allocas that LLVM's SROA turns back into registers."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mirage.dialects import nvvm
from mirage.dialects.types import integer_or_none

Int = SSAValue | int
"""An integer: an SSA value, or a Python int folded at build time."""

GLOBAL_PTR = nvvm.ptr(nvvm.GLOBAL)
SHARED_PTR = nvvm.ptr(nvvm.SHARED)
FULL_MASK = -1
LOG2E = 1.4426950408889634


_NO_WRAP = llvm.OverflowAttr([llvm.OverflowFlag.NO_SIGNED_WRAP, llvm.OverflowFlag.NO_UNSIGNED_WRAP])


class Builder:
    """Appends ops at the end of `self.block`; `entry` receives the allocas."""

    def __init__(self, entry: Block):
        self.entry = entry
        self.block = entry
        self._alloca_anchor: Operation | None = None
        self._consts: dict[tuple[int, int], SSAValue] = {}
        self.fence_async_proxy = False
        """Barriers first order this thread's shared-memory writes with the reads of the
        asynchronous proxy (wgmma operands read through descriptors)."""

    # --- plumbing -------------------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def _r(self, op: Operation) -> SSAValue:
        self.emit(op)
        return op.results[0]

    def new_block(self) -> Block:
        region = self.block.parent
        assert region is not None
        block = Block()
        region.add_block(block)
        return block

    # --- integers -------------------------------------------------------------------------

    def const(self, value: int, ty: IntegerType = i32) -> SSAValue:
        op = llvm.ConstantOp(IntegerAttr(value, ty), ty)
        return self._r(op)

    def v(self, x: Int, ty: IntegerType = i32) -> SSAValue:
        """`x` as an SSA value of type `ty` (a constant, or a cast of an SSA value)."""
        if isinstance(x, int):
            return self.const(x, ty)
        have = integer_or_none(x.type)
        assert have is not None, f"{x} is not an integer"
        if have.bitwidth == ty.bitwidth:
            return x
        if have.bitwidth < ty.bitwidth:
            return self._r(llvm.ZExtOp(x, ty))
        return self._r(llvm.TruncOp(x, ty))

    def _ty(self, *xs: Int) -> IntegerType:
        for x in xs:
            if isinstance(x, SSAValue):
                t = integer_or_none(x.type)
                assert t is not None, f"{x} is not an integer"
                return t
        return i32

    def _bin(self, cls: type[Operation], a: Int, b: Int) -> SSAValue:
        ty = self._ty(a, b)
        if cls in (llvm.AddOp, llvm.MulOp, llvm.ShlOp):
            # index arithmetic: non-negative and in range by construction, which lets LLVM
            # widen and strength-reduce address computations
            return self._r(cls(self.v(a, ty), self.v(b, ty), overflow=_NO_WRAP))  # type: ignore[call-arg]
        return self._r(cls(self.v(a, ty), self.v(b, ty)))  # type: ignore[call-arg]

    def add(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        return self._bin(llvm.AddOp, a, b)

    def sub(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a - b
        if b == 0:
            return a
        return self._bin(llvm.SubOp, a, b)

    def mul(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if a == 0 or b == 0:
            return 0
        if b == 1:
            return a
        if a == 1:
            return b
        return self._bin(llvm.MulOp, a, b)

    def udiv(self, a: Int, b: int) -> Int:
        if isinstance(a, int):
            return a // b
        if b == 1:
            return a
        return self._bin(llvm.UDivOp, a, b)

    def urem(self, a: Int, b: int) -> Int:
        if isinstance(a, int):
            return a % b
        if b == 1:
            return 0
        return self._bin(llvm.URemOp, a, b)

    def and_(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a & b
        return self._bin(llvm.AndOp, a, b)

    def xor(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a ^ b
        return self._bin(llvm.XOrOp, a, b)

    def shl(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a << b
        return self._bin(llvm.ShlOp, a, b)

    def lshr(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a >> b
        return self._bin(llvm.LShrOp, a, b)

    def or_(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return a | b
        return self._bin(llvm.OrOp, a, b)

    def icmp(self, pred: str, a: Int, b: Int) -> SSAValue | bool:
        if isinstance(a, int) and isinstance(b, int):
            return {
                "eq": a == b,
                "ne": a != b,
                "slt": a < b,
                "sle": a <= b,
                "sgt": a > b,
                "sge": a >= b,
                "ult": a < b,
                "ule": a <= b,
                "ugt": a > b,
                "uge": a >= b,
            }[pred]
        ty = self._ty(a, b)
        flag = list(llvm.ICmpPredicateFlag).index(llvm.ICmpPredicateFlag(pred))
        return self._r(llvm.ICmpOp(self.v(a, ty), self.v(b, ty), IntegerAttr(flag, 64)))

    def select(self, cond: SSAValue | bool, a: SSAValue, b: SSAValue) -> SSAValue:
        if isinstance(cond, bool):
            return a if cond else b
        return self._r(llvm.SelectOp(cond, a, b))

    def iselect(self, cond: SSAValue | bool, a: Int, b: Int) -> Int:
        if isinstance(cond, bool):
            return a if cond else b
        ty = self._ty(a, b)
        return self.select(cond, self.v(a, ty), self.v(b, ty))

    def umin(self, a: Int, b: Int) -> Int:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        return self.iselect(self.icmp("ult", a, b), a, b)

    def and1(self, a: SSAValue | bool, b: SSAValue | bool) -> SSAValue | bool:
        if isinstance(a, bool):
            return b if a else False
        if isinstance(b, bool):
            return a if b else False
        return self._r(llvm.AndOp(a, b))

    # --- floats ---------------------------------------------------------------------------

    def f32(self, value: float) -> SSAValue:
        return self._r(llvm.ConstantOp(FloatAttr(value, f32), f32))

    def fadd(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._r(llvm.FAddOp(a, b))

    def fsub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._r(llvm.FSubOp(a, b))

    def fmul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._r(llvm.FMulOp(a, b))

    def fdiv(self, a: SSAValue, b: SSAValue) -> SSAValue:
        # 2 ulp, as the transcendentals' approximate instructions (`scalar.py`)
        return self._r(nvvm.DivFullOp(a, b))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        return self._r(llvm.FMAOp(a, b, c))

    def fneg(self, a: SSAValue) -> SSAValue:
        return self._r(llvm.FNegOp(a))

    def intrinsic(
        self, name: str, args: Sequence[SSAValue], result: Attribute | None
    ) -> SSAValue | None:
        op = llvm.CallIntrinsicOp(name, list(args), [result] if result is not None else [])
        self.emit(op)
        return op.results[0] if op.results else None

    def fmax(self, a: SSAValue, b: SSAValue) -> SSAValue:
        r = self.intrinsic("llvm.maxnum.f32", [a, b], f32)
        assert r is not None
        return r

    def fmin(self, a: SSAValue, b: SSAValue) -> SSAValue:
        r = self.intrinsic("llvm.minnum.f32", [a, b], f32)
        assert r is not None
        return r

    def fabs(self, a: SSAValue) -> SSAValue:
        return self._r(llvm.FAbsOp(a, f32))

    def ffloor(self, a: SSAValue) -> SSAValue:
        return self._r(llvm.FFloorOp(a))

    def ex2(self, a: SSAValue, ftz: bool = False) -> SSAValue:
        return self._r(nvvm.Ex2ApproxFtzOp(a) if ftz else nvvm.Ex2ApproxOp(a))

    def lg2(self, a: SSAValue) -> SSAValue:
        return self._r(nvvm.Lg2ApproxOp(a))

    def exp(self, a: SSAValue) -> SSAValue:
        return self.ex2(self.fmul(a, self.f32(LOG2E)))

    def exp_weight(self, a: SSAValue) -> SSAValue:
        """exp(a) for a <= 0 against a running maximum (softmax's weights, accum_rescale's
        factors): results below 1e-38 flush to zero, nothing beside a weight of 1 in the
        same sum, so a single MUFU.EX2 (`Ex2ApproxFtzOp`) serves."""
        return self.ex2(self.fmul(a, self.f32(LOG2E)), ftz=True)

    def sqrt(self, a: SSAValue) -> SSAValue:
        return self._r(llvm.FSqrtOp(a))

    def rsqrt(self, a: SSAValue) -> SSAValue:
        return self._r(nvvm.RsqrtApproxOp(a))

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._r(llvm.FCmpOp(a, b, pred))

    def sitofp(self, a: Int) -> SSAValue:
        return self._r(llvm.SIToFPOp(self.v(a), f32))

    # --- conversions between storage types and f32 ----------------------------------------

    def to_f32(self, raw: SSAValue, dtype: str) -> SSAValue:
        if dtype == "f32":
            return raw
        if dtype == "f16":
            return self._r(llvm.FPExtOp(raw, f32))
        wide = self._r(llvm.ZExtOp(raw, i32))
        return self._r(llvm.BitcastOp(self.v(self.shl(wide, 16)), f32))

    def from_f32(self, x: SSAValue, dtype: str) -> SSAValue:
        if dtype == "f32":
            return x
        if dtype == "f16":
            return self._r(llvm.FPTruncOp(x, f16))
        return self._r(nvvm.CvtF32ToBf16Op(x))

    def bitcast(self, x: SSAValue, ty: Attribute) -> SSAValue:
        return self._r(llvm.BitcastOp(x, ty))

    # --- memory ---------------------------------------------------------------------------

    def gep(self, base: SSAValue, byte_offset: Int) -> SSAValue:
        if byte_offset == 0:
            return base
        off = byte_offset
        ty = base.type
        assert isinstance(ty, llvm.LLVMPointerType)
        if isinstance(off, int):
            return self._r(llvm.GEPOp(base, [off], IntegerType(8), result_type=ty, inbounds=True))
        return self._r(
            llvm.GEPOp(
                base,
                [llvm.GEP_USE_SSA_VAL],
                IntegerType(8),
                ssa_indices=[off],
                result_type=ty,
                inbounds=True,
            )
        )

    def load(self, ty: Attribute, pointer: SSAValue, align: int) -> SSAValue:
        return self._r(llvm.LoadOp(pointer, ty, alignment=align))

    def store(self, value: SSAValue, pointer: SSAValue, align: int) -> None:
        self.emit(llvm.StoreOp(value, pointer, alignment=align))

    def extract(self, aggregate: SSAValue, index: int, ty: Attribute) -> SSAValue:
        return self._r(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [index]), aggregate, ty))

    # --- register state -------------------------------------------------------------------

    def alloca(self, ty: Attribute, count: int = 1) -> SSAValue:
        """An entry-block slot array; index it with constants only so that it stays in
        registers."""
        size = llvm.ConstantOp(IntegerAttr(count, i32), i32)
        slot = llvm.AllocaOp(size.result, ty, alignment=4)
        if self._alloca_anchor is None:
            first = self.entry.first_op
            if first is None:
                self.entry.add_ops([size, slot])
            else:
                self.entry.insert_ops_before([size, slot], first)
        else:
            self.entry.insert_ops_after([size, slot], self._alloca_anchor)
        self._alloca_anchor = slot
        return slot.results[0]

    def slot(self, base: SSAValue, index: int, ty: Attribute) -> SSAValue:
        size = 4 if isinstance(ty, Float32Type | IntegerType) else 2
        if index == 0:
            return base
        return self._r(
            llvm.GEPOp(base, [index * size], IntegerType(8), result_type=base.type, inbounds=True)  # type: ignore[arg-type]
        )

    # --- control flow ---------------------------------------------------------------------

    @contextmanager
    def loop(self, count: Int, unroll_limit: int = 1) -> Generator[Int]:
        """for iv in range(count): the body is what the `with` block emits. A constant
        count up to `unroll_limit` is unrolled here; a count of 1 needs no loop."""
        if isinstance(count, int) and count <= 0:
            raise ValueError("empty loop")
        if count == 1:
            yield 0
            return
        if isinstance(count, int) and count <= unroll_limit:
            raise ValueError("use unrolled() for short constant loops")
        counter = self.alloca(i32)
        self.store(self.const(0), counter, 4)
        header, body, done = self.new_block(), self.new_block(), self.new_block()
        self.emit(llvm.BrOp(header))
        self.block = header
        iv = self.load(i32, counter, 4)
        cond = self.icmp("slt", iv, count)
        assert isinstance(cond, SSAValue)
        self.emit(llvm.CondBrOp(cond, body, [], done, []))
        self.block = body
        yield iv
        self.store(self.v(self.add(iv, 1)), counter, 4)
        self.emit(llvm.BrOp(header))
        self.block = done

    @contextmanager
    def if_(self, cond: SSAValue | bool) -> Generator[bool]:
        """Emits the `with` body under `cond`; a constant False still runs the body (so
        the caller's code stays simple) but in a block nothing branches to."""
        if cond is True:
            yield True
            return
        then, done = self.new_block(), self.new_block()
        if cond is False:
            self.emit(llvm.BrOp(done))
        else:
            self.emit(llvm.CondBrOp(cond, then, [], done, []))
        self.block = then
        yield True
        self.emit(llvm.BrOp(done))
        self.block = done

    # --- GPU ------------------------------------------------------------------------------

    def sreg(self, register: str) -> SSAValue:
        return self._r(nvvm.SPECIAL_REGISTER_OPS[register]())

    def barrier(self) -> None:
        if self.fence_async_proxy:
            self.emit(nvvm.FenceProxyAsyncSharedOp())
        self.emit(nvvm.Barrier0Op())

    def shfl_bfly(self, x: SSAValue, offset: int) -> SSAValue:
        return self._r(
            nvvm.ShflSyncOp("bfly", self.const(FULL_MASK), x, self.const(offset), self.const(31))
        )

    def shfl_idx(self, x: SSAValue, lane: Int, width: int = 32) -> SSAValue:
        # clamp = ((32 - width) << 8) | 31 selects within aligned segments of `width` lanes
        clamp = ((32 - width) << 8) | 31
        return self._r(
            nvvm.ShflSyncOp("idx", self.const(FULL_MASK), x, self.v(lane), self.const(clamp))
        )

    def ret(self) -> None:
        self.emit(llvm.ReturnOp())


def row_major_coords(b: Builder, linear: Int, shape: Sequence[int]) -> list[Int]:
    """Row-major coordinates of `linear` in `shape`."""
    out: list[Int] = [0] * len(shape)
    rest = linear
    for d in range(len(shape) - 1, -1, -1):
        n = shape[d]
        if d == 0:
            out[d] = rest
        else:
            out[d] = b.urem(rest, n)
            rest = b.udiv(rest, n)
    return out


def broadcast_coords(coords: Sequence[Int], shape: Sequence[int]) -> tuple[Int, ...]:
    """`coords` of a broadcast result, in an operand of `shape` (0 along its dims of 1)."""
    return tuple(0 if n == 1 else c for c, n in zip(coords, shape, strict=True))


def half2() -> VectorType:
    return VectorType(Float16Type(), [2])


def tree(xs: Sequence[SSAValue], combine: Callable[[SSAValue, SSAValue], SSAValue]) -> SSAValue:
    """xs combined pairwise, level by level: log2(n) dependent steps where a running total
    takes n (ptxas does not reassociate float arithmetic, nor a chain of max)."""
    level = list(xs)
    while len(level) > 1:
        level = [
            combine(level[i], level[i + 1]) if i + 1 < len(level) else level[i]
            for i in range(0, len(level), 2)
        ]
    return level[0]


__all__ = [
    "GLOBAL_PTR",
    "SHARED_PTR",
    "Builder",
    "Int",
    "broadcast_coords",
    "half2",
    "row_major_coords",
    "tree",
]
