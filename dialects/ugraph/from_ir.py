"""IR -> model: a `func.func` of kernel-dialect ops becomes a `Graph`."""

from __future__ import annotations

from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, SSAValue

from mirage.dialects.block import ForLoopOp
from mirage.dialects.ugraph.convert import attr_from_ir, type_from_ir
from mirage.dialects.ugraph.graph import Graph, Op


class UnsupportedOpError(ValueError):
    """An op that has no place in a μGraph."""


_LEVELS = ("kernel", "block", "thread")


def graph_from_func(func: FuncOp) -> Graph:
    block = func.body.block
    ret = block.last_op
    if not isinstance(ret, ReturnOp):
        raise UnsupportedOpError(f"function @{func.sym_name.data} must end with func.return")
    ops = [op for op in block.ops if op is not ret]
    return _graph(list(block.args), ops, list(ret.arguments))


def _graph(
    args: list[SSAValue],
    ops: list[Operation],
    outputs: list[SSAValue],
    loop_end: int = 0,
    aliases: dict[SSAValue, SSAValue] | None = None,
) -> Graph:
    numbers: dict[SSAValue, int] = {a: i for i, a in enumerate(args)}
    model_ops: list[Op] = []
    count = len(args)
    for op in ops:
        model_ops.append(_op(op, numbers))
        for r in op.results:
            numbers[r] = count
            count += 1
        for outer, inner in (aliases or {}).items():
            if inner in numbers:
                numbers[outer] = numbers[inner]
    return Graph(
        tuple(type_from_ir(a.type) for a in args),
        tuple(model_ops),
        tuple(numbers[o] for o in outputs),
        loop_end,
    )


def _op(op: Operation, numbers: dict[SSAValue, int]) -> Op:
    dialect, _, kind = op.name.partition(".")
    if dialect not in _LEVELS:
        raise UnsupportedOpError(f"'{op.name}' is not an op of the μGraph dialects")
    body: Graph | None = None
    if op.name == "kernel.graph":
        body = block_graph(op.regions[0].block)
    elif op.name == "thread.fuse":
        entry = op.regions[0].block
        term = entry.last_op
        assert term is not None
        body = _graph(
            list(entry.args), [o for o in entry.ops if o is not term], list(term.operands)
        )
    try:
        operands = tuple(numbers[v] for v in op.operands)
    except KeyError as e:
        raise UnsupportedOpError(f"'{op.name}' uses a value from outside its graph") from e
    return Op(
        kind,
        operands,
        tuple(type_from_ir(r.type) for r in op.results),
        tuple(sorted((k, attr_from_ir(v)) for k, v in op.properties.items())),
        body,
        tuple(sorted(op.attributes.items())),
    )


def block_graph(entry: Block) -> Graph:
    loop = entry.first_op
    term = entry.last_op
    assert isinstance(loop, ForLoopOp) and term is not None
    loop_term = loop.body.block.last_op
    assert loop_term is not None
    in_loop = [o for o in loop.body.block.ops if o is not loop_term]
    after = [o for o in entry.ops if o is not loop and o is not term]
    aliases: dict[SSAValue, SSAValue] = dict(zip(loop.results, loop_term.operands, strict=True))
    return _graph(list(entry.args), in_loop + after, list(term.operands), len(in_loop), aliases)
