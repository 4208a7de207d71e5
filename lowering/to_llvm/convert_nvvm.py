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
    """An intrinsic, not inline PTX: LLVM knows the intrinsic is convergent, so it never
    duplicates the barrier into divergent branches (as it did with inline `bar.sync`, tail-
    duplicating it into both arms of a `tid == 0` branch: different `bar.sync` instructions
    within one warp, which hangs the block)."""
    assert isinstance(op, nvvm.BarrierSyncOp)
    bid, threads = _const(op.barrier_id.value.data), _const(op.threads.value.data)
    call = _call("llvm.nvvm.barrier.cta.sync.aligned.count", [bid.result, threads.result], None)
    return [bid, threads, call], []


def _bar_arrive(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    """As `_bar_sync`: the convergent intrinsic."""
    assert isinstance(op, nvvm.BarrierArriveOp)
    bid, threads = _const(op.barrier_id.value.data), _const(op.threads.value.data)
    call = _call("llvm.nvvm.barrier.cta.arrive.aligned.count", [bid.result, threads.result], None)
    return [bid, threads, call], []


def _tied(count: int) -> str:
    """Constraints of `count` f32 registers read and written in place (outputs 0 .. count-1,
    then the inputs tied to them)."""
    return ",".join(["=f"] * count + [str(i) for i in range(count)])


def _wgmma(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.WgmmaMmaAsyncOp)
    h = len(op.acc)
    n = op.n.value.data
    t = op.ab_type.data
    first = 2 * h  # operands after the outputs and the tied accumulators
    d = ", ".join(f"${i}" for i in range(h))
    if op.a_in_registers:
        a_text = "{" + ", ".join(f"${first + i}" for i in range(4)) + "}"
        a_count, a_setup = 4, ""
        tail = f"{int(op.trans_b is not None)}"  # imm-trans-b only: A is not transposed
    else:
        a_text, a_count = "da", 2
        a_setup = f"mov.b64 da, {{${first}, ${first + 1}}}; "
        tail = f"0, {int(op.trans_b is not None)}"  # imm-trans-a (K-major A), imm-trans-b
    b0 = first + a_count
    scale = b0 + 2
    text = (
        "{ .reg .pred p; .reg .b64 da, db; "
        f"setp.ne.b32 p, ${scale}, 0; {a_setup}mov.b64 db, {{${b0}, ${b0 + 1}}}; "
        f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{t}.{t} {{{d}}}, {a_text}, db, p, 1, 1, "
        f"{tail}; }}"
    )
    one = _const(1)
    constraints = ",".join([_tied(h), *(["r"] * (a_count + 3)), "~{memory}"])
    args = [*op.acc, *op.a, *op.b, one.result]
    asm = llvm.InlineAsmOp(text, constraints, args, [op.res.type], has_side_effects=True)
    return [one, asm], list(asm.results)


def _wgmma_wait(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    assert isinstance(op, nvvm.WgmmaWaitGroupOp)
    text = f"wgmma.wait_group.sync.aligned {op.pending.value.data};"
    constraints = _tied(len(op.acc)) + ",~{memory}"
    asm = llvm.InlineAsmOp(text, constraints, list(op.acc), [op.res.type], has_side_effects=True)
    return [asm], list(asm.results)


def _cluster_barrier(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    """Intrinsics, as for bar.sync: convergent, so LLVM never duplicates them into branches."""
    arrive = _call("llvm.nvvm.barrier.cluster.arrive", [], None)
    wait = _call("llvm.nvvm.barrier.cluster.wait", [], None)
    return [arrive, wait], []


def _ld_shared_cluster(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    """Inline PTX with side effects: it must stay after the cluster barrier that makes the
    peer's tile visible (a pure asm would be free to move above it)."""
    assert isinstance(op, nvvm.LdSharedClusterOp)
    width = op.width
    if width == 1:
        text, outs = "ld.shared::cluster.f32 $0, [$1];", "=f"
    else:
        regs = ", ".join(f"${i}" for i in range(width))
        text = f"ld.shared::cluster.v{width}.f32 {{{regs}}}, [${width}];"
        outs = ",".join(["=f"] * width)
    asm = llvm.InlineAsmOp(
        text, outs + ",r,~{memory}", [op.addr], [op.res.type], has_side_effects=True
    )
    return [asm], list(asm.results)


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
    nvvm.BarrierArriveOp: _bar_arrive,
    nvvm.FenceProxyAsyncSharedOp: _asm_effect("fence.proxy.async.shared::cta;", "~{memory}"),
    nvvm.FenceMBarrierInitOp: _asm_effect("fence.mbarrier_init.release.cluster;", "~{memory}"),
    nvvm.GridDepControlWaitOp: _asm_effect("griddepcontrol.wait;", "~{memory}"),
    nvvm.ClusterBarrierOp: _cluster_barrier,
    nvvm.MapaSharedClusterOp: _asm("mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r"),
    nvvm.LdSharedClusterOp: _ld_shared_cluster,
    nvvm.WgmmaFenceOp: _asm_effect("wgmma.fence.sync.aligned;", "~{memory}"),
    nvvm.WgmmaCommitGroupOp: _asm_effect("wgmma.commit_group.sync.aligned;", "~{memory}"),
    nvvm.WgmmaMmaAsyncOp: _wgmma,
    nvvm.WgmmaWaitGroupOp: _wgmma_wait,
    nvvm.Ex2ApproxOp: _plain("llvm.nvvm.ex2.approx.f", f32),
    nvvm.Ex2ApproxFtzOp: _plain("llvm.nvvm.ex2.approx.ftz.f", f32),
    nvvm.Lg2ApproxOp: _plain("llvm.nvvm.lg2.approx.f", f32),
    nvvm.RsqrtApproxOp: _plain("llvm.nvvm.rsqrt.approx.f", f32),
    nvvm.DivFullOp: _plain("llvm.nvvm.div.full", f32),
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
