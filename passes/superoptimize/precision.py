"""Element types of block values that feed matmuls.

Block ops compute in f32 (`blockgen.COMPUTE_DTYPE`). A matmul runs on tensor cores only when
both operands are f16 (or both bf16); an f32 operand sends it to the CUDA cores, many times
slower. So an elementwise block value (or thread-level chain) that a matmul reads next to an
f16/bf16 operand is stored in that type, as the program itself stores every kernel op's
result (exp(Q K) in attention is f16 in the program too). The verifier's random tests do
not see element types; its stability check runs the candidate in float32 and float64.
"""

from __future__ import annotations

from mirage.dialects.opkinds import CONTRACTIONS, FUSED
from mirage.dialects.ugraph.graph import Graph, Op, TensorType

_NARROWABLE = FUSED
TENSOR_CORE_DTYPES = ("f16", "bf16")


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
