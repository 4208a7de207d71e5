"""Shape families: a searched μGraph carried over to another shape of the same program.

Dynamo presents a new batch size or sequence length as the same FX graph at other shapes;
the kernel-level program differs only in its shapes. The μGraph found for one member keeps
its structure (kernels, block ops, thread bodies, how the grid and the loop cut each
tensor) and gets new grid and loop extents for the new shapes
(`parallelize.reparallelize`), then is proven equivalent to the new program by the same
verifier as a searched candidate. Where the structure does not fit the new shapes (an
extent that no longer divides, a reshape built for the old shape), the caller searches.

The search uses the same carrying-over for programs too large to verify many candidates
at their own shapes (`proxy_member`): it searches a small member of the family, where a
verification takes milliseconds, and carries what it finds back to the program's shapes,
where each carried-over μGraph is verified again before it is taken.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import LAUNCHES, LOOP_MAX, RESHAPES
from mirage.dialects.shapes import ShapeError
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.superoptimize.infer import result_shape
from mirage.passes.superoptimize.parallelize import reparallelize

PROXY_ELEMENTS = 1 << 27
"""Programs whose tensors (arguments and op results) hold more elements than this are
searched at a small member of their family (`proxy_member`): one verification of a fused
candidate at this size takes tens of seconds on one core, so at their own shapes a search
of two minutes verifies a handful."""
SMALL_EXTENT = 16
"""Extents up to this stay as they are in the small member (heads, LoRA ranks, unit
dims): they decide which tilings exist."""
PROXY_STEP = 32
"""The small member's larger extents are multiples of this: large enough that the cost
model still sees tiles, loops and grids of a few blocks, as at the program's shapes."""


def family_key(program: Graph) -> str:
    """The program with its shapes left out: ops, operands, attributes, element types and
    ranks. Members of a family differ only in extents."""

    def erase(graph: Graph) -> object:
        return [
            [f"{len(t.shape)}d{t.dtype}" for t in graph.args],
            [
                [
                    op.kind,
                    list(op.operands),
                    [f"{len(t.shape)}d{t.dtype}" for t in op.results],
                    [[k, repr(v)] for k, v in op.attrs if k != "shape"],
                    None if op.body is None else erase(op.body),
                ]
                for op in graph.ops
            ],
            list(graph.outputs),
            graph.loop_end,
        ]

    return hashlib.sha256(json.dumps(erase(program)).encode()).hexdigest()


def retile(found: Graph, program: Graph, target: Target, recut: bool = True) -> Graph | None:
    """`found` (a μGraph of a program of the same family) re-parallelized for `program`'s
    shapes, unverified; None where its structure does not fit them. `recut` false: only
    whether it fits is wanted (`reparallelize` then tries no other cut). A split-KV pair,
    whose key split no layout pattern re-cuts, is built again for `program` by the
    generator that makes such pairs (`online_split.py`), where that gives its structure."""
    if len(found.args) != len(program.args):
        return None
    for old, new in zip(found.args, program.args, strict=True):
        if old.dtype != new.dtype or len(old.shape) != len(new.shape):
            return None
    graph = _recut(found, program, target, recut)
    if graph is None and _split_pair(found):
        return next(
            (g for g in _split_pairs(program, target) if _structure(g) == _structure(found)),
            None,
        )
    return graph


def _split_pair(graph: Graph) -> bool:
    """Two launches, the first keeping running maxima (accum_max) to combine by."""
    kernels = [op for op in graph.ops if op.kind in LAUNCHES]
    first = kernels[0].body if kernels else None
    return len(kernels) == 2 and first is not None and any(op.kind in LOOP_MAX for op in first.ops)


@lru_cache(maxsize=64)
def _split_pairs(program: Graph, target: Target) -> tuple[Graph, ...]:
    # imported here: the generator prices with the cost model, which the family's users
    # (the search, the backend) load anyway, and which needs nothing of this module
    from mirage.passes.superoptimize.online_split import online_split_candidates

    return tuple(online_split_candidates(program, target))


def _structure(graph: Graph) -> tuple[object, ...]:
    """The ops' kinds, and their bodies' op kinds, in order: what the pair generator's
    choices (pattern, extents) leave fixed."""
    return tuple(
        (op.kind, tuple(b.kind for b in op.body.ops) if op.body is not None else ())
        for op in graph.ops
    )


def _recut(found: Graph, program: Graph, target: Target, recut: bool) -> Graph | None:
    """`found` with each op re-parallelized for `program`'s shapes (`retile`)."""
    types: list[TensorType] = list(program.args)
    ops: list[Op] = []
    for op in found.ops:
        operand_types = [types[v] for v in op.operands]
        old_types = [found.type_of(v) for v in op.operands]
        new_op = _retile_op(op, old_types, operand_types, target, recut)
        if new_op is None:
            return None
        ops.append(new_op)
        types.extend(new_op.results)
    graph = Graph(program.args, tuple(ops), found.outputs, found.loop_end)
    if graph.output_types != program.output_types:
        return None
    return graph


def _retile_op(
    op: Op,
    old_types: list[TensorType],
    operand_types: list[TensorType],
    target: Target | None,
    recut: bool,
) -> Op | None:
    """`op`, whose operands had `old_types`, for operands of `operand_types`."""
    if op.kind != "graph" and operand_types == old_types:
        return op  # its operands keep their shapes (a gain's reshape): so does it
    if op.kind in RESHAPES and len(op.results) == 1 and len(old_types) == 1:
        return _reshaped_rows(op, old_types[0], operand_types[0])
    if op.kind == "graph":
        if target is None:
            return None
        par = reparallelize(op, operand_types, target, recut)
        return None if par is None else par.op
    try:
        shape = result_shape(op.kind, dict(op.attrs), [t.shape for t in operand_types])
    except ShapeError:
        return None  # transposes, constants: built for the old shapes
    if len(op.results) != 1:
        return None
    return Op(op.kind, op.operands, (TensorType(shape, op.results[0].dtype),), op.attrs, op.body)


def _reshaped_rows(op: Op, old: TensorType, new: TensorType) -> Op | None:
    """A reshape that only added or dropped unit dims, or kept dim 0 and reshaped the rest
    of each row (for an operand whose dim 0 alone changed): the same reshape of the new
    operand; None for any other reshape (its result shape was built for the old one)."""
    result = op.results[0]
    if len(new.shape) != len(old.shape):
        return None
    if [d == 1 for d in new.shape] == [d == 1 for d in old.shape] and [
        d for d in old.shape if d != 1
    ] == [d for d in result.shape if d != 1]:
        # unit dims added or dropped (a gain or bias made (1, n)): the same for new extents
        extents = iter(d for d in new.shape if d != 1)
        shape = tuple(1 if d == 1 else next(extents) for d in result.shape)
    elif old.shape and result.shape and old.shape[0] == result.shape[0]:
        if new.shape[1:] != old.shape[1:]:
            return None
        shape = (new.shape[0], *result.shape[1:])
    else:
        return None
    return Op(op.kind, op.operands, (TensorType(shape, result.dtype),), op.attrs, op.body)


def reshape_program(template: Graph, args: tuple[TensorType, ...]) -> Graph | None:
    """A kernel-level program of the family of `template` at the argument types `args`,
    its result shapes inferred by the dialect's shape rules: what importing the same
    subgraph at these shapes gives, without the import. None where an op's attributes
    are shapes built for the old ones (transposes, constants, reshapes other than of the
    rest of each row) or the shapes do not fit."""
    if len(args) != len(template.args):
        return None
    for old, new in zip(template.args, args, strict=True):
        if old.dtype != new.dtype or len(old.shape) != len(new.shape):
            return None
        if any((a == 1) != (b == 1) for a, b in zip(old.shape, new.shape, strict=True)):
            return None  # broadcasting changes
    types: list[TensorType] = list(args)
    ops: list[Op] = []
    for op in template.ops:
        if op.kind == "graph":
            return None
        old_types = [template.type_of(v) for v in op.operands]
        new_op = _retile_op(op, old_types, [types[v] for v in op.operands], None, False)
        if new_op is None:
            return None
        ops.append(new_op)
        types.extend(new_op.results)
    return Graph(args, tuple(ops), template.outputs, template.loop_end)


def proxy_member(program: Graph) -> Graph | None:
    """A small member of `program`'s family: each extent above `SMALL_EXTENT` becomes a
    multiple of `PROXY_STEP` (or stays, where it is smaller), in the same order, distinct
    extents staying distinct (so that no square matrix stands in for an oblong one). None
    where the family has no such member (an op whose attributes are shapes) or the
    program is not larger than it."""
    extents = sorted({d for t in program.args for d in t.shape if d > SMALL_EXTENT})
    small = {d: min(d, PROXY_STEP * (i + 2)) for i, d in enumerate(extents)}
    args = tuple(TensorType(tuple(small.get(d, d) for d in t.shape), t.dtype) for t in program.args)
    if args == program.args:
        return None
    return reshape_program(program, args)


def program_elements(program: Graph) -> int:
    """The elements of the program's arguments and op results."""
    return sum(t.numel for t in program.args) + sum(
        t.numel for op in program.ops for t in op.results
    )
