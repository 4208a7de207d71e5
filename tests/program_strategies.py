"""Hypothesis strategies of random well-formed μGraph programs, built through the model:
kernel ops over random shapes, small kernel.graphs (random grids, maps, loop ranges,
per-iteration ops, accumulators, post-loop ops, output savers) and thread.fuse chains."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import strategies as st

from mirage.dialects import shapes
from mirage.dialects.opkinds import BINARY_KINDS, UNARY_KINDS
from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS, Graph, Op, TensorType, make_op

DTYPES = ("f16", "bf16", "f32")
UNARY = [k.name for k in UNARY_KINDS]
BINARY = [k.name for k in BINARY_KINDS]
SCALARS = st.floats(-4.0, 4.0, allow_nan=False, allow_infinity=False)


class Builder:
    """Numbers values as the model does: arguments first, then every op's results."""

    def __init__(self, args: Sequence[TensorType]) -> None:
        self.args = tuple(args)
        self.types: list[TensorType] = list(args)
        self.ops: list[Op] = []

    def add(
        self, kind: str, operands: Sequence[int], results: Sequence[TensorType], **kw: object
    ) -> list[int]:
        body = kw.pop("body", None)
        first = len(self.types)
        self.ops.append(make_op(kind, list(operands), list(results), body, **kw))  # type: ignore[arg-type]
        self.types.extend(results)
        return list(range(first, len(self.types)))

    def graph(self, outputs: Sequence[int], loop_end: int = 0) -> Graph:
        return Graph(self.args, tuple(self.ops), tuple(outputs), loop_end)


def _pairs(b: Builder, values: Sequence[int], rule: str) -> list[tuple[int, int, tuple[int, ...]]]:
    out: list[tuple[int, int, tuple[int, ...]]] = []
    for x, y in itertools.product(values, repeat=2):
        try:
            fn = shapes.broadcast if rule == "broadcast" else shapes.matmul
            out.append((x, y, fn(b.types[x].shape, b.types[y].shape)))
        except shapes.ShapeError:
            pass
    return out


def _dtype(data: st.DataObject) -> str:
    return data.draw(st.sampled_from(DTYPES))


def _thread_body(data: st.DataObject, n_inputs: int, dtype: str) -> tuple[Graph, int]:
    """A scalar chain over `n_inputs` arguments of one type; returns (body, result count)."""
    scalar = TensorType((), dtype)
    b = Builder([scalar] * n_inputs)
    values = list(range(n_inputs))
    for _ in range(data.draw(st.integers(1, 3))):
        choice = data.draw(st.sampled_from(["unary", "binary", "mul_scalar"]))
        if choice == "unary":
            values += b.add(
                data.draw(st.sampled_from(UNARY)), [data.draw(st.sampled_from(values))], [scalar]
            )
        elif choice == "binary":
            x, y = data.draw(st.sampled_from(values)), data.draw(st.sampled_from(values))
            values += b.add(data.draw(st.sampled_from(BINARY)), [x, y], [scalar])
        else:
            values += b.add(
                "mul_scalar",
                [data.draw(st.sampled_from(values))],
                [scalar],
                scalar=data.draw(SCALARS),
            )
    n_out = data.draw(st.integers(1, 2))
    outs = [data.draw(st.sampled_from(values[n_inputs:])) for _ in range(n_out)]
    return b.graph(outs), n_out


OP_CHOICES = ["unary", "binary", "mul_scalar", "reduce", "rms_norm", "matmul", "concat"]


def _tile_op(data: st.DataObject, b: Builder, values: list[int], block_level: bool) -> None:
    """One random op on tiles (block level, where thread.fuse is too) or device tensors."""
    choice = data.draw(st.sampled_from([*OP_CHOICES, "fuse"] if block_level else OP_CHOICES))
    if choice == "unary":
        x = data.draw(st.sampled_from(values))
        kind = data.draw(st.sampled_from(UNARY))
        values += b.add(kind, [x], [TensorType(b.types[x].shape, _dtype(data))])
    elif choice == "binary":
        x, y, shape = data.draw(st.sampled_from(_pairs(b, values, "broadcast")))
        values += b.add(
            data.draw(st.sampled_from(BINARY)), [x, y], [TensorType(shape, _dtype(data))]
        )
    elif choice == "mul_scalar":
        x = data.draw(st.sampled_from(values))
        values += b.add("mul_scalar", [x], [b.types[x]], scalar=data.draw(SCALARS))
    elif choice == "reduce":
        x = data.draw(st.sampled_from(values))
        shape = b.types[x].shape
        dim = data.draw(st.integers(0, len(shape) - 1))
        size = data.draw(
            st.sampled_from([s for s in range(1, shape[dim] + 1) if shape[dim] % s == 0])
        )
        kind = data.draw(st.sampled_from(["reduce_sum", "reduce_max"]))
        out = shapes.reduce(shape, dim, size)
        values += b.add(kind, [x], [TensorType(out, _dtype(data))], dim=dim, size=size)
    elif choice == "rms_norm":
        x = data.draw(st.sampled_from(values))
        values += b.add("rms_norm", [x], [b.types[x]])
    elif choice == "matmul":
        pairs = _pairs(b, values, "matmul")
        if pairs:
            x, y, shape = data.draw(st.sampled_from(pairs))
            values += b.add("matmul", [x, y], [TensorType(shape, _dtype(data))])
    elif choice == "concat":
        x = data.draw(st.sampled_from(values))
        shape = b.types[x].shape
        dim = data.draw(st.integers(0, len(shape) - 1))
        out = shapes.concat([shape, shape], dim)
        values += b.add("concat", [x, x], [TensorType(out, b.types[x].dtype)], dim=dim)
    else:
        x, y, shape = data.draw(st.sampled_from(_pairs(b, values, "broadcast")))
        dtype = b.types[x].dtype
        inputs = [x] if y == x or b.types[y].dtype != dtype else [x, y]
        in_shape = shapes.broadcast_all([b.types[i].shape for i in inputs])
        body, n_out = _thread_body(data, len(inputs), dtype)
        values += b.add("fuse", inputs, [TensorType(in_shape, dtype)] * n_out, body=body)


def _block_graph(
    data: st.DataObject, sources: Sequence[TensorType]
) -> tuple[Graph, dict[str, object]] | None:
    grid = (data.draw(st.sampled_from([1, 2])), data.draw(st.sampled_from([1, 2])), 1)
    loops = data.draw(st.sampled_from([1, 2, 4]))
    b = Builder(sources)
    tiles: list[int] = []
    for i, src in enumerate(sources):
        rank = len(src.shape)
        choices = []
        for imap in itertools.product(range(-1, rank), repeat=3):
            mapped = [d for d in imap if d != -1]
            if len(mapped) != len(set(mapped)):
                continue
            for fdim in range(-1, rank):
                try:
                    tile = shapes.tile_shape(src.shape, imap, fdim, grid, loops)
                except shapes.ShapeError:
                    continue
                choices.append((imap, fdim, tile))
        if not choices:
            return None
        imap, fdim, tile = data.draw(st.sampled_from(choices))
        tiles += b.add("input", [i], [TensorType(tile, src.dtype)], imap=imap, forloop_dim=fdim)
    for _ in range(data.draw(st.integers(0, 3))):
        _tile_op(data, b, tiles, True)
    accumulators: list[int] = []
    for _ in range(data.draw(st.integers(1, 2))):
        v = data.draw(st.sampled_from(tiles))
        kind = data.draw(st.sampled_from(ACCUMULATOR_KINDS))
        shape = b.types[v].shape
        if kind == "accum_rescale":
            scale = shapes.reduce(shape, len(shape) - 1, 1)
            (s,) = b.add("reduce_max", [v], [TensorType(scale, "f32")], dim=len(shape) - 1, size=1)
            tiles.append(s)
            accumulators += b.add(kind, [v, s], [TensorType(shape, _dtype(data))])
        else:
            out = shapes.last_dim_to_one(shape) if kind.endswith("_last") else shape
            accumulators += b.add(kind, [v], [TensorType(out, _dtype(data))])
    loop_end = len(b.ops)
    post = list(accumulators)
    for _ in range(data.draw(st.integers(0, 2))):
        _tile_op(data, b, post, True)
    outputs: list[int] = []
    for _ in range(data.draw(st.integers(1, 2))):
        v = data.draw(st.sampled_from(post))
        shape = b.types[v].shape
        dims = data.draw(st.permutations(range(len(shape))))
        omap = tuple(dims[g] if grid[g] > 1 else -1 for g in range(3))
        full = shapes.saved_shape(shape, omap, grid)
        outputs += b.add("output", [v], [TensorType(full, _dtype(data))], omap=omap)
    attrs: dict[str, object] = {"grid": grid, "block": (128, 1, 1), "forloop_range": loops}
    return b.graph(outputs, loop_end), attrs


def kernel_programs(data: st.DataObject) -> Graph:
    dims = st.sampled_from([1, 2, 4])
    n_args = data.draw(st.integers(1, 3))
    args = [
        TensorType(tuple(data.draw(st.lists(dims, min_size=2, max_size=3))), _dtype(data))
        for _ in range(n_args)
    ]
    b = Builder(args)
    values = list(range(n_args))
    for _ in range(data.draw(st.integers(1, 4))):
        if data.draw(st.booleans()):
            _tile_op(data, b, values, False)
            continue
        sources = data.draw(st.lists(st.sampled_from(values), min_size=1, max_size=2))
        made = _block_graph(data, [b.types[s] for s in sources])
        if made is None:
            continue
        body, attrs = made
        values += b.add("graph", sources, list(body.output_types), body=body, **attrs)
    if len(values) == n_args:
        values += b.add("exp", [0], [args[0]])
    outs = data.draw(st.lists(st.sampled_from(values[n_args:]), min_size=1, max_size=3))
    return b.graph(outs)
