"""The program's softmax-weighted sum fused with online softmax: one point of the search
space, built directly like the fused structure of `seed.py`.

A chain e = exp(z), d = reduce_sum(e) over the last dim, then (e / d) @ V or (e @ V) / d,
with z = s - reduce_max(s) (softmax as PyTorch writes it) or z = s (the max left out),
becomes, in the loop, the tile's own maximum m = reduce_max(s), e = exp(s - m), the partial
products e @ V and sums of e, each carried out of the loop by accum_rescale(., m) (which
rescales what it holds whenever a later tile raises the maximum), and after the loop their
quotient. Parallelized with the loop over the key dim this is a FlashAttention-style kernel:
exp never sees more than 0 and no partial result grows with the keys' magnitude, so it is
finite in f16 where exp(s) itself overflows. Ops before the chain run in the loop; ops that
read only the quotient run after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mirage.dialects.opkinds import (
    CONTRACTIONS,
    EXPONENTIALS,
    MAX_REDUCTIONS,
    QUOTIENTS,
    SHIFTS,
    SUM_REDUCTIONS,
)
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.superoptimize.blockgen import COMPUTE_DTYPE, NO_MAP, THREADS
from mirage.passes.superoptimize.precision import TENSOR_CORE_DTYPES
from mirage.passes.superoptimize.seed import BLOCK_KINDS


@dataclass(frozen=True)
class _Chain:
    scores: int
    """s: the value whose softmax weights the sum."""
    values: int
    """V of the weighted sum."""
    chain_ops: frozenset[int]
    """Program ops the online form replaces (max, shift, exp, sum, div, matmul)."""
    result: int
    """The value the chain computes, softmax(s) @ V."""
    matmul: int
    """The index of the weighted sum's matmul."""
    weights: int
    """The value of exp (unnormalized, or divided by its sum) that the matmul reads."""


def _find_chains(program: Graph) -> list[_Chain]:
    producer = program.producers()
    uses: dict[int, list[int]] = {}
    for j, op in enumerate(program.ops):
        for v in op.operands:
            uses.setdefault(v, []).append(j)
    for v in program.outputs:
        uses.setdefault(v, []).append(-1)

    def made_by(v: int, kinds: frozenset[str]) -> Op | None:
        j = producer.get(v)
        return program.ops[j] if j is not None and program.ops[j].kind in kinds else None

    def last_dim_reduction(op: Op) -> bool:
        rank = len(program.type_of(op.operands[0]).shape)
        return op.int_attr("dim") == rank - 1 and op.int_attr("size") == 1

    chains: list[_Chain] = []
    for j, op in enumerate(program.ops):
        if op.kind not in QUOTIENTS:
            continue
        num, den = op.operands
        total = made_by(den, SUM_REDUCTIONS)
        if total is None or not last_dim_reduction(total) or uses[den] != [j]:
            continue
        e = total.operands[0]
        (quotient,) = [r for r, k in producer.items() if k == j]
        if num == e:  # (e / d) @ V
            readers = uses.get(quotient, [])
            if len(readers) != 1 or readers[0] < 0:
                continue
            mm_index = readers[0]
            mm = program.ops[mm_index]
            if mm.kind not in CONTRACTIONS or mm.operands[0] != quotient:
                continue
            (result,) = [r for r, k in producer.items() if k == mm_index]
        else:  # (e @ V) / d
            mm_op = made_by(num, CONTRACTIONS)
            if mm_op is None or mm_op.operands[0] != e or uses[num] != [j]:
                continue
            mm_index = producer[num]
            mm = mm_op
            result = quotient
        if sorted(uses[e]) != sorted([producer[den], j if num == e else mm_index]):
            continue
        exp = made_by(e, EXPONENTIALS)
        if exp is None:
            continue
        ops = {producer[e], producer[den], j, mm_index}
        z = exp.operands[0]
        scores = z
        shift = made_by(z, SHIFTS)
        if shift is not None and uses[z] == [producer[e]]:
            top = made_by(shift.operands[1], MAX_REDUCTIONS)
            if (
                top is not None
                and top.operands[0] == shift.operands[0]
                and last_dim_reduction(top)
                and uses[shift.operands[1]] == [producer[z]]
            ):
                scores = shift.operands[0]
                ops |= {producer[z], producer[shift.operands[1]]}
        chains.append(
            _Chain(scores, mm.operands[1], frozenset(ops), result, mm_index, mm.operands[0])
        )
    return chains


def softmax_weighted_sums(program: Graph) -> list[tuple[int, int]]:
    """Per softmax-weighted sum of the program: the index of its matmul and the value of
    exp (or of exp over its sum) that the matmul reads, which the online form computes in
    the same loop as the scores."""
    return [(chain.matmul, chain.weights) for chain in _find_chains(program)]


def online_structure(program: Graph) -> Op | None:
    """The program in one launch with its softmax-weighted sum in online form (whole
    tensors, one block, one iteration: the parallelizer places the loop), or None where
    the program has no such chain or other ops that cannot run before or after it."""
    if any(op.kind not in BLOCK_KINDS or len(op.results) != 1 for op in program.ops):
        return None
    chains = _find_chains(program)
    if len(chains) != 1:
        return None
    (chain,) = chains
    n_args = len(program.args)
    producer = program.producers()
    before: set[int] = set()

    def ancestors(v: int) -> None:
        j = producer.get(v)
        if j is None or j in before:
            return
        before.add(j)
        for u in program.ops[j].operands:
            ancestors(u)

    ancestors(chain.scores)
    ancestors(chain.values)
    if before & chain.chain_ops:
        return None
    after: set[int] = set()
    computed_after = {chain.result}
    for j, (op, (r,)) in enumerate(program.result_ids()):
        if j in before or j in chain.chain_ops:
            continue
        if not all(v in computed_after for v in op.operands):
            return None  # reads a value of the loop besides the chain's result
        after.add(j)
        computed_after.add(r)
    if not all(v in computed_after for v in program.outputs):
        return None

    used = sorted({v for j in before for v in program.ops[j].operands if v < n_args})
    used = sorted({*used, *(v for v in (chain.scores, chain.values) if v < n_args)})
    ops: list[Op] = []
    number: dict[int, int] = {}

    def emit(op: Op) -> int:
        ops.append(op)
        return len(used) + len(ops) - 1

    for i, v in enumerate(used):
        number[v] = emit(make_op("input", [i], [program.args[v]], imap=NO_MAP, forloop_dim=-1))
    matmul_operands = {v for op in program.ops if op.kind in CONTRACTIONS for v in op.operands}
    for j, (op, (r,)) in enumerate(program.result_ids()):
        if j in before:
            # What a matmul reads keeps the program's f16/bf16 (as the program stores it),
            # so that the matmul runs on tensor cores even when both operands are computed
            # (normalized Q and K in QK-norm attention).
            dtype = op.results[0].dtype
            if (
                r not in matmul_operands
                or dtype not in TENSOR_CORE_DTYPES
                or op.kind in CONTRACTIONS
            ):
                dtype = COMPUTE_DTYPE
            ty = TensorType(op.results[0].shape, dtype)
            number[r] = emit(Op(op.kind, tuple(number[v] for v in op.operands), (ty,), op.attrs))

    def f32(shape: tuple[int, ...]) -> TensorType:
        return TensorType(shape, COMPUTE_DTYPE)

    s_shape = program.type_of(chain.scores).shape
    row = (*s_shape[:-1], 1)
    out_shape = program.type_of(chain.result).shape
    s, v = number[chain.scores], number[chain.values]
    last = len(s_shape) - 1
    m = emit(make_op("reduce_max", [s], [f32(row)], dim=last, size=1))
    z = emit(make_op("sub", [s, m], [f32(s_shape)]))
    e = emit(make_op("exp", [z], [f32(s_shape)]))
    num = emit(make_op("matmul", [e, v], [f32(out_shape)]))
    den = emit(make_op("reduce_sum", [e], [f32(row)], dim=last, size=1))
    acc_num = emit(make_op("accum_rescale", [num, m], [f32(out_shape)]))
    acc_den = emit(make_op("accum_rescale", [den, m], [f32(row)]))
    loop_end = len(ops)
    number[chain.result] = emit(make_op("div", [acc_num, acc_den], [f32(out_shape)]))
    for j, (op, (r,)) in enumerate(program.result_ids()):
        if j in after:
            ty = f32(op.results[0].shape)
            number[r] = emit(Op(op.kind, tuple(number[v] for v in op.operands), (ty,), op.attrs))
    outs: list[int] = []
    out_types: list[TensorType] = []
    for value in program.outputs:
        ty = f32(program.type_of(value).shape)
        outs.append(emit(make_op("output", [number[value]], [ty], omap=NO_MAP)))
        out_types.append(ty)
    body = Graph(tuple(program.args[v] for v in used), tuple(ops), tuple(outs), loop_end)
    return make_op(
        "graph", used, out_types, body=body, grid=(1, 1, 1), block=THREADS, forloop_range=1
    )
