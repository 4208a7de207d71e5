"""The program fused as it is: all of its ops in one graph-defined op.

Its structure (each kernel op becomes the block op of the same kind, in the loop; the
outputs leave it through accum_sum) is one point of the search space, built directly
instead of found by enumeration. Parallelized and verified like any candidate, it gives
the search a first bound: a prefix that cannot beat it is not explored. (On long chains
of elementwise ops the enumeration may not finish in its budget; the search then still
returns a fused kernel.)
"""

from __future__ import annotations

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import BLOCK, KERNEL, OP_KINDS
from mirage.dialects.shapes import REPLICATE
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.superoptimize.blockgen import COMPUTE_DTYPE, THREADS
from mirage.passes.superoptimize.kernelgen import with_output_types
from mirage.passes.superoptimize.parallelize import parallelizations

BLOCK_KINDS = frozenset(
    k.name for k in OP_KINDS.values() if BLOCK in k.levels and KERNEL in k.levels
)
_NO_MAP = (REPLICATE, REPLICATE, REPLICATE)


def fused_structure(program: Graph) -> Op | None:
    """The structure of the whole program in one launch (whole tensors, one block, one
    iteration), or None if an op has no block-level form."""
    if any(op.kind not in BLOCK_KINDS for op in program.ops):
        return None
    n_args = len(program.args)
    used = sorted({v for op in program.ops for v in op.operands if v < n_args})
    if not program.ops or any(v < n_args for v in program.outputs):
        return None
    ops: list[Op] = []
    number: dict[int, int] = {}
    n = len(used)
    for i, v in enumerate(used):
        ops.append(make_op("input", [i], [program.args[v]], imap=_NO_MAP, forloop_dim=-1))
        number[v] = n
        n += 1
    for op, results in program.result_ids():
        types = tuple(TensorType(t.shape, COMPUTE_DTYPE) for t in op.results)
        ops.append(Op(op.kind, tuple(number[v] for v in op.operands), types, op.attrs))
        for r in results:
            number[r] = n
            n += 1
    accumulated: dict[int, int] = {}
    for v in dict.fromkeys(program.outputs):
        ty = TensorType(program.type_of(v).shape, COMPUTE_DTYPE)
        ops.append(make_op("accum_sum", [number[v]], [ty]))
        accumulated[v] = n
        n += 1
    loop_end = len(ops)
    outs: list[int] = []
    out_types: list[TensorType] = []
    for v in program.outputs:
        ty = TensorType(program.type_of(v).shape, COMPUTE_DTYPE)
        ops.append(make_op("output", [accumulated[v]], [ty], omap=_NO_MAP))
        outs.append(n)
        out_types.append(ty)
        n += 1
    body = Graph(tuple(program.args[v] for v in used), tuple(ops), tuple(outs), loop_end)
    return make_op(
        "graph", used, out_types, body=body, grid=(1, 1, 1), block=THREADS, forloop_range=1
    )


def parallelized(program: Graph, structure: Op, target: Target) -> Graph | None:
    """The program as one launch: `structure` (all of the program in one launch, one
    result per output) parallelized the cheapest way, its outputs in the program's
    dtypes; None where no parallelization fits the target."""
    types = [program.args[v] for v in structure.operands]
    found = parallelizations(structure, types, target, partial=False)
    if not found:
        return None
    n = len(program.args)
    graph = Graph(program.args, (found[0].op,), tuple(range(n, n + len(structure.results))))
    return with_output_types(graph, program.output_types)
