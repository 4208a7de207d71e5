"""The `llvm` dialect of a `gpu.module` as an llvmlite module, for the NVPTX backend.

xDSL's own converter (`xdsl.backend.llvm`) does most of the work, op by op; this module
drives it and fixes what it gets wrong for GPU code:
- a GEP through a pointer with an address space was emitted with an invalid bitcast: we
  emit the (opaque-pointer) GEP ourselves;
- globals were referenced through typed pointers, which LLVM 22 no longer parses: we give
  them opaque pointer types;
- calling conventions and function attributes were dropped: kernels (`nvvm.kernel`) get
  the `ptx_kernel` convention, and `nvvm.maxntid` and `nvvm.cluster_dim` (a kernel of
  thread-block clusters: `.reqnctapercluster`) become function attributes;
- parameters listed in `nvvm.grid_constant` (tensor maps) become `byval([128 x i8])
  align 64 "nvvm.grid_constant"`: a `.param .align 64 .b8 [128]` whose generic address
  (cvta.param) the kernel uses in place;
- bf16 has no LLVM type there: our lowering never emits one (bf16 data moves as i16 and
  converts through the nvvm dialect).
"""

from __future__ import annotations

from collections.abc import Iterable

import llvmlite.ir as ir
from xdsl.backend.llvm.convert_op import convert_op, create_constant
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"


class _FunctionAttributes(ir.values.FunctionAttributes):
    """llvmlite knows only a fixed list of function attributes; NVVM's are strings."""

    def __init__(self, extra: list[str]):
        super().__init__()
        self.extra = extra

    def __bool__(self) -> bool:
        return bool(self.extra) or super().__len__() > 0

    def _to_list(self, ret_type: ir.Type) -> list[str]:
        return [*super()._to_list(ret_type), *self.extra]


TENSOR_MAP_BYTES = 128


class _GridConstant(ir.values.ArgumentAttributes):
    """A 128-byte `__grid_constant__` parameter: llvmlite cannot spell a typed byval of an
    opaque pointer nor string attributes."""

    def _to_list(self, typ: ir.Type) -> list[str]:
        return [f"byval([{TENSOR_MAP_BYTES} x i8])", "align 64", '"nvvm.grid_constant"']


def _llvm_ops(module: Operation) -> Iterable[Operation]:
    """The llvm ops of `module`: those of its gpu.module if it has one, else its own."""
    from xdsl.dialects import gpu

    body = module.regions[0].block
    gpu_modules = [op for op in body.ops if isinstance(op, gpu.ModuleOp)]
    if gpu_modules:
        for g in gpu_modules:
            yield from g.body.block.ops
    else:
        yield from body.ops


def _declare(op: llvm.FuncOp, module: ir.Module) -> None:
    ftype = op.function_type
    fn = ir.Function(
        module,
        ir.FunctionType(convert_type(ftype.output), [convert_type(t) for t in ftype.inputs]),
        name=op.sym_name.data,
    )
    extra: list[str] = []
    if isinstance(op.attributes.get("nvvm.kernel"), UnitAttr):
        fn.calling_convention = "ptx_kernel"
    maxntid = op.attributes.get("nvvm.maxntid")
    if isinstance(maxntid, DenseArrayBase):
        dims = [int(v) for v in maxntid.get_values()]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        extra.append(f'"nvvm.maxntid"="{",".join(map(str, dims))}"')
    cluster = op.attributes.get("nvvm.cluster_dim")
    if isinstance(cluster, DenseArrayBase):
        dims = [int(v) for v in cluster.get_values()]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        extra.append(f'"nvvm.cluster_dim"="{",".join(map(str, dims))}"')
    if extra:
        fn.attributes = _FunctionAttributes(extra)
    grid_constants = op.attributes.get("nvvm.grid_constant")
    if isinstance(grid_constants, DenseArrayBase):
        for index in grid_constants.get_values():  # pyright: ignore[reportUnknownVariableType]
            fn.args[int(index)].attributes = _GridConstant()  # pyright: ignore[reportUnknownArgumentType]


def _gep(op: llvm.GEPOp, builder: ir.IRBuilder, values: dict[SSAValue, ir.Value]) -> None:
    dynamic = iter(op.ssa_indices)
    indices = [
        values[next(dynamic)] if idx == llvm.GEP_USE_SSA_VAL else ir.Constant(ir.IntType(32), idx)
        for idx in op.rawConstantIndices.iter_values()
    ]
    values[op.result] = builder.gep(
        values[op.ptr],
        indices,
        inbounds=op.inbounds is not None,
        source_etype=convert_type(op.elem_type),
    )


def _define(op: llvm.FuncOp, module: ir.Module) -> None:
    fn = module.get_global(op.sym_name.data)
    assert isinstance(fn, ir.Function)
    blocks: dict[Block, ir.Block] = {}
    values: dict[SSAValue, ir.Value] = {}
    for i, block in enumerate(op.body.blocks):
        blocks[block] = fn.append_basic_block(name=block.name_hint or "")
        if i == 0:
            values.update(zip(block.args, fn.args, strict=True))
    for i, block in enumerate(op.body.blocks):
        if i and block.args:
            phis = ir.IRBuilder(blocks[block])
            for arg in block.args:
                values[arg] = phis.phi(convert_type(arg.type))
    for block in op.body.blocks:
        builder = ir.IRBuilder(blocks[block])
        if blocks[block].instructions:
            builder.position_after(blocks[block].instructions[-1])
        for inner in block.ops:
            if isinstance(inner, llvm.GEPOp):
                _gep(inner, builder, values)
            else:
                convert_op(inner, builder, values, blocks)


def _global(op: llvm.GlobalOp, module: ir.Module) -> None:
    gvar = ir.GlobalVariable(
        module,
        convert_type(op.global_type),
        name=op.sym_name.data,
        addrspace=op.addr_space.value.data,
    )
    # An opaque pointer type, as current LLVM reads it.
    gvar.type = ir.PointerType(addrspace=op.addr_space.value.data)
    gvar.linkage = op.linkage.linkage.data
    if op.alignment is not None:
        gvar.align = op.alignment.value.data
    if op.constant is not None:
        gvar.global_constant = True
    if op.value is not None:
        gvar.initializer = create_constant(op.global_type, op.value)


def to_llvmlite(module: ModuleOp) -> ir.Module:
    """The kernels of `module` (already free of nvvm ops) as one llvmlite module."""
    out = ir.Module()
    out.triple = NVPTX_TRIPLE
    ops = list(_llvm_ops(module))
    for op in ops:
        if isinstance(op, llvm.GlobalOp):
            _global(op, out)
        elif isinstance(op, llvm.FuncOp):
            _declare(op, out)
        else:
            raise NotImplementedError(f"'{op.name}' cannot appear beside GPU kernels")
    for op in ops:
        if isinstance(op, llvm.FuncOp) and op.body.blocks:
            _define(op, out)
    return out


__all__ = ["NVPTX_TRIPLE", "to_llvmlite"]
