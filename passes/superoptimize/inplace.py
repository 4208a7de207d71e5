"""Layout ops between the kernels of a μGraph folded into the kernels' views.

What normalization (`normalize.py`) cannot remove before the search is a reshape or a
transpose between two computed values: the keys normed and then transposed (QK-norm), the
heads merged back before the output projection. The μGraph found keeps them as kernel ops
between its kernels. Here a chain of them is folded into its neighbours instead:

- into the kernel that makes its operand, where nothing else reads that result: the output
  saver writes the chain's result through a view (`block.output` view/strides);
- else into the kernels that read its result: their input iterators read the operand
  through a view (`block.input` view/strides, and an offset where the chain slices: a
  window); a plain kernel op that reads a window is wrapped as a kernel.graph to do so.

A chain that is not a strided view of its operand (a reshape merging dims that a
transpose separated), or whose neighbours already read or write through views, stays.
"""

from __future__ import annotations

from dataclasses import replace

from mirage.dialects.opkinds import INPUTS, LAUNCHES, LAYOUT_OPS, PERMUTES, SLICES
from mirage.dialects.strides import (
    Strides,
    contiguous,
    is_window,
    reshaped_strides,
    row_major,
    transposed,
)
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.lowering.optimize.wrap import UNWRAPPED, wrap_op

Shape = tuple[int, ...]


def fold_layout_ops(graph: Graph) -> Graph:
    """The kernel-level graph with every foldable chain of layout ops folded."""
    while True:
        folded = _fold_one(graph)
        if folded is None:
            return graph
        graph = folded


def _perm(op: Op) -> list[int]:
    return list(op.ints_attr("permutation"))


def _forward(op: Op, shape: Shape, strides: Strides) -> tuple[Strides, int] | None:
    """The strides of a layout op's result into the storage its operand's view reads, and
    the elements its first element lies past the operand's."""
    if op.kind in PERMUTES:
        return transposed(shape, strides, _perm(op))[1], 0
    if op.kind in SLICES:
        return strides, sum(o * s for o, s in zip(op.ints_attr("offsets"), strides, strict=True))
    got = reshaped_strides(shape, strides, op.results[0].shape)
    return None if got is None else (got, 0)


def _backward(op: Op, shape: Shape, strides: Strides, operand: Shape) -> Strides | None:
    """The strides of a layout op's operand into the storage of its result's view (none
    for a slice: a saver writes every element of its tensor)."""
    if op.kind in SLICES:
        return None
    if op.kind in PERMUTES:
        p = _perm(op)
        return transposed(shape, strides, [p.index(d) for d in range(len(p))])[1]
    return reshaped_strides(shape, strides, operand)


def _fold_one(graph: Graph) -> Graph | None:
    made = graph.producers()
    users: dict[int, list[int]] = {}
    for j, op in enumerate(graph.ops):
        for v in op.operands:
            users.setdefault(v, []).append(j)
    outputs = set(graph.outputs)
    results = [ids for _, ids in graph.result_ids()]
    for j, op in enumerate(graph.ops):
        if op.kind not in LAYOUT_OPS:
            continue
        source = op.operands[0]
        head = made.get(source)
        if head is not None and graph.ops[head].kind in LAYOUT_OPS:
            continue  # not the first op of its chain
        # the chain: single-reader layout ops from `source`
        chain = [j]
        while True:
            end = results[chain[-1]][0]
            nxt = users.get(end, [])
            if len(nxt) == 1 and graph.ops[nxt[0]].kind in LAYOUT_OPS and end not in outputs:
                chain.append(nxt[0])
            else:
                break
        end = results[chain[-1]][0]
        if head is not None and graph.ops[head].kind in LAUNCHES:
            folded = _into_producer(graph, head, source, chain, users, outputs)
            if folded is not None:
                return folded
        folded = _into_readers(graph, source, chain, users)
        if folded is not None:
            return folded
        del end
    return None


def _into_producer(
    graph: Graph,
    head: int,
    source: int,
    chain: list[int],
    users: dict[int, list[int]],
    outputs: set[int],
) -> Graph | None:
    if users.get(source, []) != [chain[0]] or source in outputs:
        return None
    end_type = graph.ops[chain[-1]].results[0]
    shape = end_type.shape
    strides: Strides | None = row_major(shape)
    for j in reversed(chain):
        op = graph.ops[j]
        operand = graph.type_of(op.operands[0]).shape
        assert strides is not None
        strides = _backward(op, shape, strides, operand)
        if strides is None:
            return None
        shape = operand
    assert strides is not None
    if contiguous(shape, strides):
        return None  # a retype: the reshape launches nothing
    producer = graph.ops[head]
    body = producer.body
    assert body is not None
    k = [ids for _, ids in graph.result_ids()][head].index(source)
    saver_value = body.outputs[k]
    if body.outputs.count(saver_value) != 1:
        return None
    saver_index = body.producers()[saver_value]
    saver = body.ops[saver_index]
    if saver.viewed:
        return None
    new_saver = _viewed(saver, shape, strides)
    new_saver = replace(new_saver, results=(TensorType(end_type.shape, saver.results[0].dtype),))
    ops = list(body.ops)
    ops[saver_index] = new_saver
    new_body = Graph(body.args, tuple(ops), body.outputs, body.loop_end)
    new_results = list(producer.results)
    new_results[k] = TensorType(end_type.shape, producer.results[k].dtype)
    new_producer = replace(producer, results=tuple(new_results), body=new_body)
    # the chain's end is now the producer's result: drop the chain, renumber
    end = [ids for _, ids in graph.result_ids()][chain[-1]][0]
    return _rebuild(graph, {head: new_producer}, set(chain), {end: source})


def _into_readers(
    graph: Graph, source: int, chain: list[int], users: dict[int, list[int]]
) -> Graph | None:
    end = [ids for _, ids in graph.result_ids()][chain[-1]][0]
    readers = users.get(end, [])
    if end in graph.outputs:
        return None  # the chain's result is needed itself
    # A window read by a plain kernel op would be a copy of its own: the op is wrapped as
    # the kernel.graph the lowering makes of it, which then reads the window in place.
    slicing = any(graph.ops[j].kind in SLICES for j in chain)
    wrapped = {
        r: w for r in readers if slicing and (w := _wrapped(graph, graph.ops[r])) is not None
    }
    if not readers or any(graph.ops[r].kind not in LAUNCHES and r not in wrapped for r in readers):
        return None
    storage = graph.type_of(source).shape
    shape = storage
    strides = row_major(shape)
    offset = 0
    for j in chain:
        op = graph.ops[j]
        step = _forward(op, shape, strides)
        if step is None:
            return None
        strides, offset = step[0], offset + step[1]
        shape = op.results[0].shape
    if not is_window(storage, shape, offset) and contiguous(shape, strides):
        return None  # a retype: the reshape launches nothing
    replaced: dict[int, Op] = {}
    for r in readers:
        reader = wrapped.get(r, graph.ops[r])
        if r in wrapped:
            reader = replace(reader, operands=graph.ops[r].operands)
        body = reader.body
        assert body is not None
        args = list(body.args)
        operands = list(reader.operands)
        ops = list(body.ops)
        for i, v in enumerate(reader.operands):
            if v != end:
                continue
            operands[i] = source
            args[i] = graph.type_of(source)
            for b, bop in enumerate(ops):
                if bop.kind in INPUTS and bop.operands[0] == i:
                    if bop.viewed:
                        return None
                    ops[b] = _viewed(bop, shape, strides, offset)
        new_body = Graph(tuple(args), tuple(ops), body.outputs, body.loop_end)
        replaced[r] = replace(reader, operands=tuple(operands), body=new_body)
    return _rebuild(graph, replaced, set(chain), {})


def _wrapped(graph: Graph, op: Op) -> Op | None:
    """A plain kernel op as the kernel.graph the lowering runs it as (None where it has no
    block form)."""
    if op.kind in UNWRAPPED:
        return None
    try:
        return wrap_op(op, [graph.type_of(v) for v in op.operands])
    except ValueError:
        return None


def _viewed(op: Op, shape: Shape, strides: Strides, offset: int = 0) -> Op:
    attrs = dict(op.attrs)
    attrs["view"] = tuple(shape)
    attrs["strides"] = tuple(strides)
    if offset:
        attrs["offset"] = offset
    return replace(op, attrs=tuple(sorted(attrs.items())))


def _rebuild(
    graph: Graph, replaced: dict[int, Op], dropped: set[int], alias: dict[int, int]
) -> Graph:
    """The graph with ops replaced, ops dropped (their results read nowhere, or aliased to
    another value) and values renumbered."""
    number = {v: v for v in range(len(graph.args))}
    ops: list[Op] = []
    n = len(graph.args)
    for j, (op, ids) in enumerate(graph.result_ids()):
        if j in dropped:
            continue
        op = replaced.get(j, op)
        ops.append(replace(op, operands=tuple(number[alias.get(v, v)] for v in op.operands)))
        for v in ids:
            number[v] = n
            n += 1
    for old, new in alias.items():
        number[old] = number[new]
    return Graph(graph.args, tuple(ops), tuple(number[alias.get(v, v)] for v in graph.outputs))
