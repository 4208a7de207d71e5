"""The program fused as it is: all of its ops in one graph-defined op.

Its structure (each kernel op becomes the block op of the same kind; the outputs leave the
loop through accum_sum) is one point of the search space, built directly instead of found
by enumeration. Parallelized and verified like any candidate, it gives the search a first
bound: a prefix that cannot beat it is not explored. (On long chains of elementwise ops
the enumeration may not finish in its budget; the search then still returns a fused
kernel.)

Ops that depend only on contraction results and on inputs nothing in the loop reads (a
bias added to x @ w) go after the loop, on the accumulated products, their inputs read
once per block (`epilogue_ops`): the loop may then walk the contraction's dim, which it
cannot where they run in every iteration.
"""

from __future__ import annotations

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import BLOCK, CONTRACTIONS, KERNEL, OP_KINDS, SUM_REDUCTIONS
from mirage.dialects.shapes import REPLICATE
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.superoptimize.algebra import distribute_norms
from mirage.passes.superoptimize.blockgen import COMPUTE_DTYPE, THREADS
from mirage.passes.superoptimize.kernelgen import with_output_types
from mirage.passes.superoptimize.parallelize import parallelizations

BLOCK_KINDS = frozenset(
    k.name for k in OP_KINDS.values() if BLOCK in k.levels and KERNEL in k.levels
)
_NO_MAP = (REPLICATE, REPLICATE, REPLICATE)


def epilogue_ops(program: Graph) -> frozenset[int]:
    """Indices of the ops that run after the loop: no contraction or sum, every operand a
    contraction's or a sum's result, the result of another such op, or an argument that no
    op in the loop reads, every reader of their results another such op (or an output); of
    those, the ones connected (through operands) to one that reads a contraction's or a
    sum's result: the rest gain nothing there."""
    n_args = len(program.args)
    producer = program.producers()
    # a sum over a dim is a contraction with ones: it stays in the loop, which may walk
    # that dim (the row statistics of a norm distributed over a matmul, `algebra.py`)
    summing = CONTRACTIONS | SUM_REDUCTIONS
    contraction = {r for r, j in producer.items() if program.ops[j].kind in summing}
    readers: dict[int, set[int]] = {j: set() for j in range(len(program.ops))}
    for k, op in enumerate(program.ops):
        for v in op.operands:
            if v >= n_args:
                readers[producer[v]].add(k)
    post = {j for j, op in enumerate(program.ops) if op.kind not in summing}
    changed = True
    while changed:
        changed = False
        loop_args = {
            v
            for j, op in enumerate(program.ops)
            if j not in post
            for v in op.operands
            if v < n_args
        }
        for j in sorted(post):
            ok = readers[j] <= post and all(
                (v not in loop_args) if v < n_args else (v in contraction or producer[v] in post)
                for v in program.ops[j].operands
            )
            if not ok:
                post.discard(j)
                changed = True
    # whole connected parts of the post-loop ops stay or go: an op in the loop never reads
    # a value of after it, nor one after it a value of the loop but through an accumulator
    kept: set[int] = set()
    for j in sorted(post):
        if j in kept or not any(v in contraction for v in program.ops[j].operands):
            continue
        stack = [j]
        while stack:
            k = stack.pop()
            if k in kept:
                continue
            kept.add(k)
            near = {producer[v] for v in program.ops[k].operands if v >= n_args} | readers[k]
            stack.extend(near & post)
    return frozenset(kept)


def fused_structure(program: Graph, epilogue: bool = True) -> Op | None:
    """The structure of the whole program in one launch (whole tensors, one block, one
    iteration), or None if an op has no block-level form. With `epilogue`, the
    `epilogue_ops` run after the loop; without, every op runs in it."""
    if any(op.kind not in BLOCK_KINDS for op in program.ops):
        return None
    n_args = len(program.args)
    used = sorted({v for op in program.ops for v in op.operands if v < n_args})
    if not program.ops or any(v < n_args for v in program.outputs):
        return None
    post = epilogue_ops(program) if epilogue else frozenset[int]()
    producer = program.producers()
    results = [r for _, r in program.result_ids()]
    post_args = {v for j in post for v in program.ops[j].operands if v < n_args}
    ops: list[Op] = []
    number: dict[int, int] = {}
    n = len(used)

    def emit(op: Op) -> int:
        nonlocal n
        ops.append(op)
        first = n
        n += len(op.results)
        return first

    def read(v: int) -> None:
        number[v] = emit(
            make_op("input", [used.index(v)], [program.args[v]], imap=_NO_MAP, forloop_dim=-1)
        )

    def compute(j: int) -> None:
        op = program.ops[j]
        types = tuple(TensorType(t.shape, COMPUTE_DTYPE) for t in op.results)
        first = emit(Op(op.kind, tuple(number[v] for v in op.operands), types, op.attrs))
        for i, r in enumerate(results[j]):
            number[r] = first + i

    for v in used:
        if v not in post_args:
            read(v)
    for j in range(len(program.ops)):
        if j not in post:
            compute(j)
    # what leaves the loop: the outputs computed in it, the products the epilogue reads
    leaving = [v for v in program.outputs if producer[v] not in post]
    leaving += [
        v
        for j in sorted(post)
        for v in program.ops[j].operands
        if v >= n_args and producer[v] not in post
    ]
    accumulated: dict[int, int] = {}
    for v in dict.fromkeys(leaving):
        ty = TensorType(program.type_of(v).shape, COMPUTE_DTYPE)
        accumulated[v] = emit(make_op("accum_sum", [number[v]], [ty]))
    loop_end = len(ops)
    number.update(accumulated)
    for v in used:
        if v in post_args:
            read(v)
    for j in sorted(post):
        compute(j)
    outs: list[int] = []
    out_types: list[TensorType] = []
    for v in program.outputs:
        ty = TensorType(program.type_of(v).shape, COMPUTE_DTYPE)
        outs.append(emit(make_op("output", [number[v]], [ty], omap=_NO_MAP)))
        out_types.append(ty)
    body = Graph(tuple(program.args[v] for v in used), tuple(ops), tuple(outs), loop_end)
    return make_op(
        "graph", used, out_types, body=body, grid=(1, 1, 1), block=THREADS, forloop_range=1
    )


def fused_forms(program: Graph) -> list[Op]:
    """The program's structures in one launch (`fused_structure`, with and without its
    epilogue after the loop), and those of the program with its norms distributed over
    the matmuls that read them (`algebra.distribute_norms`), whose loop can walk the
    contraction; those it has."""
    programs = [program]
    distributed = distribute_norms(program)
    if distributed is not None:
        programs.append(distributed)
    forms = [fused_structure(p, epilogue) for p in programs for epilogue in (True, False)]
    return list(dict.fromkeys(op for op in forms if op is not None))


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
