"""Norms distributed over the matmul that reads them, so that one loop over the
contraction accumulates the product and the row statistics side by side.

A norm feeding a linear layer, y = ((x - m) / s * g + b) @ W, with m the mean of each row
of x (0 for an RMS norm), s = sqrt(mean((x - m)^2) + eps) and an optional gain g and bias
b broadcast along the rows, is in exact arithmetic, for any c constant along each row,

    y = (((x - c) * g) @ W - (m - c) * (g @ W)) / s + b @ W,
    m - c = mean(x - c),   mean((x - m)^2) = mean((x - c)^2) - (m - c)^2,

where m, s and c are scalars per row and g @ W, b @ W one row each. Written that way the
statistics are sums over the contracted dim, as the product is: a kernel that walks that
dim in a loop accumulates all of them and applies the norm after the loop, where the norm
as written needs each whole row before the first product (rows of thousands of elements
fit no block beside the weight's tiles). The shift c is the row's first element (a window
of x, read beside its tiles): the two sums then cancel about as much as the row's spread
against its own values, not its mean against its spread (with c = 0 a row of mean 256 and
spread 1 loses sixteen bits). An RMS norm (m = 0) needs no shift. The rewritten program
is one more program for the seeds to fuse (`search.py`); what they find is verified
against the program as written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mirage.dialects.opkinds import (
    CONTRACTIONS,
    MUL_SCALAR,
    NORMS,
    PRODUCTS,
    SHIFTS,
    SUM_REDUCTIONS,
)
from mirage.dialects.ugraph.graph import AttrValue, Graph, Op, TensorType

COMPUTE = "f32"


@dataclass(frozen=True)
class _Norm:
    """A norm chain whose only reader is a matmul's left operand."""

    x: int
    """The normed value (before the mean is subtracted)."""
    centered: bool
    """A layer norm: the row mean is subtracted first."""
    eps: float
    gain: int | None
    bias: int | None
    row_gains: tuple[int, ...]
    """Further row vectors the norm's result is multiplied by (a gain applied after it)."""


@dataclass(frozen=True)
class _Statistics:
    """What every matmul that reads one norm shares."""

    lhs: int
    """x (less its shift) times the gain: the left operand of each product."""
    gain: int | None
    bias: int | None
    mean: int | None
    """The row means of x less its shift (a layer norm)."""
    root: int
    """sqrt(variance + eps) per row."""


def distribute_norms(program: Graph) -> Graph | None:
    """The program with each norm that only matmuls read (as their left operand)
    distributed over them; None where it has none."""
    readers = _readers(program)
    producer = program.producers()
    found: dict[int, _Norm] = {}
    for j, op in enumerate(program.ops):
        if op.kind in NORMS:
            norm, matmuls = _norm_at(program, producer, readers, j)
            found.update(dict.fromkeys(matmuls, norm) if norm is not None else {})
    if not found:
        return None
    out = _Builder(program)
    for j, (op, results) in enumerate(program.result_ids()):
        norm = found.get(j)
        if norm is None:
            out.copy(op, results)
        else:
            out.number[results[0]] = out.distributed(norm, op)
    return _without_unread(out.graph())


def _readers(program: Graph) -> dict[int, list[int]]:
    readers: dict[int, list[int]] = {}
    for j, op in enumerate(program.ops):
        for v in op.operands:
            readers.setdefault(v, []).append(j)
    for v in program.outputs:
        readers.setdefault(v, []).append(-1)
    return readers


def _row_vector(program: Graph, v: int, like: int) -> bool:
    """`v` broadcasts along the rows of `like`: ones but for its last dim, which is
    `like`'s."""
    shape, full = program.type_of(v).shape, program.type_of(like).shape
    return len(shape) == len(full) and shape[-1] == full[-1] and all(d == 1 for d in shape[:-1])


def _norm_at(
    program: Graph, producer: dict[int, int], readers: dict[int, list[int]], j: int
) -> tuple[_Norm | None, list[int]]:
    """The norm op `j` with the row gains after it, and the matmuls that read the result
    (as their left operand, each a rank-2 product); (None, []) where anything else reads
    it or a value of the chain."""
    (v,) = [r for r, k in producer.items() if k == j]
    if len(program.type_of(v).shape) != 2:
        return None, []
    row_gains: list[int] = []
    while True:
        uses = readers.get(v, [])
        if len(uses) != 1 or uses[0] < 0 or program.ops[uses[0]].kind not in PRODUCTS:
            break
        op = program.ops[uses[0]]
        a, b = op.operands
        gain = b if a == v else a
        if a == b or not _row_vector(program, gain, v):
            break
        if op.results[0].shape != program.type_of(v).shape:
            break
        row_gains.append(gain)
        (v,) = [r for r, k in producer.items() if k == uses[0]]
    matmuls = readers.get(v, [])
    for k in matmuls:
        op = program.ops[k] if k >= 0 else None
        if (
            op is None
            or op.kind not in CONTRACTIONS
            or op.operands[0] != v
            or op.operands[1] == v
            or len(program.type_of(op.operands[1]).shape) != 2
        ):
            return None, []
    if not matmuls:
        return None, []
    norm = program.ops[j]
    x, *affine = norm.operands
    gain = affine[0] if affine else None
    bias = affine[1] if len(affine) > 1 else None
    centered = _centered(program, producer, readers, x)
    if centered is not None:
        if readers.get(x) != [j]:
            return None, []
        x = centered
    return _Norm(x, centered is not None, norm.eps, gain, bias, tuple(row_gains)), matmuls


def _centered(
    program: Graph, producer: dict[int, int], readers: dict[int, list[int]], c: int
) -> int | None:
    """x where `c` is x - mean(x) over its rows (sub of x and mul_scalar(reduce_sum(x),
    1/n)); None otherwise."""
    j = producer.get(c)
    if j is None or program.ops[j].kind not in SHIFTS:
        return None
    x, mean = program.ops[j].operands
    k = producer.get(mean)
    if k is None or program.ops[k].kind != MUL_SCALAR.name or readers.get(mean) != [j]:
        return None
    total = program.ops[k].operands[0]
    r = producer.get(total)
    if r is None or readers.get(total) != [k]:
        return None
    reduce = program.ops[r]
    n = program.type_of(x).shape[-1]
    if (
        reduce.kind not in SUM_REDUCTIONS
        or reduce.operands[0] != x
        or reduce.int_attr("dim") != len(program.type_of(x).shape) - 1
        or reduce.int_attr("size") != 1
        or not math.isclose(program.ops[k].float_attr("scalar"), 1.0 / n, rel_tol=1e-6)
    ):
        return None
    return x


class _Builder:
    """A program written op by op over the arguments of another."""

    def __init__(self, program: Graph) -> None:
        self.program = program
        self.ops: list[Op] = []
        self.number: dict[int, int] = {v: v for v in range(len(program.args))}
        self.next = len(program.args)
        self.statistics: dict[_Norm, _Statistics] = {}

    def emit(
        self, kind: str, operands: list[int], shape: tuple[int, ...], dtype: str, **attrs: AttrValue
    ) -> int:
        result = (TensorType(shape, dtype),)
        self.ops.append(Op(kind, tuple(operands), result, tuple(sorted(attrs.items()))))
        self.next += 1
        return self.next - 1

    def copy(self, op: Op, results: tuple[int, ...]) -> None:
        operands = tuple(self.number[v] for v in op.operands)
        self.ops.append(Op(op.kind, operands, op.results, op.attrs, op.body))
        for r in results:
            self.number[r] = self.next
            self.next += 1

    def _statistics(self, norm: _Norm) -> _Statistics:
        """The norm's gain, bias, row means and roots, written once for every matmul that
        reads the norm."""
        known = self.statistics.get(norm)
        if known is not None:
            return known
        p = self.program
        x = self.number[norm.x]
        rows, k = p.type_of(norm.x).shape
        row = (rows, 1)
        gains = [self.number[g] for g in norm.row_gains]
        if norm.gain is not None:
            gains.insert(0, self.number[norm.gain])
        gain: int | None = None
        for g in gains:
            gain = g if gain is None else self.emit("mul", [gain, g], (1, k), COMPUTE)
        bias = self.number[norm.bias] if norm.bias is not None else None
        if bias is not None:
            for g in gains[1:]:
                bias = self.emit("mul", [bias, g], (1, k), COMPUTE)
        x_dtype = p.type_of(norm.x).dtype
        if norm.centered:
            first = self.emit("slice", [x], row, x_dtype, offsets=(0, 0))
            x = self.emit("sub", [x, first], (rows, k), x_dtype)
        squares = self.emit("square", [x], (rows, k), COMPUTE)
        sum_sq = self.emit("reduce_sum", [squares], row, COMPUTE, dim=1, size=1)
        variance = self.emit("mul_scalar", [sum_sq], row, COMPUTE, scalar=1.0 / k)
        mean: int | None = None
        if norm.centered:
            total = self.emit("reduce_sum", [x], row, COMPUTE, dim=1, size=1)
            mean = self.emit("mul_scalar", [total], row, COMPUTE, scalar=1.0 / k)
            mean_sq = self.emit("square", [mean], row, COMPUTE)
            variance = self.emit("sub", [variance, mean_sq], row, COMPUTE)
        if norm.eps:
            variance = self.emit("add_scalar", [variance], row, COMPUTE, scalar=norm.eps)
        root = self.emit("sqrt", [variance], row, COMPUTE)
        lhs = x if gain is None else self.emit("mul", [x, gain], (rows, k), x_dtype)
        found = _Statistics(lhs, gain, bias, mean, root)
        self.statistics[norm] = found
        return found

    def distributed(self, norm: _Norm, matmul: Op) -> int:
        """The value of `matmul` (which reads the norm) written with the norm after it."""
        stats = self._statistics(norm)
        rows = self.program.type_of(norm.x).shape[0]
        n = self.program.type_of(matmul.operands[1]).shape[1]
        w = self.number[matmul.operands[1]]
        out = matmul.results[0]
        product = self.emit("matmul", [stats.lhs, w], (rows, n), COMPUTE)
        if stats.mean is not None:
            if stats.gain is not None:
                column = self.emit("matmul", [stats.gain, w], (1, n), COMPUTE)
            else:
                column = self.emit("reduce_sum", [w], (1, n), COMPUTE, dim=0, size=1)
            shift = self.emit("mul", [stats.mean, column], (rows, n), COMPUTE)
            product = self.emit("sub", [product, shift], (rows, n), COMPUTE)
        dtype = out.dtype if stats.bias is None else COMPUTE
        y = self.emit("div", [product, stats.root], (rows, n), dtype)
        if stats.bias is not None:
            shifted = self.emit("matmul", [stats.bias, w], (1, n), COMPUTE)
            y = self.emit("add", [y, shifted], (rows, n), out.dtype)
        return y

    def graph(self) -> Graph:
        outputs = tuple(self.number[v] for v in self.program.outputs)
        return Graph(self.program.args, tuple(self.ops), outputs)


def _without_unread(graph: Graph) -> Graph:
    """The graph without the ops whose results nothing reads."""
    live = set(graph.outputs)
    keep: list[bool] = []
    ids = [ids for _, ids in graph.result_ids()]
    for j in reversed(range(len(graph.ops))):
        used = any(r in live for r in ids[j])
        keep.append(used)
        if used:
            live.update(graph.ops[j].operands)
    keep.reverse()
    number = {v: v for v in range(len(graph.args))}
    ops: list[Op] = []
    n = len(graph.args)
    for j, op in enumerate(graph.ops):
        if not keep[j]:
            continue
        ops.append(
            Op(op.kind, tuple(number[v] for v in op.operands), op.results, op.attrs, op.body)
        )
        for r in ids[j]:
            number[r] = n
            n += 1
    return Graph(graph.args, tuple(ops), tuple(number[v] for v in graph.outputs))
