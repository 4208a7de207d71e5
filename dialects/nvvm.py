"""A small `nvvm` dialect: the NVIDIA GPU intrinsics that generated kernels use.

Each op is one PTX instruction (or a short fixed sequence of them) that has no generic
`llvm` dialect form; `convert-nvvm-to-llvm` rewrites each into `llvm.call_intrinsic` (an
NVVM intrinsic of LLVM's NVPTX backend) or `llvm.inline_asm`, in one table. Names follow
MLIR's NVVM dialect where it has the op.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
    Float32Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    f32,
    i16,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from mirage.dialects.types import integer_or_none

SHARED = 3
GLOBAL = 1


def ptr(address_space: int) -> LLVMPointerType:
    from xdsl.dialects.builtin import IntAttr

    return LLVMPointerType(IntAttr(address_space))


def _address_space(value: SSAValue) -> int | None:
    from xdsl.dialects.builtin import IntAttr

    ty = value.type
    if isinstance(ty, LLVMPointerType) and isinstance(ty.addr_space, IntAttr):
        return ty.addr_space.data
    return None


# --- special registers ------------------------------------------------------------------


class SpecialRegisterOp(IRDLOperation, ABC):
    """Reads one PTX special register (an i32)."""

    res = result_def(I32)
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])


def _sreg(register: str) -> type[SpecialRegisterOp]:
    name = f"nvvm.read.ptx.sreg.{register}"
    cls = type(
        "Read" + "".join(p.capitalize() for p in register.replace(".", "_").split("_")) + "Op",
        (SpecialRegisterOp,),
        {"name": name, "__doc__": f"{name}: the PTX register %{register}.", "__module__": __name__},
    )
    return irdl_op_definition(cls)


SPECIAL_REGISTER_OPS: dict[str, type[SpecialRegisterOp]] = {
    r: _sreg(r)
    for r in (
        "tid.x",
        "tid.y",
        "tid.z",
        "ctaid.x",
        "ctaid.y",
        "ctaid.z",
        "ntid.x",
        "nctaid.x",
        "laneid",
    )
}


# --- synchronization and data movement --------------------------------------------------


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """bar.sync 0: every thread of the block waits here; orders shared memory."""

    name = "nvvm.barrier0"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class BarWarpSyncOp(IRDLOperation):
    """bar.warp.sync -1: the lanes of a warp wait for each other; orders their shared
    memory accesses."""

    name = "nvvm.bar.warp.sync"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


SHUFFLE_KINDS = ("bfly", "down", "up", "idx")


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """shfl.sync.<kind>.b32 over the lanes of `mask`."""

    name = "nvvm.shfl.sync"
    T: ClassVar = VarConstraint("T", AnyOf((BaseAttr(Float32Type), BaseAttr(IntegerType))))
    kind = prop_def(StringAttr)
    mask = operand_def(I32)
    val = operand_def(T)
    offset = operand_def(I32)
    clamp = operand_def(I32)
    res = result_def(T)
    assembly_format = "$kind $mask `,` $val `,` $offset `,` $clamp attr-dict `:` type($val)"

    def __init__(
        self,
        kind: str,
        mask: SSAValue | Operation,
        val: SSAValue | Operation,
        offset: SSAValue | Operation,
        clamp: SSAValue | Operation,
    ):
        super().__init__(
            operands=[mask, val, offset, clamp],
            result_types=[SSAValue.get(val).type],
            properties={"kind": StringAttr(kind)},
        )

    def verify_(self) -> None:
        if self.kind.data not in SHUFFLE_KINDS:
            raise VerifyException(
                f"shuffle kind must be one of {', '.join(SHUFFLE_KINDS)}, got '{self.kind.data}'"
            )
        ty = integer_or_none(self.val.type)
        if ty is not None and ty.bitwidth != 32:
            raise VerifyException("shuffled integers must be i32")


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """ldmatrix.sync.aligned.m8n8.x<num>[.trans].shared.b16: `num` 8x8 matrices of 16-bit
    elements from shared memory, each lane giving one row address; one i32 per matrix."""

    name = "nvvm.ldmatrix"
    ptr_ = operand_def(LLVMPointerType)
    num = prop_def(IntegerAttr[I64])
    trans = opt_prop_def(UnitAttr)
    res = result_def()
    assembly_format = "$ptr_ `x` $num (`trans` $trans^)? attr-dict `:` type($ptr_) `->` type($res)"

    def __init__(self, pointer: SSAValue | Operation, num: int, trans: bool = False):
        result: Attribute = i32 if num == 1 else LLVMStructType.from_type_list([i32] * num)
        super().__init__(
            operands=[pointer],
            result_types=[result],
            properties={"num": IntegerAttr(num, i64), "trans": UnitAttr() if trans else None},
        )

    def verify_(self) -> None:
        n = self.num.value.data
        if n not in (1, 2, 4):
            raise VerifyException(f"ldmatrix loads 1, 2 or 4 matrices, not {n}")
        if _address_space(self.ptr_) != SHARED:
            raise VerifyException("ldmatrix reads shared memory: the pointer must be !llvm.ptr<3>")


MMA_AB_TYPES = ("f16", "bf16")


@irdl_op_definition
class MmaSyncOp(IRDLOperation):
    """mma.sync.aligned.m16n8k16.row.col.f32.<ab>.<ab>.f32: D = A B + C for one warp, A as
    4 and B as 2 registers of packed 16-bit pairs, C and D as 4 f32 each."""

    name = "nvvm.mma.sync.m16n8k16"
    a = var_operand_def(I32)
    b = var_operand_def(I32)
    c = var_operand_def(Float32Type)
    ab_type = prop_def(StringAttr)
    res = result_def(LLVMStructType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "$ab_type `(` $a `)` `,` `(` $b `)` `,` `(` $c `)` attr-dict `:` type($res)"

    def __init__(
        self,
        a: Sequence[SSAValue | Operation],
        b: Sequence[SSAValue | Operation],
        c: Sequence[SSAValue | Operation],
        ab_type: str,
    ):
        super().__init__(
            operands=[a, b, c],
            result_types=[LLVMStructType.from_type_list([f32] * 4)],
            properties={"ab_type": StringAttr(ab_type)},
        )

    def verify_(self) -> None:
        if self.ab_type.data not in MMA_AB_TYPES:
            raise VerifyException(f"mma operand type must be f16 or bf16, got {self.ab_type.data}")
        if (len(self.a), len(self.b), len(self.c)) != (4, 2, 4):
            raise VerifyException(
                f"m16n8k16 takes 4 A, 2 B and 4 C registers, got "
                f"{len(self.a)}, {len(self.b)} and {len(self.c)}"
            )


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """cp.async.<cache>.shared.global: an asynchronous copy of `size` bytes from global to
    shared memory, completed by cp.async.wait.group."""

    name = "nvvm.cp.async.shared.global"
    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    size = prop_def(IntegerAttr[I64])
    cache = prop_def(StringAttr)
    assembly_format = "$dst `,` $src `,` $size `,` $cache attr-dict `:` type($dst) `,` type($src)"

    def __init__(
        self, dst: SSAValue | Operation, src: SSAValue | Operation, size: int, cache: str = "ca"
    ):
        super().__init__(
            operands=[dst, src],
            properties={"size": IntegerAttr(size, i64), "cache": StringAttr(cache)},
        )

    def verify_(self) -> None:
        size = self.size.value.data
        if size not in (4, 8, 16):
            raise VerifyException(f"cp.async copies 4, 8 or 16 bytes, not {size}")
        if self.cache.data not in ("ca", "cg"):
            raise VerifyException(f"cp.async cache must be ca or cg, got {self.cache.data}")
        if self.cache.data == "cg" and size != 16:
            raise VerifyException("cp.async.cg copies 16 bytes only")
        if _address_space(self.dst) != SHARED or _address_space(self.src) != GLOBAL:
            raise VerifyException(
                "cp.async copies from !llvm.ptr<1> (global) to !llvm.ptr<3> (shared)"
            )


@irdl_op_definition
class CpAsyncCommitGroupOp(IRDLOperation):
    """cp.async.commit_group: closes the group of this thread's cp.async issued so far."""

    name = "nvvm.cp.async.commit.group"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class CpAsyncWaitGroupOp(IRDLOperation):
    """cp.async.wait_group n: waits until at most `n` of this thread's groups are pending."""

    name = "nvvm.cp.async.wait.group"
    n = prop_def(IntegerAttr[I64])
    assembly_format = "$n attr-dict"

    def __init__(self, n: int):
        super().__init__(properties={"n": IntegerAttr(n, i64)})


# --- sm_90: bulk copies completed on an mbarrier -----------------------------------------


class _NoResultOp(IRDLOperation, ABC):
    def __init__(self, operands: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=list(operands))


@irdl_op_definition
class MBarrierInitOp(_NoResultOp):
    """mbarrier.init.shared::cta.b64 [addr], count: a barrier object in shared memory
    (`addr` is the 32-bit shared-window address) expecting `count` arrivals per phase."""

    name = "nvvm.mbarrier.init.shared"
    addr = operand_def(I32)
    count = operand_def(I32)
    assembly_format = "$addr `,` $count attr-dict"

    def __init__(self, addr: SSAValue | Operation, count: SSAValue | Operation):
        super().__init__([addr, count])


@irdl_op_definition
class MBarrierArriveExpectTxOp(_NoResultOp):
    """mbarrier.arrive.expect_tx.shared::cta.b64: one arrival that also announces `bytes`
    still to come from asynchronous copies."""

    name = "nvvm.mbarrier.arrive.expect_tx.shared"
    addr = operand_def(I32)
    bytes_ = operand_def(I32)
    assembly_format = "$addr `,` $bytes_ attr-dict"

    def __init__(self, addr: SSAValue | Operation, nbytes: SSAValue | Operation):
        super().__init__([addr, nbytes])


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """mbarrier.try_wait.parity.shared::cta.b64: 1 once the phase of parity `parity` has
    completed (waits a while in hardware first), else 0."""

    name = "nvvm.mbarrier.try_wait.parity.shared"
    addr = operand_def(I32)
    parity = operand_def(I32)
    res = result_def(I32)
    assembly_format = "$addr `,` $parity attr-dict `:` type($res)"

    def __init__(self, addr: SSAValue | Operation, parity: SSAValue | Operation):
        super().__init__(operands=[addr, parity], result_types=[i32])


@irdl_op_definition
class CpAsyncBulkSharedGlobalOp(_NoResultOp):
    """cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes: `size` bytes (a
    multiple of 16, both addresses 16-byte aligned) copied by the TMA unit, completion
    counted on the mbarrier at `mbar`."""

    name = "nvvm.cp.async.bulk.shared.global"
    dst = operand_def(I32)
    src = operand_def(LLVMPointerType)
    size = operand_def(I32)
    mbar = operand_def(I32)
    assembly_format = "$dst `,` $src `,` $size `,` $mbar attr-dict `:` type($src)"

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        size: SSAValue | Operation,
        mbar: SSAValue | Operation,
    ):
        super().__init__([dst, src, size, mbar])


class NamedBarrierOp(IRDLOperation, ABC):
    """An arrival at named barrier `id` of a block, which completes when `threads` (a
    multiple of 32) have arrived."""

    barrier_id = prop_def(IntegerAttr[I32], prop_name="id")
    threads = prop_def(IntegerAttr[I32])
    assembly_format = "$id `,` $threads attr-dict"

    def __init__(self, barrier_id: int, threads: int):
        super().__init__(
            properties={"id": IntegerAttr(barrier_id, i32), "threads": IntegerAttr(threads, i32)}
        )

    def verify_(self) -> None:
        bid, n = self.barrier_id.value.data, self.threads.value.data
        if not 0 <= bid < 16:
            raise VerifyException(f"named barrier id must be in 0..15, got {bid}")
        if n < 32 or n % 32:
            raise VerifyException(
                f"{self.name[5:]} thread count must be a positive multiple of 32, got {n}"
            )


@irdl_op_definition
class BarrierSyncOp(NamedBarrierOp):
    """bar.sync id, threads: the first `threads` arrivals at named barrier `id` wait for
    each other; the warps that do not take part go on (a producer warp)."""

    name = "nvvm.bar.sync"


@irdl_op_definition
class BarrierArriveOp(NamedBarrierOp):
    """bar.arrive id, threads: an arrival that does not wait (it lets the threads that
    bar.sync on `id` go once `threads` have arrived)."""

    name = "nvvm.bar.arrive"


@irdl_op_definition
class MBarrierArriveOp(_NoResultOp):
    """mbarrier.arrive.shared::cta.b64: one arrival of this thread on the barrier at `addr`."""

    name = "nvvm.mbarrier.arrive.shared"
    addr = operand_def(I32)
    assembly_format = "$addr attr-dict"

    def __init__(self, addr: SSAValue | Operation):
        super().__init__([addr])


@irdl_op_definition
class CpAsyncBulkTensor2dOp(_NoResultOp):
    """cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes: the box
    of the 2-D tensor map at `tmap` (its generic address: a `__grid_constant__` parameter)
    whose first element is at (`x` innermost, `y`) copied to `dst` (32-bit shared-window
    address, 1024-byte aligned for the 128-byte swizzle), its bytes counted on `mbar`."""

    name = "nvvm.cp.async.bulk.tensor.2d.shared.global"
    dst = operand_def(I32)
    tmap = operand_def(LLVMPointerType)
    x = operand_def(I32)
    y = operand_def(I32)
    mbar = operand_def(I32)
    assembly_format = "$dst `,` $tmap `[` $x `,` $y `]` `,` $mbar attr-dict `:` type($tmap)"

    def __init__(
        self,
        dst: SSAValue | Operation,
        tmap: SSAValue | Operation,
        x: SSAValue | Operation,
        y: SSAValue | Operation,
        mbar: SSAValue | Operation,
    ):
        super().__init__([dst, tmap, x, y, mbar])

    def verify_(self) -> None:
        space = _address_space(self.tmap)
        if space not in (None, 0):
            raise VerifyException(
                f"the tensor map operand must be a generic pointer, got address space {space}"
            )


@irdl_op_definition
class FenceProxyAsyncSharedOp(_NoResultOp):
    """fence.proxy.async.shared::cta: orders this thread's ordinary shared-memory accesses
    with later ones of the asynchronous (TMA) proxy."""

    name = "nvvm.fence.proxy.async.shared"
    assembly_format = "attr-dict"


@irdl_op_definition
class GridDepControlWaitOp(_NoResultOp):
    """griddepcontrol.wait (sm_90): waits until the grids this one depends on have
    completed and their memory is visible; where the launch was not programmatic (a
    dependent launched before those ended) there is nothing to wait for. (A grid that no
    block lets go early with griddepcontrol.launch_dependents lets its dependents start
    as it ends.)"""

    name = "nvvm.griddepcontrol.wait"
    assembly_format = "attr-dict"


@irdl_op_definition
class FenceMBarrierInitOp(_NoResultOp):
    """fence.mbarrier_init.release.cluster: makes mbarrier.init visible to the async proxy."""

    name = "nvvm.fence.mbarrier_init"
    assembly_format = "attr-dict"


# --- sm_90: thread-block clusters -----------------------------------------------------


@irdl_op_definition
class ClusterBarrierOp(_NoResultOp):
    """barrier.cluster.arrive (release) then barrier.cluster.wait (acquire): every thread of
    every block of the cluster waits here; orders their shared-memory accesses across the
    cluster (distributed shared memory)."""

    name = "nvvm.barrier.cluster"
    assembly_format = "attr-dict"


@irdl_op_definition
class MapaSharedClusterOp(IRDLOperation):
    """mapa.shared::cluster.u32: the shared::cluster address of the location at 32-bit
    shared-window address `addr` in the block of cluster rank `rank`."""

    name = "nvvm.mapa.shared.cluster"
    addr = operand_def(I32)
    rank = operand_def(I32)
    res = result_def(I32)
    assembly_format = "$addr `,` $rank attr-dict `:` type($res)"

    def __init__(self, addr: SSAValue | Operation, rank: SSAValue | Operation):
        super().__init__(operands=[addr, rank], result_types=[i32])


CLUSTER_LOAD_WIDTHS = (1, 2, 4)


@irdl_op_definition
class LdSharedClusterOp(IRDLOperation):
    """ld.shared::cluster.v{width}.f32: `width` adjacent f32 at a shared::cluster address
    (`mapa.shared::cluster`), one f32 or a struct of them."""

    name = "nvvm.ld.shared.cluster"
    addr = operand_def(I32)
    res = result_def(AnyOf((BaseAttr(Float32Type), BaseAttr(LLVMStructType))))
    assembly_format = "$addr attr-dict `:` type($res)"

    def __init__(self, addr: SSAValue | Operation, width: int):
        ty: Attribute = f32 if width == 1 else LLVMStructType.from_type_list([f32] * width)
        super().__init__(operands=[addr], result_types=[ty])

    @property
    def width(self) -> int:
        ty = self.res.type
        return len(ty.types.data) if isinstance(ty, LLVMStructType) else 1

    def verify_(self) -> None:
        ty = self.res.type
        if isinstance(ty, LLVMStructType) and (
            len(ty.types.data) not in CLUSTER_LOAD_WIDTHS or any(t != f32 for t in ty.types.data)
        ):
            raise VerifyException(
                f"ld.shared::cluster gives 1, 2 or 4 f32, got {len(ty.types.data)} of {ty}"
            )


# --- sm_90a: warpgroup matrix multiply-accumulate ----------------------------------------

WGMMA_AB_TYPES = ("f16", "bf16")


@irdl_op_definition
class WgmmaFenceOp(_NoResultOp):
    """wgmma.fence.sync.aligned: orders this warpgroup's earlier register (accumulator) and
    shared-memory accesses before the wgmma.mma_async that follow."""

    name = "nvvm.wgmma.fence"
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaCommitGroupOp(_NoResultOp):
    """wgmma.commit_group.sync.aligned: closes a group of this warpgroup's pending
    wgmma.mma_async."""

    name = "nvvm.wgmma.commit_group"
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaMmaAsyncOp(IRDLOperation):
    """wgmma.mma_async.sync.aligned.m64n<n>k16.f32.<ab>.<ab>: D = A B + D for one warpgroup,
    issued asynchronously. D is `n / 2` f32 per thread (the result holds their new values).
    A is 4 registers of packed 16-bit pairs (this warp's 16 rows, as mma.sync's A fragment)
    or, as 2 words (low, high), a shared-memory matrix descriptor; B is always a descriptor
    (low, high). `trans_b`: B is stored N-major (rows of N elements), not K-major."""

    name = "nvvm.wgmma.mma_async"
    acc = var_operand_def(Float32Type)
    a = var_operand_def(I32)
    b = var_operand_def(I32)
    n = prop_def(IntegerAttr[I64])
    ab_type = prop_def(StringAttr)
    trans_b = opt_prop_def(UnitAttr)
    res = result_def(LLVMStructType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "`m64n` $n `k16` $ab_type (`trans_b` $trans_b^)? `(` $acc `)` `,` `(` $a `)` `,` "
        "`(` $b `)` attr-dict `:` type($res)"
    )

    def __init__(
        self,
        acc: Sequence[SSAValue | Operation],
        a: Sequence[SSAValue | Operation],
        b: Sequence[SSAValue | Operation],
        n: int,
        ab_type: str,
        trans_b: bool,
    ):
        super().__init__(
            operands=[acc, a, b],
            result_types=[LLVMStructType.from_type_list([f32] * len(acc))],
            properties={
                "n": IntegerAttr(n, i64),
                "ab_type": StringAttr(ab_type),
                "trans_b": UnitAttr() if trans_b else None,
            },
        )

    @property
    def a_in_registers(self) -> bool:
        return len(self.a) == 4

    def verify_(self) -> None:
        n = self.n.value.data
        if self.ab_type.data not in WGMMA_AB_TYPES:
            raise VerifyException(
                f"wgmma operand type must be f16 or bf16, got {self.ab_type.data}"
            )
        if n % 8 or not 8 <= n <= 256:
            raise VerifyException(f"wgmma n must be a multiple of 8 from 8 to 256, got {n}")
        if len(self.acc) != n // 2:
            raise VerifyException(
                f"m64n{n}k16 takes {n // 2} accumulator registers, got {len(self.acc)}"
            )
        if len(self.a) not in (2, 4):
            raise VerifyException(
                f"wgmma A is 4 registers or a descriptor of 2 words, got {len(self.a)} operands"
            )
        if len(self.b) != 2:
            raise VerifyException(f"wgmma B is a descriptor of 2 words, got {len(self.b)} operands")


@irdl_op_definition
class WgmmaWaitGroupOp(IRDLOperation):
    """wgmma.wait_group.sync.aligned n: waits until at most `n` of this warpgroup's groups
    are pending. The accumulators of those groups pass through it (the result), so that no
    read of them can be scheduled before the wait."""

    name = "nvvm.wgmma.wait_group"
    acc = var_operand_def(Float32Type)
    pending = prop_def(IntegerAttr[I64])
    res = result_def(LLVMStructType)
    assembly_format = "$pending `(` $acc `)` attr-dict `:` type($res)"

    def __init__(self, pending: int, acc: Sequence[SSAValue | Operation]):
        super().__init__(
            operands=[acc],
            result_types=[LLVMStructType.from_type_list([f32] * len(acc))],
            properties={"pending": IntegerAttr(pending, i64)},
        )

    def verify_(self) -> None:
        if not self.acc:
            raise VerifyException("wgmma.wait_group passes at least one accumulator through")
        if not 0 <= self.pending.value.data <= 7:
            raise VerifyException(
                f"wgmma.wait_group leaves 0 to 7 groups pending, got {self.pending.value.data}"
            )


# --- conversions and fast math ----------------------------------------------------------


@irdl_op_definition
class CvtF32ToBf16Op(IRDLOperation):
    """cvt.rn.bf16.f32: round to the nearest bf16, as its 16 bits."""

    name = "nvvm.cvt.rn.bf16.f32"
    val = operand_def(Float32Type)
    res = result_def(IntegerType)
    assembly_format = "$val attr-dict `:` type($res)"

    def __init__(self, val: SSAValue | Operation):
        super().__init__(operands=[val], result_types=[i16])


@irdl_op_definition
class CvtF32x2ToBf16x2Op(IRDLOperation):
    """cvt.rn.bf16x2.f32: two floats rounded to bf16 and packed, `lo` in the low half."""

    name = "nvvm.cvt.rn.bf16x2.f32"
    lo = operand_def(Float32Type)
    hi = operand_def(Float32Type)
    res = result_def(I32)
    assembly_format = "$lo `,` $hi attr-dict `:` type($res)"

    def __init__(self, lo: SSAValue | Operation, hi: SSAValue | Operation):
        super().__init__(operands=[lo, hi], result_types=[i32])


@irdl_op_definition
class CvtF32x2ToF16x2Op(IRDLOperation):
    """cvt.rn.f16x2.f32: two floats rounded to f16 and packed, `lo` in the low half."""

    name = "nvvm.cvt.rn.f16x2.f32"
    lo = operand_def(Float32Type)
    hi = operand_def(Float32Type)
    res = result_def(I32)
    assembly_format = "$lo `,` $hi attr-dict `:` type($res)"

    def __init__(self, lo: SSAValue | Operation, hi: SSAValue | Operation):
        super().__init__(operands=[lo, hi], result_types=[i32])


class ApproxUnaryOp(IRDLOperation, ABC):
    """A PTX approximate f32 function (a few ulp; special values as PTX defines them)."""

    val = operand_def(Float32Type)
    res = result_def(Float32Type)
    assembly_format = "$val attr-dict `:` type($res)"

    def __init__(self, val: SSAValue | Operation):
        super().__init__(operands=[val], result_types=[f32])


@irdl_op_definition
class Ex2ApproxOp(ApproxUnaryOp):
    name = "nvvm.ex2.approx.f32"


@irdl_op_definition
class Ex2ApproxFtzOp(ApproxUnaryOp):
    """2^x with results below f32's normal range flushed to zero: one MUFU.EX2, where the
    plain form adds a range check and a scaling around it."""

    name = "nvvm.ex2.approx.ftz.f32"


@irdl_op_definition
class Lg2ApproxOp(ApproxUnaryOp):
    name = "nvvm.lg2.approx.f32"


@irdl_op_definition
class RsqrtApproxOp(ApproxUnaryOp):
    name = "nvvm.rsqrt.approx.f32"


@irdl_op_definition
class DivFullOp(IRDLOperation):
    """f32 division to 2 ulp over the whole range (`div.full.f32`): a reciprocal and a
    multiply, where the IEEE-rounded division is a dozen instructions and a slow path."""

    name = "nvvm.div.full.f32"
    lhs = operand_def(Float32Type)
    rhs = operand_def(Float32Type)
    res = result_def(Float32Type)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($res)"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[f32])


NVVM = Dialect(
    "nvvm",
    [
        *SPECIAL_REGISTER_OPS.values(),
        Barrier0Op,
        ShflSyncOp,
        LdMatrixOp,
        MmaSyncOp,
        CpAsyncOp,
        CpAsyncCommitGroupOp,
        CpAsyncWaitGroupOp,
        MBarrierInitOp,
        MBarrierArriveExpectTxOp,
        MBarrierTryWaitParityOp,
        CpAsyncBulkSharedGlobalOp,
        CpAsyncBulkTensor2dOp,
        MBarrierArriveOp,
        BarrierArriveOp,
        BarrierSyncOp,
        FenceProxyAsyncSharedOp,
        FenceMBarrierInitOp,
        GridDepControlWaitOp,
        ClusterBarrierOp,
        MapaSharedClusterOp,
        LdSharedClusterOp,
        CvtF32ToBf16Op,
        CvtF32x2ToBf16x2Op,
        CvtF32x2ToF16x2Op,
        Ex2ApproxOp,
        Ex2ApproxFtzOp,
        Lg2ApproxOp,
        RsqrtApproxOp,
        DivFullOp,
        BarWarpSyncOp,
        WgmmaFenceOp,
        WgmmaCommitGroupOp,
        WgmmaMmaAsyncOp,
        WgmmaWaitGroupOp,
    ],
)
