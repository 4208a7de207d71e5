"""The op kinds and constants the search may use, derived from the input program.

The pruner would reject an op whose abstract expression is no part of the program's (an
exp where the program has none); leaving such kinds out of the generator saves asking.
Kept besides the program's own kinds: what computes them across a loop (rms_norm:
accum_rms_last and a division after the loop, a multiplication by its gain and an addition
of its bias; a sum over a dim: accum_sum_last), and the norms' epsilons.
"""

from __future__ import annotations

from dataclasses import dataclass

from mirage.dialects.opkinds import BINARY_KINDS, EPS_KINDS, UNARY_KINDS
from mirage.dialects.ugraph.graph import Graph

_UNARY = frozenset(k.name for k in UNARY_KINDS)
_BINARY = frozenset(k.name for k in BINARY_KINDS)


@dataclass(frozen=True)
class Vocabulary:
    unary: tuple[str, ...]
    binary: tuple[str, ...]
    matmul: bool
    reductions: tuple[str, ...]
    rms_norm: bool
    concat: bool
    scalars: tuple[float, ...]
    accumulators: tuple[str, ...]
    reduce_sizes: tuple[int, ...]
    """Sizes a kernel-level reduction may reduce to (1 and the extents of the program's
    tensors); block-level reductions reduce to 1."""
    norm_eps: tuple[float, ...] = ()
    """The program's norm epsilons (other than 0): rms_norm, accum_mean_last and
    accum_rms_last are offered with each."""

    def eps_variants(self, kind: str) -> list[tuple[tuple[str, object], ...]]:
        """The attrs `kind` is offered with: no eps, and each of the program's."""
        plain: list[tuple[tuple[str, object], ...]] = [()]
        if kind not in EPS_KINDS:
            return plain
        return plain + [(("eps", e),) for e in self.norm_eps]


def vocabulary_of(program: Graph) -> Vocabulary:
    kinds: set[str] = set()
    scalars: set[float] = set()
    sizes: set[int] = {1}
    epsilons: set[float] = set()

    def visit(graph: Graph) -> None:
        for op in graph.ops:
            kinds.add(op.kind)
            if op.kind in EPS_KINDS and op.eps:
                epsilons.add(op.eps)
            if op.kind == "rms_norm" and len(op.operands) > 1:
                kinds.add("mul")  # the gain, applied in the loop or after it
            if op.kind == "rms_norm" and len(op.operands) > 2:
                kinds.add("add")
            if op.kind == "mul_scalar":
                scalars.add(op.float_attr("scalar"))
            for t in op.results:
                sizes.update(t.shape)
            if op.body is not None:
                visit(op.body)

    visit(program)
    for t in program.args:
        sizes.update(t.shape)
    # Across a loop, rms_norm becomes accum_rms_last and a division after the loop; a sum
    # over a dim, accum_sum_last; a mean, accum_mean_last.
    if "rms_norm" in kinds:
        kinds.add("div")
    accumulators = ["accum_sum"]
    if "reduce_max" in kinds or "max" in kinds:
        accumulators.append("accum_max")
    if "reduce_sum" in kinds:
        accumulators.append("accum_sum_last")
    if {"reduce_sum", "mul_scalar"} <= kinds:
        accumulators.append("accum_mean_last")
    if "rms_norm" in kinds or {"reduce_sum", "sqrt"} <= kinds:
        accumulators.append("accum_rms_last")
    return Vocabulary(
        unary=tuple(k.name for k in UNARY_KINDS if k.name in kinds),
        binary=tuple(k.name for k in BINARY_KINDS if k.name in kinds),
        matmul="matmul" in kinds,
        reductions=tuple(k for k in ("reduce_sum", "reduce_max") if k in kinds),
        rms_norm="rms_norm" in kinds,
        concat="concat" in kinds,
        scalars=tuple(sorted(scalars)),
        accumulators=tuple(accumulators),
        reduce_sizes=tuple(sorted(sizes)),
        norm_eps=tuple(sorted(epsilons)),
    )
