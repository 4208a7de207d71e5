"""`convert-kernel-to-gpu`: functions of `kernel.graph` launches become host functions of
`gpu.launch_func`, and every graph a kernel (`llvm.func` of llvm and nvvm ops) in one
`gpu.module @mirage_kernels`.

A lowered function takes one `!llvm.ptr<1>` per buffer: its inputs, then its outputs,
then the intermediates between its kernels; `mirage.buffers` lists their tensor types,
`mirage.num_inputs` and `mirage.num_outputs` how many are which. Plain kernel ops are
wrapped into one-op graphs first (`wrap-kernel-ops`). A graph is built as its `mirage.plan`
says (`plan-ugraph`); one that carries none is planned here, once. Options: `arch`, and
`loads`, `matmuls` and `clusters` for the graphs planned here (as `plan-ugraph`'s). A
graph that carries `mirage.join` is emitted into the kernel of the graph before it, whose
launch then has thread-block clusters (`cluster_kernel`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, gpu
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from mirage.dialects.hardware import Target, target_for
from mirage.dialects.opkinds import CONSTANTS, LAUNCHES, PERMUTES, RESHAPES, SLICES
from mirage.dialects.ugraph.convert import type_to_ir
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.optimize.annotate import LoweringError, matmuls_for, plan_for
from mirage.lowering.optimize.cluster_join import (
    CLUSTERS_BY_DEFAULT,
    ClusterJoin,
    function_joins,
    joined_smem,
    plan_second,
)
from mirage.lowering.optimize.decisions import (
    DEPENDENT,
    JOIN,
    PLAN,
    REMARKS,
    TENSOR_MAPS,
    JoinAttr,
    PlanAttr,
    TensorMapAttr,
)
from mirage.lowering.optimize.plan import Plan, PlanError, dependent_launch
from mirage.lowering.optimize.wrap import wrap_graph
from mirage.lowering.to_llvm.cluster_kernel import emit_joined
from mirage.lowering.to_llvm.graph_kernel import SMEM_SYMBOL, KernelEmitter, smem_global
from mirage.lowering.to_llvm.llvm_builder import GLOBAL_PTR
from mirage.lowering.to_llvm.simple_kernels import (
    THREADS,
    fill_kernel,
    grid_for,
    slice_kernel,
    transpose_kernel,
)
from mirage.lowering.to_llvm.tile_loads import launch_block

KERNEL_MODULE = "mirage_kernels"


@dataclass
class _Lowered:
    host: func.FuncOp
    kernels: list[Operation] = field(default_factory=lambda: [])


def lower_function(
    f: func.FuncOp,
    arch: str,
    loads: str | None = None,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> _Lowered:
    name = f.sym_name.data
    target = target_for(arch)
    try:
        # the model keeps each op's attributes: its plan and overrides go where it goes
        g: Graph = wrap_graph(graph_from_func(f))
    except ValueError as e:
        raise LoweringError(f"@{name}: {e}") from None
    # buffers: inputs, outputs, then every other kernel result
    buffer_of: dict[int, int] = {i: i for i in range(len(g.args))}
    buffers = list(g.args)
    for o in g.outputs:
        buffer_of[o] = len(buffers)
        buffers.append(g.type_of(o))
    for op, results in g.result_ids():
        if op.kind in RESHAPES:  # the same bytes under another shape
            buffer_of[results[0]] = buffer_of[op.operands[0]]
            continue
        for r in results:
            if r not in buffer_of:
                buffer_of[r] = len(buffers)
                buffers.append(g.type_of(r))
    host = func.FuncOp(name, ([GLOBAL_PTR] * len(buffers), []))
    host.attributes["mirage.buffers"] = ArrayAttr([type_to_ir(t) for t in buffers])
    host.attributes["mirage.num_inputs"] = IntegerAttr(len(g.args), i64)
    host.attributes["mirage.num_outputs"] = IntegerAttr(len(g.outputs), i64)
    entry = host.body.block
    lowered = _Lowered(host)
    entries = list(g.result_ids())
    plans, joins, joined = _plan_function(name, g, target, loads, matmuls, clusters)
    for index, (op, results) in enumerate(entries):
        if op.kind in RESHAPES:
            continue
        kernel_name = f"{name}_k{index}"
        if op.kind in CONSTANTS or op.kind in PERMUTES or op.kind in SLICES:
            out_type = op.results[0]
            if op.kind in CONSTANTS:
                kernel = fill_kernel(kernel_name, out_type, op.float_attr("value"))
            elif op.kind in SLICES:
                src_type = g.type_of(op.operands[0])
                kernel = slice_kernel(kernel_name, src_type, out_type, op.ints_attr("offsets"))
            else:
                src_type = g.type_of(op.operands[0])
                kernel = transpose_kernel(
                    kernel_name, src_type, out_type, op.ints_attr("permutation")
                )
            lowered.kernels.append(kernel)
            grid, block, smem = grid_for(out_type.numel), (THREADS, 1, 1), 0
            _launch(
                entry,
                kernel_name,
                grid,
                block,
                smem,
                [entry.args[buffer_of[o]] for o in (*op.operands, *results)],
            )
            continue
        assert op.kind in LAUNCHES and op.body is not None
        if index in joined:
            continue  # runs in the launch of the graph before it
        grid = op.ints_attr("grid")
        block = op.ints_attr("block")
        plan = plans[index]
        args: list[SSAValue] = [entry.args[buffer_of[o]] for o in op.operands]
        args += [entry.args[buffer_of[r]] for r in results]
        cluster: tuple[int, int, int] | None = None
        smem = plan.smem_bytes
        second = next((s for s, f in joined.items() if f == index), None)
        if second is None:
            kernel = KernelEmitter(plan, kernel_name, block, op.results).emit()
        else:
            op2, results2 = entries[second]
            join = joins[second]
            kernel = emit_joined(
                plan, plans[second], join, kernel_name, block, op.results, op2.results
            )
            args += [entry.args[buffer_of[o]] for o in op2.operands]
            args += [entry.args[buffer_of[r]] for r in results2]
            cluster = join.cluster
            smem = joined_smem(plan, join, plans[second])
        lowered.kernels.append(kernel)
        launch = _launch(entry, kernel_name, grid, launch_block(plan, block), smem, args, cluster)
        if dependent_launch(target) and len(lowered.kernels) > 1:
            # its kernel waits for the launch before it (`KernelEmitter.setup`)
            launch.attributes[DEPENDENT] = UnitAttr()
        maps = plan.tensor_maps()
        if maps:
            launch.attributes[TENSOR_MAPS] = ArrayAttr([TensorMapAttr.of(m) for m in maps])
        remarks = [*plan.remarks, *(plans[second].remarks if second is not None else [])]
        if remarks:  # what the kernel does otherwise than asked, kept for the reader
            launch.attributes[REMARKS] = ArrayAttr([StringAttr(r) for r in remarks])
    entry.add_op(func.ReturnOp())
    return lowered


def _plan_function(
    name: str, g: Graph, target: Target, loads: str | None, matmuls: str | None, clusters: bool
) -> tuple[dict[int, Plan], dict[int, ClusterJoin], dict[int, int]]:
    """Each graph's plan (recorded or made here), and the joins: the joined graph's index
    -> its join, and -> the index of the graph whose launch it runs in. A recorded
    `mirage.join` must still hold; graphs planned here join where they can (`clusters`)."""
    plans: dict[int, Plan] = {}
    fresh: set[int] = set()
    entries = list(g.result_ids())
    for index, (op, _) in enumerate(entries):
        if op.kind not in LAUNCHES or op.body is None:
            continue
        if not isinstance(op.annotation(PLAN), PlanAttr):
            fresh.add(index)
        try:
            plans[index] = plan_for(op, target, loads, matmuls)
        except PlanError as e:
            raise LoweringError(f"@{name}, kernel {index}: {e}") from None
    joins: dict[int, ClusterJoin] = {}
    joined: dict[int, int] = {}
    candidates = function_joins(g, plans, target)
    for index, (op, _) in enumerate(entries):
        if not isinstance(op.annotation(JOIN), JoinAttr):
            continue
        if index not in candidates:
            raise LoweringError(
                f"@{name}, kernel {index}: mirage.join no longer holds (run plan-ugraph again)"
            )
        joins[index], joined[index] = candidates[index]
    if clusters:
        for index, (join, first) in candidates.items():
            if index in joins or index not in fresh or first not in fresh:
                continue
            plan = plan_second(entries[index][0], join, plans[first], target, matmuls_for(matmuls))
            if isinstance(plan, Plan):
                plans[index], joins[index], joined[index] = plan, join, first
    return plans, joins, joined


def _launch(
    entry: Block,
    kernel: str,
    grid: tuple[int, ...],
    block: tuple[int, ...],
    smem: int,
    args: list[SSAValue],
    cluster: tuple[int, int, int] | None = None,
) -> gpu.LaunchFuncOp:
    def c(v: int) -> SSAValue:
        k = arith.ConstantOp(IntegerAttr(v, i32))
        entry.add_op(k)
        return k.result

    launch = gpu.LaunchFuncOp(
        SymbolRefAttr(KERNEL_MODULE, [StringAttr(kernel)]),
        [c(grid[0]), c(grid[1]), c(grid[2])],
        [c(block[0]), c(block[1]), c(block[2])],
        [c(cluster[0]), c(cluster[1]), c(cluster[2])] if cluster else None,
        kernelOperands=args,
        dynamicSharedMemorySize=c(smem),
    )
    entry.add_op(launch)
    return launch


def _kernel_module(module: ModuleOp) -> gpu.ModuleOp:
    for op in module.ops:
        if isinstance(op, gpu.ModuleOp) and op.sym_name.data == KERNEL_MODULE:
            return op
    g = gpu.ModuleOp(StringAttr(KERNEL_MODULE), Region(Block()))  # type: ignore[arg-type]
    g.body.block.add_op(smem_global())
    module.body.block.add_op(g)
    return g


def _uses_kernel_ops(f: func.FuncOp) -> bool:
    return any(op.dialect_name() == "kernel" for op in f.body.block.ops)


def kernel_functions(module: ModuleOp) -> list[func.FuncOp]:
    """The functions of `module` that launch kernel-dialect ops."""
    return [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and not op.is_declaration and _uses_kernel_ops(op)
    ]


def convert_module(
    module: ModuleOp,
    arch: str = "sm_90a",
    loads: str | None = None,
    matmuls: str | None = None,
    clusters: bool = CLUSTERS_BY_DEFAULT,
) -> None:
    funcs = kernel_functions(module)
    if not funcs:
        return
    kernels = _kernel_module(module)
    for f in funcs:
        lowered = lower_function(f, arch, loads, matmuls, clusters)
        for k in lowered.kernels:
            kernels.body.block.add_op(k)
        module.body.block.insert_op_before(lowered.host, f)
        f.detach()
        f.erase()
    module.attributes["gpu.container_module"] = UnitAttr()


@dataclass(frozen=True)
class ConvertKernelToGpu(ModulePass):
    """kernel.graph launches -> gpu.launch_func of generated llvm.func kernels."""

    name = "convert-kernel-to-gpu"
    arch: str = "sm_90a"
    loads: str | None = None
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op, self.arch, self.loads, self.matmuls, self.clusters)


__all__ = ["KERNEL_MODULE", "SMEM_SYMBOL", "ConvertKernelToGpu", "LoweringError", "convert_module"]
