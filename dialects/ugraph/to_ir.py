"""Model -> IR: a `Graph` becomes a `func.func` of kernel-dialect ops."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue

from mirage.dialects import block, kernel, thread
from mirage.dialects.opkinds import ACCUMULATORS, FUSES, LAUNCHES
from mirage.dialects.ugraph.convert import attr_to_ir, type_to_ir
from mirage.dialects.ugraph.graph import Graph, Op


def _op_classes(level: str) -> dict[str, type[Operation]]:
    dialects = {
        "kernel": kernel.KernelDialect,
        "block": block.BlockDialect,
        "thread": thread.ThreadDialect,
    }
    dialect = dialects[level]
    classes = {op.name.partition(".")[2]: op for op in dialect.operations}
    if level == "block":
        classes["fuse"] = thread.FuseOp  # thread-level chains are used from block graphs
    return classes


def func_from_graph(name: str, graph: Graph) -> FuncOp:
    func = FuncOp(
        name, ([type_to_ir(t) for t in graph.args], [type_to_ir(t) for t in graph.output_types])
    )
    entry = func.body.block
    values = _emit(graph, list(entry.args), entry, "kernel")
    entry.add_op(ReturnOp(*[values[o] for o in graph.outputs]))
    return func


def _emit(graph: Graph, args: Sequence[SSAValue], into: Block, level: str) -> list[SSAValue]:
    values: list[SSAValue] = list(args)
    for op in graph.ops:
        new = _build(op, [values[i] for i in op.operands], level)
        into.add_op(new)
        values.extend(new.results)
    return values


def _build(op: Op, operands: list[SSAValue], level: str) -> Operation:
    classes = _op_classes(level)
    if op.kind not in classes:
        raise ValueError(f"no {level}-level op for kind '{op.kind}'")
    regions: list[Region] = []
    scalar = level == "thread"
    if op.kind in LAUNCHES:
        assert op.body is not None
        regions = [_block_region(op.body)]
    elif op.kind in FUSES:
        assert op.body is not None
        entry = Block(arg_types=[type_to_ir(t, scalar=True) for t in op.body.args])
        values = _emit(op.body, list(entry.args), entry, "thread")
        entry.add_op(thread.YieldOp([values[o] for o in op.body.outputs]))
        regions = [Region(entry)]
    return classes[op.kind].create(
        operands=operands,
        result_types=[type_to_ir(t, scalar=scalar) for t in op.results],
        properties={k: attr_to_ir(v) for k, v in op.attrs},
        attributes=dict(op.annotations),
        regions=regions,
    )


def _block_region(body: Graph) -> Region:
    entry = Block(arg_types=[type_to_ir(t) for t in body.args])
    loop_block = Block()
    values: list[SSAValue] = list(entry.args)
    accumulators: list[SSAValue] = []
    for index, op in enumerate(body.ops):
        if index == body.loop_end:
            _close_loop(entry, loop_block, accumulators, values)
        new = _build(op, [values[i] for i in op.operands], "block")
        if index < body.loop_end:
            loop_block.add_op(new)
            if op.kind in ACCUMULATORS:
                accumulators.append(new.results[0])
        else:
            entry.add_op(new)
        values.extend(new.results)
    if body.loop_end == len(body.ops):
        _close_loop(entry, loop_block, accumulators, values)
    entry.add_op(block.ReturnOp([values[o] for o in body.outputs]))
    return Region(entry)


def _close_loop(
    entry: Block, loop_block: Block, accumulators: list[SSAValue], values: list[SSAValue]
) -> None:
    """Yield the accumulators and let the loop's results stand for them after the loop."""
    loop_block.add_op(block.YieldOp(accumulators))
    loop = block.ForLoopOp([a.type for a in accumulators], Region(loop_block))
    entry.add_op(loop)
    for acc, result in zip(accumulators, loop.results, strict=True):
        values[values.index(acc)] = result
