"""Terms are interned and immutable; their printed form reads back."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from pruning.term_strategies import terms

from mirage.passes.pruning.terms import (
    ONE,
    Add,
    Cat,
    Fn,
    Mul,
    RMax,
    Sum,
    Term,
    TermSyntaxError,
    Var,
    parse_term,
    rmax_of,
    sum_of,
)


def test_equal_terms_are_one_object() -> None:
    assert Add(Var("x"), Mul(Var("y"), Var("x"))) is Add(Var("x"), Mul(Var("y"), Var("x")))
    assert Sum(4, Var("x")) is not Sum(8, Var("x"))
    assert pickle.loads(pickle.dumps(Sum(4, Var("x")))) is Sum(4, Var("x"))


def test_terms_are_immutable() -> None:
    t = Sum(4, Var("x"))
    with pytest.raises(AttributeError):
        t.n = 8  # type: ignore[misc]


def test_sums_and_maxima_of_one_are_the_operand() -> None:
    x = Var("x")
    assert sum_of(1, x) is x
    assert sum_of(4, sum_of(16, x)) is Sum(64, x)
    assert rmax_of(1, x) is x
    assert rmax_of(2, rmax_of(4, x)) is RMax(8, x)


@settings(max_examples=100, deadline=None)
@given(t=terms(12))
def test_printed_terms_read_back(t: Term) -> None:
    assert parse_term(str(t)) is t


def test_other_forms_read_back() -> None:
    for text in ("div(1, sqrt(x))", "cat<1>(8: x, 4: exp(y))", "pow(x, y)", "max(a, b)"):
        assert str(parse_term(text)) == text
    assert parse_term("sum(1, x)") is Var("x")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("add(x)", "add takes 2 operands"),
        ("sum(x, y)", "expected a number"),
        ("exp(x", "expected \\)"),
        ("x y", "trailing text"),
        ("x + y", "unexpected character"),
    ],
)
def test_bad_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(TermSyntaxError, match=message):
        parse_term(text)


def test_bad_terms_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot name a variable"):
        Var("sum")
    with pytest.raises(ValueError, match="at least 2 summands"):
        Sum(1, Var("x"))
    with pytest.raises(ValueError, match="not an uninterpreted function"):
        Fn("exp", (Var("x"),))
    with pytest.raises(ValueError, match="at least two pieces"):
        Cat(0, ((4, Var("x")),))
    assert str(ONE) == "1"
