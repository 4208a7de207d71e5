"""Pruning the μGraph search by abstract expressions (paper §4, Tables 1 and 2).

Every value of a μGraph gets an abstract expression, a term over uninterpreted functions
that says what it computes up to layout and constants (`exprs.py`, paper Table 1). A
prefix of the search can still grow into a μGraph equivalent to the target only if every
value's expression is a subexpression of the target's, under the axioms A_eq and A_sub
(paper Table 2). The check puts both sides in a canonical form, a model of A_eq
(`canonical.py`), reduces A_sub to a ground question over the target's finite closure,
and lets z3 decide it as linear integer arithmetic (`subexpr.py`); an answer z3 cannot
give keeps the prefix. Theorem 1 holds: no μGraph whose expression is A_eq-equivalent to
the target is ever pruned.

Use from the search:

    from mirage.passes.pruning import AbstractExprs, ExprBuilder, Pruner

    pruner = Pruner(target_graph, cache="~/.cache/mirage/pruning.log")
    if pruner.keep(prefix_graph):      # every value at every level fits the target;
        ...grow it...                  # ops shared with the last prefix are not redone
    pruner.keep(term)                  # one expression (say, of an op about to be added)
    AbstractExprs.of(graph)[value]     # the expression of one value; .bodies for nested ones
    b = ExprBuilder(arg_terms, arg_types, grid=(g, 1, 1), forloop_range=n)
    b.push(block_op); b.pop()          # a block graph built op by op, with backtracking
    pruner.stats                       # queries, cache_hits, disk_hits, decided, pruned, ...

Answers are cached in memory per expression and per canonical form, and, with `cache=`,
in one append-only file shared by runs and processes (`cache.py`). The pass
`annotate-abstract-expr` (`expr_annotation.py`) writes every value's expression into the IR.
"""

from mirage.passes.pruning.canonical import canonical
from mirage.passes.pruning.expr_annotation import AnnotateAbstractExprPass
from mirage.passes.pruning.exprs import ELEMENTWISE_EXPRS, AbstractExprs, ExprBuilder
from mirage.passes.pruning.pruner import Pruner, PrunerStats
from mirage.passes.pruning.subexpr import Answer, SubexprChecker
from mirage.passes.pruning.terms import Term, parse_term

__all__ = [
    "ELEMENTWISE_EXPRS",
    "AbstractExprs",
    "AnnotateAbstractExprPass",
    "Answer",
    "ExprBuilder",
    "Pruner",
    "PrunerStats",
    "SubexprChecker",
    "Term",
    "canonical",
    "parse_term",
]
