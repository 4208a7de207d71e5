"""`convert-nvvm-to-llvm`: every `nvvm` op becomes an NVVM intrinsic call
(`llvm.call_intrinsic`) or, where LLVM has no intrinsic, `llvm.inline_asm`. One rule per
op class, in one table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, f32, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from mirage.dialects import nvvm
from mirage.lowering.to_llvm.llvm_builder import half2

Rule = Callable[[Operation], tuple[list[Operation], list[SSAValue]]]
"""An op -> (the ops that replace it, the values that replace its results)."""


def _call(name: str, args: list[SSAValue], result: Attribute | None) -> llvm.CallIntrinsicOp:
    return llvm.CallIntrinsicOp(name, args, [result] if result is not None else [])


def _const(value: int) -> llvm.ConstantOp:
    return llvm.ConstantOp(IntegerAttr(value, i32), i32)


def _plain(name: str, result: Attribute | None) -> Rule:
    def rule(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
        call = _call(name, list(op.operands), result)
        return [call], list(call.results)

    return rule


def _sreg(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    call = _call("llvm." + op.name, [], i32)
    return [call], list(call.results)


def _shfl(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.ShflSyncOp)
    suffix = "f32" if op.val.type == f32 else "i32"
    call = _call(
        f"llvm.nvvm.shfl.sync.{op.kind.data}.{suffix}",
        [op.mask, op.val, op.offset, op.clamp],
        op.val.type,
    )
    return [call], list(call.results)


def _ldmatrix(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.LdMatrixOp)
    trans = ".trans" if op.trans is not None else ""
    name = f"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{op.num.value.data}{trans}.b16.p3"
    call = _call(name, [op.ptr_], op.res.type)
    return [call], list(call.results)


def _mma(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.MmaSyncOp)
    ops: list[Operation] = []
    ab: list[SSAValue] = [*op.a, *op.b]
    if op.ab_type.data == "f16":
        # The f16 variant takes <2 x half> operands; the registers hold them packed in i32.
        casts = [llvm.BitcastOp(v, half2()) for v in ab]
        ops.extend(casts)
        ab = [c.results[0] for c in casts]
        name = "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
    else:
        name = "llvm.nvvm.mma.m16n8k16.row.col.bf16"
    call = _call(name, [*ab, *op.c], op.res.type)
    return [*ops, call], list(call.results)


def _cp_async(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.CpAsyncOp)
    name = f"llvm.nvvm.cp.async.{op.cache.data}.shared.global.{op.size.value.data}"
    return [_call(name, [op.dst, op.src], None)], []


def _wait_group(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.CpAsyncWaitGroupOp)
    n = _const(op.n.value.data)
    return [n, _call("llvm.nvvm.cp.async.wait.group", [n.result], None)], []


def _bar_warp_sync(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    mask = _const(-1)
    return [mask, _call("llvm.nvvm.bar.warp.sync", [mask.result], None)], []


def _asm(text: str, constraints: str) -> Rule:
    def rule(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
        asm = llvm.InlineAsmOp(text, constraints, list(op.operands), [op.results[0].type])
        return [asm], list(asm.results)

    return rule


def _asm_effect(text: str, constraints: str) -> Rule:
    """Inline PTX with side effects that also orders memory (the `memory` clobber)."""

    def rule(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
        ops: list[Operation] = []
        args: list[SSAValue] = []
        for v in op.operands:
            if isinstance(v.type, llvm.LLVMPointerType):  # a global address, as 64 bits
                cast = llvm.PtrToIntOp(v, i64)
                ops.append(cast)
                args.append(cast.results[0])
            else:
                args.append(v)
        results = [r.type for r in op.results]
        asm = llvm.InlineAsmOp(text, constraints, args, results or None, has_side_effects=True)
        return [*ops, asm], list(asm.results)

    return rule


def _bar_sync(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.BarrierSyncOp)
    text = f"bar.sync {op.barrier_id.value.data}, {op.threads.value.data};"
    asm = llvm.InlineAsmOp(text, "~{memory}", [], None, has_side_effects=True)
    return [asm], []


RULES: dict[type[Operation], Rule] = {
    **{cls: _sreg for cls in nvvm.SPECIAL_REGISTER_OPS.values()},
    nvvm.Barrier0Op: _plain("llvm.nvvm.barrier0", None),
    nvvm.BarWarpSyncOp: _bar_warp_sync,
    nvvm.ShflSyncOp: _shfl,
    nvvm.LdMatrixOp: _ldmatrix,
    nvvm.MmaSyncOp: _mma,
    nvvm.CpAsyncOp: _cp_async,
    nvvm.CpAsyncCommitGroupOp: _plain("llvm.nvvm.cp.async.commit.group", None),
    nvvm.CpAsyncWaitGroupOp: _wait_group,
    # No LLVM intrinsic rounds f32 to bf16 bits; PTX does it in one instruction.
    nvvm.CvtF32ToBf16Op: _asm("cvt.rn.bf16.f32 $0, $1;", "=h,f"),
    nvvm.CvtF32x2ToBf16x2Op: _asm("cvt.rn.bf16x2.f32 $0, $2, $1;", "=r,f,f"),
    nvvm.CvtF32x2ToF16x2Op: _asm("cvt.rn.f16x2.f32 $0, $2, $1;", "=r,f,f"),
    nvvm.MBarrierInitOp: _asm_effect("mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}"),
    nvvm.MBarrierArriveExpectTxOp: _asm_effect(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,~{memory}"
    ),
    nvvm.MBarrierTryWaitParityOp: _asm_effect(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2; "
        "selp.u32 $0, 1, 0, p; }",
        "=r,r,r,~{memory}",
    ),
    nvvm.CpAsyncBulkSharedGlobalOp: _asm_effect(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];",
        "r,l,r,r,~{memory}",
    ),
    nvvm.CpAsyncBulkTensor2dOp: _asm_effect(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
        "[$0], [$1, {$2, $3}], [$4];",
        "r,l,r,r,r,~{memory}",
    ),
    nvvm.MBarrierArriveOp: _asm_effect("mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}"),
    nvvm.BarrierSyncOp: _bar_sync,
    nvvm.FenceProxyAsyncSharedOp: _asm_effect("fence.proxy.async.shared::cta;", "~{memory}"),
    nvvm.FenceMBarrierInitOp: _asm_effect("fence.mbarrier_init.release.cluster;", "~{memory}"),
    nvvm.Ex2ApproxOp: _plain("llvm.nvvm.ex2.approx.f", f32),
    nvvm.Lg2ApproxOp: _plain("llvm.nvvm.lg2.approx.f", f32),
    nvvm.RsqrtApproxOp: _plain("llvm.nvvm.rsqrt.approx.f", f32),
}


class _LowerNvvm(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        rule = RULES.get(type(op))
        if rule is None:
            return
        new_ops, new_results = rule(op)
        rewriter.replace(op, new_ops, new_results if op.results else [])


def lower_nvvm(module: Operation) -> None:
    PatternRewriteWalker(_LowerNvvm(), apply_recursively=False).rewrite_module(module)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ConvertNvvmToLlvm(ModulePass):
    """Rewrites every nvvm op into llvm.call_intrinsic or llvm.inline_asm."""

    name = "convert-nvvm-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_nvvm(op)
