"""Canonical forms are a model of A_eq: equivalent terms have one form; the model does not
identify terms that A_eq keeps apart."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pruning.term_strategies import equivalent, terms

from mirage.passes.pruning.canonical import TOP, CatValue, Poly, canonical, closure
from mirage.passes.pruning.terms import (
    ONE,
    Add,
    Cat,
    Div,
    Exp,
    Mul,
    RMax,
    Sqrt,
    Sum,
    Unknown,
    Var,
    parse_term,
)

x, y, z = Var("x"), Var("y"), Var("z")

AXIOMS = [
    (Add(x, y), Add(y, x)),
    (Mul(x, y), Mul(y, x)),
    (Add(Add(x, y), z), Add(x, Add(y, z))),
    (Mul(Mul(x, y), z), Mul(x, Mul(y, z))),
    (Mul(x, Add(y, z)), Add(Mul(x, y), Mul(x, z))),
    (Add(Div(x, z), Div(y, z)), Div(Add(x, y), z)),
    (Mul(x, Div(y, z)), Div(Mul(x, y), z)),
    (Div(Div(x, y), z), Div(x, Mul(y, z))),
    (Sum(3, Sum(4, x)), Sum(12, x)),
    (Sum(4, Add(x, y)), Add(Sum(4, x), Sum(4, y))),
    (Sum(4, Mul(x, y)), Mul(Sum(4, x), y)),
    (Sum(4, Div(x, y)), Div(Sum(4, x), y)),
    (Exp(Add(x, y)), Mul(Exp(x), Exp(y))),
    (Sqrt(Mul(x, y)), Mul(Sqrt(x), Sqrt(y))),
]


@pytest.mark.parametrize(("lhs", "rhs"), AXIOMS, ids=[str(a) for a, _ in AXIOMS])
def test_each_axiom_holds(lhs: object, rhs: object) -> None:
    assert canonical(lhs) is canonical(rhs)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(x_=terms(6), y_=terms(6), z_=terms(6), which=st.integers(0, len(AXIOMS) - 1))
def test_axioms_hold_for_any_operands(x_: object, y_: object, z_: object, which: int) -> None:
    lhs, rhs = AXIOMS[which]
    bind = {x: x_, y: y_, z: z_}
    assert canonical(_substitute(lhs, bind)) is canonical(_substitute(rhs, bind))  # type: ignore[arg-type]


def _substitute(t: object, bind: dict[object, object]) -> object:
    from pruning.term_strategies import _rebuild

    if t in bind:
        return bind[t]
    kids = t.children()  # type: ignore[attr-defined]
    return _rebuild(t, [_substitute(k, bind) for k in kids]) if kids else t  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(t=terms(10), seed=st.integers(0, 10**6))
def test_random_rewrites_keep_the_form(t: object, seed: int) -> None:
    assert canonical(equivalent(t, seed, steps=12)) is canonical(t)  # type: ignore[arg-type]


DISTINCT = [
    (Add(x, x), Sum(2, x)),  # no axiom merges copies
    (Mul(Sqrt(x), Sqrt(x)), x),
    (Div(x, x), ONE),
    (Sum(4, x), Sum(8, x)),
    (Sum(4, Exp(x)), Exp(Sum(4, x))),
    (Sqrt(Add(x, y)), Add(Sqrt(x), Sqrt(y))),
    (Div(x, Add(y, z)), Add(Div(x, y), Div(x, z))),
    (RMax(4, x), Sum(4, x)),
    (Exp(Mul(x, y)), Mul(Exp(x), Exp(y))),
]


@pytest.mark.parametrize(("lhs", "rhs"), DISTINCT, ids=[str(a) for a, _ in DISTINCT])
def test_terms_that_a_eq_keeps_apart_stay_apart(lhs: object, rhs: object) -> None:
    assert canonical(lhs) is not canonical(rhs)  # type: ignore[arg-type]


def test_maxima_of_maxima_merge() -> None:
    assert canonical(RMax(2, RMax(8, x))) is canonical(RMax(16, x))


def test_concatenations_and_unknowns() -> None:
    cat = canonical(Cat(1, ((2, x), (3, Sum(4, y)))))
    assert isinstance(cat, CatValue)
    assert [e for e, _ in cat.pieces] == [2, 3]
    merged = canonical(Cat(0, ((2, Add(x, y)), (3, Add(y, x)))))
    assert merged is canonical(Add(x, y))  # equal pieces are one expression
    assert canonical(Unknown("why")) is TOP
    assert canonical(Exp(Unknown("why"))) is TOP


def test_closure_reaches_every_part() -> None:
    target = canonical(parse_term("sum(64, mul(div(x, sqrt(sum(64, mul(x, x)))), w))"))
    assert isinstance(target, Poly)
    keys = {p.key for p in closure([target])}
    assert canonical(parse_term("sum(64, mul(x, x))")).key in keys
    assert canonical(parse_term("sqrt(sum(64, mul(x, x)))")).key in keys
    assert len(keys) == 3


def test_keys_are_the_same_in_another_process() -> None:
    text = "div(sum(16, mul(exp(sum(4, mul(q, k))), v)), add(sum(16, exp(sum(4, mul(q, k)))), 1))"
    here = canonical(parse_term(text)).key
    code = (
        "from mirage.passes.pruning.canonical import canonical\n"
        "from mirage.passes.pruning.terms import parse_term\n"
        f"print(canonical(parse_term({text!r})).key)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == here
