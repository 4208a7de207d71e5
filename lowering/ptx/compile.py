"""A function of kernel-dialect ops -> a `CompiledProgram` (PTX, buffers, launches)."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, func, gpu
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, SSAValue

from mirage.dialects.ugraph.convert import type_from_ir
from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT
from mirage.lowering.optimize.decisions import DEPENDENT, TENSOR_MAPS, TensorMapAttr
from mirage.lowering.ptx.emit import check_arch, lowered, ptx_from_llvm_ir
from mirage.lowering.ptx.llvm_ir import to_llvmlite
from mirage.lowering.runtime.program import (
    BufferSpec,
    CompiledProgram,
    KernelLaunch,
    TensorMapSpec,
)
from mirage.lowering.runtime.ptxas import assemble_ptx


class CompileError(ValueError):
    """The function cannot be built; the message says which and why."""


def _const(v: SSAValue) -> int:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return int(op.value.value.data)
    raise CompileError("launch dimensions must be constants")


def launches_of(
    host: func.FuncOp,
) -> tuple[tuple[BufferSpec, ...], int, int, tuple[KernelLaunch, ...]]:
    """Buffers, input and output counts, and launches of a lowered host function."""
    types = host.attributes.get("mirage.buffers")
    n_in = host.attributes.get("mirage.num_inputs")
    n_out = host.attributes.get("mirage.num_outputs")
    if not (
        isinstance(types, ArrayAttr)
        and isinstance(n_in, IntegerAttr)
        and isinstance(n_out, IntegerAttr)
    ):
        raise CompileError(f"@{host.sym_name.data} is not a lowered function (no mirage.buffers)")
    buffers: list[BufferSpec] = []
    entries = cast(ArrayAttr[Attribute], types)
    for t in entries.data:
        m = type_from_ir(t)
        assert isinstance(t, TensorType)
        buffers.append(BufferSpec(m.shape, m.dtype))
    args = list(host.body.block.args)
    launches: list[KernelLaunch] = []
    for op in host.body.block.ops:
        if not isinstance(op, gpu.LaunchFuncOp):
            continue
        grid = (_const(op.gridSizeX), _const(op.gridSizeY), _const(op.gridSizeZ))
        block = (_const(op.blockSizeX), _const(op.blockSizeY), _const(op.blockSizeZ))
        smem = _const(op.dynamicSharedMemorySize) if op.dynamicSharedMemorySize else 0
        cluster = (1, 1, 1)
        if op.clusterSizeX and op.clusterSizeY and op.clusterSizeZ:
            cluster = (_const(op.clusterSizeX), _const(op.clusterSizeY), _const(op.clusterSizeZ))
        params = tuple(args.index(a) for a in op.kernelOperands)  # pyright: ignore[reportArgumentType]
        maps = op.attributes.get(TENSOR_MAPS)
        specs = tuple(
            TensorMapSpec(
                buffer=params[m.source.data],
                dims=tuple(d.data for d in m.dims.data),
                strides=(m.row_stride.data,),
                box=tuple(d.data for d in m.box.data),
                swizzle=m.swizzle.data,
                dtype=m.dtype.data,
            )
            for m in (cast(ArrayAttr[Attribute], maps).data if isinstance(maps, ArrayAttr) else ())
            if isinstance(m, TensorMapAttr)
        )
        launches.append(
            KernelLaunch(
                op.kernel.nested_references.data[-1].data,
                grid,
                block,
                smem,
                params,
                specs,
                cluster,
                DEPENDENT in op.attributes,
            )
        )
    return tuple(buffers), int(n_in.value.data), int(n_out.value.data), tuple(launches)


def compile_function(
    function: func.FuncOp,
    arch: str = "sm_90a",
    assemble: bool = False,
    loads: str | None = None,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> CompiledProgram:
    """Lower `function` (kernel-dialect ops) and build PTX for `arch`; with `assemble`, the
    cubin too (ptxas or nvJitLink must be installed). `loads`, `matmuls`, `clusters`: as
    `plan-ugraph`'s."""
    check_arch(arch)
    module = ModuleOp([function.clone()])
    low = lowered(module, arch, loads, matmuls, clusters)
    return _build(low, function, arch, assemble)


def compile_lowered(
    module: ModuleOp, host: func.FuncOp, arch: str = "sm_90a", assemble: bool = False
) -> CompiledProgram:
    """Build `host`, a function that `lower-to-llvm` already lowered in `module` (its
    kernels are in the module's gpu.module)."""
    check_arch(arch)
    return _build(lowered(module, arch), host, arch, assemble, host.sym_name.data)


def _build(
    low: ModuleOp, function: func.FuncOp, arch: str, assemble: bool, name: str | None = None
) -> CompiledProgram:
    hosts = [
        op
        for op in low.ops
        if isinstance(op, func.FuncOp) and (name is None or op.sym_name.data == name)
    ]
    if len(hosts) != 1:
        raise CompileError(f"@{function.sym_name.data}: expected one lowered function")
    buffers, n_in, n_out, launches = launches_of(hosts[0])
    text = ptx_from_llvm_ir(str(to_llvmlite(low)), arch)
    cubin = None
    if assemble:
        cubin = assemble_ptx(text, arch)
    return CompiledProgram(text, arch, buffers, n_in, n_out, launches, cubin)


def compile_module(
    module: ModuleOp, arch: str = "sm_90a", assemble: bool = False
) -> dict[str, CompiledProgram]:
    """Every function of kernel-dialect ops in `module`, by name."""
    out: dict[str, CompiledProgram] = {}
    for op in module.ops:
        if not isinstance(op, func.FuncOp) or op.is_declaration:
            continue
        if any(inner.dialect_name() == "kernel" for inner in op.body.block.ops):
            out[op.sym_name.data] = compile_function(op, arch, assemble)
    return out
