"""Copies: a sum over elements that are copies of each other is a constant factor. The
claims are checked against the values: wherever a digit of a dim is said to be a copy,
the evaluated tensor is the same along it, in every known-good μGraph and in every
variant of their maps that verifies."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pruning.prune_helpers import UGRAPHS, known_good, load_functions, random_inputs
from xdsl.utils.exceptions import DiagnosticException

from mirage.dialects import shapes
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.shapes import REPLICATE
from mirage.dialects.ugraph import Graph, Op, TensorType
from mirage.dialects.ugraph.graph import make_op
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.pruning import AbstractExprs, ExprBuilder, Pruner, canonical
from mirage.passes.pruning.copies import (
    Factors,
    copies,
    distinct,
    meet,
    meet_broadcast,
    normal,
    split,
)
from mirage.passes.pruning.terms import Var


def test_digits() -> None:
    assert normal([(1, False), (2, True), (3, True), (4, False)]) == ((6, True), (4, False))
    assert distinct(1) == ()
    f: Factors = ((4, True), (8, False))
    assert split(f, [2, 2, 8]) == [((2, True),), ((2, True),), ((8, False),)]
    assert split(f, [8, 4]) == [((4, True), (2, False)), ((4, False),)]
    assert split(f, [3, 32 // 3]) is None
    assert split(f, [64]) is None  # the extents must add up
    assert copies(f) == 4
    assert meet(f, ((2, True), (16, True))) == ((4, True), (8, False))
    assert meet(((3, True), (2, False)), ((2, True), (3, False))) == ((6, False),)
    assert meet_broadcast([(((4, True),),), ((),)], (4,)) == (((4, True),),)


def _kernel_layouts(graph: Graph) -> list[tuple[int, tuple[Factors, ...]]]:
    builder = ExprBuilder([Var(f"a{i}") for i in range(len(graph.args))], graph.args)
    for op in graph.ops:
        builder.push(op)
    n = len(graph.args)
    return [(v, builder.layouts[v]) for v in range(n, len(builder.layouts))]


def _same_along_copies(array: np.ndarray, layout: tuple[Factors, ...]) -> bool:
    for d, factors in enumerate(layout):
        digits = [e for e, _ in factors]
        if not digits:
            continue
        shape = (*array.shape[:d], *digits, *array.shape[d + 1 :])
        view = array.reshape(shape)
        for k, (_, copy) in enumerate(factors):
            if copy and not np.all(np.ptp(view, axis=d + k) == 0):
                return False
    return True


def _check_claims(graph: Graph) -> int:
    """Evaluate every kernel-level value and check its copies; the claims checked."""
    everything = dataclasses.replace(graph, outputs=tuple(range(len(graph.args), graph.num_values)))
    values = evaluate(everything, random_inputs(graph, seed=3), FloatDomain(np.float64))
    claims = 0
    for (v, layout), array in zip(_kernel_layouts(graph), values, strict=True):
        assert array.shape == graph.type_of(v).shape
        assert _same_along_copies(array, layout), (v, layout)
        claims += sum(copies(f) > 1 for f in layout)
    return claims


KNOWN_GOOD = list(known_good())


@pytest.mark.parametrize(
    ("name", "program", "ugraph"), KNOWN_GOOD, ids=[n for n, _, _ in KNOWN_GOOD]
)
def test_copies_claimed_in_known_good_ugraphs_are_copies(
    name: str, program: Graph, ugraph: Graph
) -> None:
    claims = _check_claims(ugraph)
    if "splitk" in name:
        assert claims >= 1


def _maps(rank: int, grid: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    choices = [(REPLICATE, *range(rank)) if grid[g] > 1 else (REPLICATE,) for g in range(3)]
    for dims in itertools.product(*choices):
        mapped = [d for d in dims if d != REPLICATE]
        if len(mapped) == len(set(mapped)):
            yield dims


def _with(op: Op, **attrs: object) -> Op:
    return dataclasses.replace(op, attrs=tuple(sorted({**dict(op.attrs), **attrs}.items())))  # type: ignore[arg-type]


def _map_variants(graph: Graph) -> Iterator[Graph]:
    """Every graph with one input iterator's or output saver's map changed, that verifies."""
    for k, kop in enumerate(graph.ops):
        if kop.body is None:
            continue
        grid = kop.ints_attr("grid")
        for b, bop in enumerate(kop.body.ops):
            if bop.kind not in ("input", "output"):
                continue
            rank = len(kop.body.type_of(bop.operands[0]).shape)
            for dims in _maps(rank, grid):
                if bop.kind == "input":
                    new = [_with(bop, imap=dims, forloop_dim=f) for f in (REPLICATE, *range(rank))]
                else:
                    new = [_with(bop, omap=dims)]
                for op in new:
                    if op == bop:
                        continue
                    ops = list(kop.body.ops)
                    ops[b] = op
                    body = dataclasses.replace(kop.body, ops=tuple(ops))
                    outer = list(graph.ops)
                    outer[k] = dataclasses.replace(kop, body=body)
                    variant = dataclasses.replace(graph, ops=tuple(outer))
                    try:
                        func_from_graph("v", variant).verify()
                    except (DiagnosticException, ValueError, KeyError):
                        continue
                    yield variant


@pytest.mark.parametrize("name", ["rmsnorm_linear_splitk_small", "gqa_small", "lora_small"])
def test_copies_claimed_in_map_variants_are_copies(name: str) -> None:
    funcs = load_functions(UGRAPHS / f"{name}.mlir")
    checked = 0
    for variant in _map_variants(funcs["ugraph"]):
        _check_claims(variant)
        checked += 1
    assert checked >= 3


def test_a_sum_of_copies_is_not_a_sum() -> None:
    funcs = load_functions(UGRAPHS / "rmsnorm_linear_splitk_small.mlir")
    program, ugraph = funcs["program"], funcs["ugraph"]
    got = AbstractExprs.of(ugraph)
    # kernel 2 sums the 2 halves of K (a sum) and the 4 copies of each (not a sum)
    assert str(got.outputs[0]) == (
        "mul(sum(64, mul(arg0, arg1)), div(1, sqrt(sum(64, mul(arg0, arg0)))))"
    )
    assert canonical(got.outputs[0]) is canonical(AbstractExprs.of(program).outputs[0])
    assert Pruner(program).keep(ugraph)


@st.composite
def _launches(draw: st.DrawFn) -> Graph:
    """A launch that reads X 4x8 through a random imap and loop, applies exp, and saves the
    sum over the loop through a random omap; then a kernel-level reduction of the result."""
    x = TensorType((4, 8), "f32")
    grid = (draw(st.sampled_from([1, 2])), draw(st.sampled_from([1, 2])), 1)
    loops = draw(st.sampled_from([1, 2]))
    imap = tuple(draw(st.sampled_from([REPLICATE, 0, 1])) if g > 1 else REPLICATE for g in grid)
    fdim = draw(st.sampled_from([REPLICATE, 0, 1]))
    omap = tuple(draw(st.sampled_from([0, 1])) if g > 1 else REPLICATE for g in grid)
    assume(len({d for d in imap if d != REPLICATE}) == sum(d != REPLICATE for d in imap))
    assume(len({d for d in omap if d != REPLICATE}) == sum(d != REPLICATE for d in omap))
    try:
        tile = shapes.tile_shape(x.shape, imap, fdim, grid, loops)
        saved = shapes.saved_shape(tile, omap, grid)
    except shapes.ShapeError:
        assume(False)
        raise
    t = TensorType(tile, "f32")
    body = Graph(
        (x,),
        (
            make_op("input", (0,), (t,), imap=imap, forloop_dim=fdim),
            make_op("exp", (1,), (t,)),
            make_op("accum_sum", (2,), (t,)),
            make_op("output", (3,), (TensorType(saved, "f32"),), omap=omap),
        ),
        (4,),
        loop_end=3,
    )
    launch = make_op(
        "graph",
        (0,),
        (TensorType(saved, "f32"),),
        body,
        grid=grid,
        block=(128, 1, 1),
        forloop_range=loops,
    )
    dim = draw(st.sampled_from([0, 1]))
    reduced = (*saved[:dim], 1, *saved[dim + 1 :])
    red = make_op("reduce_sum", (1,), (TensorType(reduced, "f32"),), dim=dim, size=1)
    return Graph((x,), (launch, red), (2,))


@settings(max_examples=60, deadline=None)
@given(graph=_launches())
def test_copies_claimed_in_random_launches_are_copies(graph: Graph) -> None:
    func_from_graph("g", graph).verify()
    _check_claims(graph)
    # The reduction sums each distinct value once: its degree is what is left.
    layout = dict(_kernel_layouts(graph))[1]
    saved = graph.type_of(1).shape
    dim = graph.ops[1].int_attr("dim")
    distinct_values = saved[dim] // copies(layout[dim])
    term = AbstractExprs.of(graph).outputs[0]
    loops = graph.ops[0].int_attr("forloop_range")
    looped = graph.ops[0].body.ops[0].int_attr("forloop_dim") != REPLICATE  # type: ignore[union-attr]
    want = distinct_values * (loops if looped else 1)
    assert str(term) == (f"sum({want}, exp(arg0))" if want > 1 else "exp(arg0)")
