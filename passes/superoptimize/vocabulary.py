"""The op kinds and constants the search may use, derived from the input program.

The pruner would reject an op whose abstract expression is no part of the program's (an
exp where the program has none); leaving such kinds out of the generator saves asking.
Kept besides the program's own kinds: what computes them across a loop (rms_norm:
accum_rms_last and a division after the loop; a sum over a dim: accum_sum_last).
"""

from __future__ import annotations

from dataclasses import dataclass

from mirage.dialects.opkinds import (
    BINARY_KINDS,
    CONCATS,
    CONTRACTIONS,
    NORMS,
    OP_KINDS,
    REDUCTIONS,
    SEARCH_ORDER,
    UNARY_KINDS,
)
from mirage.dialects.ugraph.graph import Graph

Attrs = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Vocabulary:
    unary: tuple[str, ...]
    binary: tuple[str, ...]
    contractions: tuple[str, ...]
    reductions: tuple[str, ...]
    norms: tuple[str, ...]
    concats: tuple[str, ...]
    scaled: tuple[tuple[str, Attrs], ...]
    """Pointwise kinds with constant parameters, with each parameter set of the program."""
    accumulators: tuple[str, ...]
    reduce_sizes: tuple[int, ...]
    """Sizes a kernel-level reduction may reduce to (1 and the extents of the program's
    tensors); block-level reductions reduce to 1."""


def vocabulary_of(program: Graph) -> Vocabulary:
    kinds: set[str] = set()
    scaled: set[tuple[str, Attrs]] = set()
    sizes: set[int] = {1}

    def visit(graph: Graph) -> None:
        for op in graph.ops:
            kinds.add(op.kind)
            params = OP_KINDS[op.kind].params if op.kind in OP_KINDS else ()
            if params:
                values: Attrs = tuple((name, op.float_attr(name)) for name in params)
                scaled.add((op.kind, values))
            for t in op.results:
                sizes.update(t.shape)
            if op.body is not None:
                visit(op.body)

    visit(program)
    for t in program.args:
        sizes.update(t.shape)
    # Across a loop, rms_norm becomes accum_rms_last and a division after the loop; a sum
    # over a dim, accum_sum_last; a mean, accum_mean_last (each record says what it needs).
    for k in list(kinds):
        if k in OP_KINDS:
            kinds.update(OP_KINDS[k].implies)
    accumulators = [
        k for k in SEARCH_ORDER if any(need <= kinds for need in OP_KINDS[k].offered_with)
    ]

    def present(group: frozenset[str]) -> tuple[str, ...]:
        return tuple(k for k in SEARCH_ORDER if k in group and k in kinds)

    return Vocabulary(
        unary=tuple(k.name for k in UNARY_KINDS if k.name in kinds),
        binary=tuple(k.name for k in BINARY_KINDS if k.name in kinds),
        contractions=present(CONTRACTIONS),
        reductions=present(REDUCTIONS),
        norms=present(NORMS),
        concats=present(CONCATS),
        scaled=tuple(sorted(scaled, key=lambda e: (e[0], tuple(float(v) for _, v in e[1])))),
        accumulators=tuple(accumulators),
        reduce_sizes=tuple(sorted(sizes)),
    )
