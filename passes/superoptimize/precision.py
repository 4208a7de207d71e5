"""Element types of block values that feed matmuls.

Block ops compute in f32 (`blockgen.COMPUTE_DTYPE`). A matmul runs on tensor cores only when
both operands are f16 (or both bf16); an f32 operand sends it to the CUDA cores, many times
slower. So an elementwise block value (or thread-level chain), or a product, that a matmul
reads next to an f16/bf16 operand is stored in that type, as the program itself stores
every kernel op's result (exp(Q K) in attention is f16 in the program too). The verifier's
random tests do not see element types; its stability check runs the candidate in float32
and float64.
"""

from __future__ import annotations

from mirage.dialects.opkinds import (
    ACCUMULATORS,
    CONTRACTIONS,
    FUSED,
    REDUCTIONS,
    Loop,
    accumulators_with,
)
from mirage.dialects.ugraph.graph import Graph, Op, TensorType

_NARROWABLE = FUSED | CONTRACTIONS
"""Producers whose f32 results a matmul may read in 16 bits: elementwise values, and
products (x A in LoRA's (x A) B, which the program stores in 16 bits too)."""
TENSOR_CORE_DTYPES = ("f16", "bf16")
_STATISTICS = REDUCTIONS | accumulators_with(Loop.MAX, Loop.SUM_LAST, Loop.MEAN_LAST, Loop.RMS_LAST)
"""Block ops whose results are a row's sum, mean, rms or maximum."""


def narrow_body(body: Graph) -> Graph:
    """A block graph with its elementwise matmul operands in the other operand's type."""
    n_args = len(body.args)
    producer = body.producers()
    want: dict[int, str] = {}
    for op in body.ops:
        if op.kind not in CONTRACTIONS:
            continue
        a, b = op.operands
        for mine, other in ((a, b), (b, a)):
            other_type = body.type_of(other).dtype
            if (
                mine >= n_args
                and body.type_of(mine).dtype == "f32"
                and other_type in TENSOR_CORE_DTYPES
                and body.ops[producer[mine]].kind in _NARROWABLE
                and len(body.ops[producer[mine]].results) == 1
            ):
                want.setdefault(producer[mine], other_type)
    if not want:
        return body
    ops = tuple(
        Op(op.kind, op.operands, (TensorType(op.results[0].shape, want[j]),), op.attrs, op.body)
        if j in want
        else op
        for j, op in enumerate(body.ops)
    )
    return Graph(body.args, ops, body.outputs, body.loop_end)


def narrow_matmul_operands(graph: Graph) -> Graph:
    """Every graph-defined op of a kernel-level graph, with its elementwise matmul operands
    in the other operand's f16/bf16 type."""
    return graph.with_bodies(narrow_body)


def storage_dtype(program: Graph) -> str | None:
    """The 16-bit float type a program stores its results in (None where its outputs use
    another type, or several)."""
    dtypes = {t.dtype for t in program.output_types}
    return next(iter(dtypes)) if len(dtypes) == 1 and dtypes <= set(TENSOR_CORE_DTYPES) else None


def stored_in(op: Op, dtype: str) -> Op:
    """A graph-defined op whose results a later kernel reads, with its whole f32 results
    stored in the program's 16-bit type `dtype`, as the program stores its own kernel ops'
    results: half the bytes to write and read again, and a matmul that reads one runs on
    tensor cores. A result that a reduction makes (a row's sum or maximum, which programs
    keep in f32) stays f32; the verifier's f16 storage check sees the narrowed types."""
    body = op.body
    assert body is not None
    n_args = len(body.args)
    producer = body.producers()
    body_ops = list(body.ops)
    results = list(op.results)
    for k, out in enumerate(body.outputs):
        saver = body_ops[out - n_args]
        if results[k].dtype != "f32" or _reduced(body, producer, saver.operands[0]):
            continue
        results[k] = TensorType(results[k].shape, dtype)
        body_ops[out - n_args] = Op(saver.kind, saver.operands, (results[k],), saver.attrs)
    if results == list(op.results):
        return op
    narrowed = Graph(body.args, tuple(body_ops), body.outputs, body.loop_end)
    return Op(op.kind, op.operands, tuple(results), op.attrs, narrowed)


def _reduced(body: Graph, producer: dict[int, int], value: int) -> bool:
    """Whether a reduction makes `value` (through the loop's sums)."""
    while value >= len(body.args):
        made_by = body.ops[producer[value]]
        if made_by.kind in _STATISTICS:
            return True
        if made_by.kind not in ACCUMULATORS:
            return False
        value = made_by.operands[0]
    return False
