"""Abstract expressions of the search's values, one op at a time.

The pruner's rules (`mirage.passes.pruning.AbstractExprs`) are applied to each new op on
its operands' expressions, so that asking whether a prefix may stay costs one op, not the
whole prefix: the prefix's other values were asked about when they were made."""

from __future__ import annotations

from collections.abc import Sequence

from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.pruning import AbstractExprs, Term
from mirage.passes.superoptimize.launch import one_op_launch


def op_terms(op: Op, types: Sequence[TensorType], operands: Sequence[Term]) -> tuple[Term, ...]:
    """The expressions of a kernel-level op's results (a graph op included)."""
    k = len(types)
    local = Op(op.kind, tuple(range(k)), op.results, op.attrs, op.body)
    graph = Graph(tuple(types), (local,), tuple(range(k, k + len(op.results))))
    return AbstractExprs.of(graph, args=list(operands)).outputs


_block_memo: dict[tuple[object, ...], Term] = {}
_MEMO_LIMIT = 1 << 20


def block_op_term(
    op: Op, types: Sequence[TensorType], operands: Sequence[Term], post: bool
) -> Term:
    """The expression of a block op of a structure (whole tensors, one iteration)."""
    # Terms are interned: equal operands are the same objects, cheap to hash.
    key = (op.kind, op.attrs, tuple(operands), tuple(t.shape for t in types), post)
    term = _block_memo.get(key)
    if term is None:
        (term,) = op_terms(one_op_launch(op, types, post), types, operands)
        if len(_block_memo) >= _MEMO_LIMIT:
            _block_memo.clear()
        _block_memo[key] = term
    return term
