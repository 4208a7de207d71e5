"""The op kinds and constants the search may use, derived from the input program.

The pruner would reject an op whose abstract expression is no part of the program's (an
exp where the program has none); leaving such kinds out of the generator saves asking.
Kept besides the program's own kinds: what computes them across a loop (rms_norm:
accum_rms_last and a division after the loop, a multiplication by its gain and an addition
of its bias; a sum over a dim: accum_sum_last), and the norms' epsilons.
"""

from __future__ import annotations

from dataclasses import dataclass

from mirage.dialects.opkinds import (
    BINARY_KINDS,
    CONCATS,
    CONTRACTIONS,
    EPS_KINDS,
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
    norm_eps: tuple[float, ...] = ()
    """The program's norm epsilons (other than 0): each kind of `EPS_KINDS` is offered
    with each."""

    def eps_variants(self, kind: str) -> list[tuple[tuple[str, object], ...]]:
        """The attrs `kind` is offered with: no eps, and each of the program's."""
        plain: list[tuple[tuple[str, object], ...]] = [()]
        if kind not in EPS_KINDS:
            return plain
        return plain + [(("eps", e),) for e in self.norm_eps]


def vocabulary_of(program: Graph) -> Vocabulary:
    kinds: set[str] = set()
    scaled: set[tuple[str, Attrs]] = set()
    sizes: set[int] = {1}
    epsilons: set[float] = set()

    def visit(graph: Graph) -> None:
        for op in graph.ops:
            kinds.add(op.kind)
            record = OP_KINDS.get(op.kind)
            if record is not None:
                if record.eps and op.eps:
                    epsilons.add(op.eps)
                # what applies its optional operands (rms_norm's gain and bias), in the
                # loop or after it
                kinds.update(record.operand_implies[: len(op.operands) - 1])
            params = record.params if record is not None else ()
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
        norm_eps=tuple(sorted(epsilons)),
    )
