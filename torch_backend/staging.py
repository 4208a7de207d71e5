"""A partition of many contraction stages cut into one subgraph per stage.

A whole transformer block is one maximal subgraph of expressible nodes, and its search at
realistic shapes does not end in a budget: every candidate of the block is verified on
random inputs as large as all its weights and its KV cache together, tens of times. The
launches an expert writes for it are one per contraction stage (the kernel dialect's
rule, `passes/superoptimize/stages.py`, which the search's stage seed follows): a
contraction that reads another's result needs whole rows of it. Cut there, each stage is
a subgraph of its own, searched, verified, cached and re-tiled alone, at a fraction of
the inputs; and a stage the search cannot improve stays in PyTorch while the others run
as our kernels.

The stage of a node follows the same rule on the FX graph, from the kernel ops each node
imports as (`Answer.kinds`): a node holding a contraction is one stage past the deepest
stage it reads, except the weighted sum of a softmax (a contraction reading, since the
last contraction on its path, values through an exponential and a sum: attention, which
one kernel walks in online form) stays in its scores' stage; nodes before every
contraction join the first stage that reads them (a norm as its prologue), nodes after
one stay in its stage as its epilogue (a bias, an activation, a residual), except row work
(a norm) that only later stages read: it joins the next one as its prologue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from torch import fx

from mirage.dialects.opkinds import (
    CONTRACTIONS,
    EXPONENTIALS,
    LAYOUT_OPS,
    REDUCTIONS,
    RESHAPES,
    SLICES,
    SUM_REDUCTIONS,
)
from mirage.torch.capability import Answer

_VIEWS = SLICES | RESHAPES


@dataclass(frozen=True)
class _Path:
    depth: int
    """Contractions on the longest path from the partition's inputs (0: none yet)."""
    exp: bool = False
    sum: bool = False
    rows: bool = False
    """An exponential, a sum reduction, any reduction, on that path since its last
    contraction."""


def node_stages(nodes: Sequence[fx.Node], answers: Mapping[fx.Node, Answer]) -> list[int]:
    """Per node of a partition (in graph order), its contraction stage, from 1."""
    inside = set(nodes)
    paths: dict[fx.Node, _Path] = {}
    for node in nodes:
        kinds = answers[node].kinds
        read = [paths[n] for n in node.all_input_nodes if n in inside]
        depth = max((p.depth for p in read), default=0)
        if kinds & CONTRACTIONS:
            weighted_sum = depth > 0 and any(p.exp and p.sum for p in read)
            paths[node] = _Path(depth + (0 if weighted_sum else 1))
            continue
        paths[node] = _Path(
            depth,
            any(p.exp for p in read) or bool(kinds & EXPONENTIALS),
            any(p.sum for p in read) or bool(kinds & SUM_REDUCTIONS),
            any(p.rows for p in read) or bool(kinds & REDUCTIONS),
        )
    stage: dict[fx.Node, int] = {}
    prologue: set[fx.Node] = set()
    for node in reversed(nodes):
        path = paths[node]
        readers = [u for u in node.users if u in inside]
        later = min((stage[u] for u in readers), default=0)
        if answers[node].kinds & CONTRACTIONS:
            stage[node] = path.depth
        elif path.depth == 0:
            stage[node] = later or 1
        elif later > path.depth and (
            path.rows
            or _moves_only(answers[node], LAYOUT_OPS)
            or all(u in prologue for u in readers)
        ):
            # row work on a contraction's result that only later stages read (a norm
            # after the residual): the next stage's prologue, where each block recomputes
            # it from the rows it reads, not an epilogue that needs a whole row per block;
            # a view of it (the queries' slice of a QKV projection): a view of the next
            # stage's input
            stage[node] = later
            prologue.add(node)
        else:
            stage[node] = path.depth
    return [stage[n] for n in nodes]


def _moves_only(answer: Answer, kinds: frozenset[str]) -> bool:
    """The node imports as data movement of `kinds` alone."""
    return answer.compute_ops == 0 and bool(answer.kinds) and answer.kinds <= kinds


def cut_by_stage(
    nodes: Sequence[fx.Node], answers: Mapping[fx.Node, Answer], max_stages: int
) -> tuple[list[list[fx.Node]], list[fx.Node]]:
    """The partition as it is where it has at most `max_stages` stages, else one piece per
    stage (in stage order, each in graph order); and the nodes left to PyTorch: a cut
    partition's slices and reshapes of stage results that only PyTorch reads (the K and
    V of a QKV projection, returned for the cache), views there, where in a stage they
    would be outputs of their own beside the value they view."""
    stages = node_stages(nodes, answers)
    if max(stages, default=1) <= max_stages:
        return [list(nodes)], []
    kept = set(nodes)
    left: list[fx.Node] = []
    for node in reversed(nodes):
        if (
            _moves_only(answers[node], _VIEWS)
            and not any(u in kept for u in node.users)
            and any(n in kept for n in node.all_input_nodes)
        ):
            kept.discard(node)
            left.append(node)
    pieces: dict[int, list[fx.Node]] = {}
    for node, s in zip(nodes, stages, strict=True):
        if node in kept:
            pieces.setdefault(s, []).append(node)
    return [pieces[s] for s in sorted(pieces)], left[::-1]
