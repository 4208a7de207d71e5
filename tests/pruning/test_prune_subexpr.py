"""subexpr(t, T) under A_eq and A_sub: the axioms' instances are kept, the z3 and direct
engines agree, and every subterm of every term equivalent to the target is kept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pruning.term_strategies import equivalent, terms

from mirage.passes.pruning import Answer, Pruner, SubexprChecker, canonical, parse_term
from mirage.passes.pruning.subexpr import Via, contained_search, smt_query
from mirage.passes.pruning.terms import Add, Div, Exp, Fn, Mul, Sqrt, Sum, Term, Unknown

RMSNORM_LINEAR = "sum(64, mul(div(x, sqrt(sum(64, mul(x, x)))), w))"
ATTENTION = "sum(32, mul(div(exp(sum(4, mul(q, k))), sum(32, exp(sum(4, mul(q, k))))), v))"


def checker(target: str, engine: str = "z3") -> SubexprChecker:
    return SubexprChecker([canonical(parse_term(target))], engine=engine)


CASES = [
    # (target, query, keep?)
    (RMSNORM_LINEAR, "x", True),
    (RMSNORM_LINEAR, "sum(16, mul(x, w))", True),  # a tile's partial sum
    (RMSNORM_LINEAR, "sum(64, mul(x, w))", True),
    (RMSNORM_LINEAR, "mul(x, x)", True),
    (RMSNORM_LINEAR, "sqrt(sum(64, mul(x, x)))", True),
    (RMSNORM_LINEAR, "div(sum(64, mul(x, w)), sqrt(sum(64, mul(x, x))))", True),
    (RMSNORM_LINEAR, "div(x, sqrt(sum(64, mul(x, x))))", True),
    (RMSNORM_LINEAR, "sum(128, mul(x, w))", False),  # sums more than the target
    (RMSNORM_LINEAR, "sum(3, x)", False),
    (RMSNORM_LINEAR, "exp(x)", False),
    (RMSNORM_LINEAR, "mul(w, w)", False),
    (RMSNORM_LINEAR, "add(x, w)", False),
    (RMSNORM_LINEAR, "mul(x, sqrt(sum(64, mul(x, x))))", False),  # a norm that multiplies
    (RMSNORM_LINEAR, "div(w, x)", False),
    (ATTENTION, "exp(sum(4, mul(q, k)))", True),
    (ATTENTION, "sum(8, exp(sum(4, mul(q, k))))", True),
    (ATTENTION, "sum(8, mul(exp(sum(4, mul(q, k))), v))", True),
    (ATTENTION, "mul(exp(sum(4, mul(q, k))), exp(sum(4, mul(q, k))))", False),
    (ATTENTION, "exp(sum(8, mul(q, k)))", False),
    (ATTENTION, "sum(4, mul(exp(q), k))", False),
    (ATTENTION, "div(exp(sum(4, mul(q, k))), sum(32, exp(sum(4, mul(q, k)))))", True),
    (ATTENTION, "div(exp(sum(4, mul(q, k))), v)", False),
    # With the unit 1 in the language, sum(32, e) = mul(sum(32, 1), e), so this one is a
    # factor of the target (the model is coarser than A_eq there: it only keeps more).
    (ATTENTION, "div(sum(32, exp(sum(4, mul(q, k)))), exp(sum(4, mul(q, k))))", True),
    ("add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))", "sum(32, mul(x, a))", True),
    ("add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))", "mul(x, b)", True),
    ("add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))", "mul(w, b)", False),
    ("add(sum(32, mul(x, w)), sum(4, mul(sum(32, mul(x, a)), b)))", "add(x, w)", False),
    ("mul(silu(sum(32, mul(x, u))), sum(32, mul(x, v)))", "silu(sum(32, mul(x, u)))", True),
    ("mul(silu(sum(32, mul(x, u))), sum(32, mul(x, v)))", "silu(sum(32, mul(x, v)))", False),
    ("mul(silu(sum(32, mul(x, u))), sum(32, mul(x, v)))", "sum(8, mul(x, v))", True),
    ("rmax(8, exp(x))", "rmax(2, exp(x))", True),
    ("rmax(8, exp(x))", "rmax(3, exp(x))", False),
    ("mul(add(a, b), add(c, d))", "add(a, b)", True),
    ("mul(add(a, b), add(c, d))", "add(mul(a, c), mul(b, c))", True),
    # The target is A_eq-equivalent to add(add(mul(a, c), mul(b, d)), add(...)).
    ("mul(add(a, b), add(c, d))", "add(mul(a, c), mul(b, d))", True),
    ("mul(add(a, b), add(c, d))", "add(mul(a, a), mul(b, d))", False),
    ("mul(add(a, b), add(c, d))", "add(mul(a, c), mul(a, c))", False),
    ("add(add(x, x), y)", "add(x, x)", True),
    ("add(x, y)", "add(x, x)", False),
    # 2y / 2x: its denominator's quotient by x + y is not computed (left free), but the
    # target holds one copy of its one monomial, not two
    ("div(y, add(x, y))", "div(add(y, y), add(x, x))", False),
    # (z/w + 3w) / (z/w + 3w): its second monomial's denominator quotient is not computed
    # (left free), so it may stand for z / (z/w + 3w) of the target: kept
    (
        "div(add(add(x, z), sum(3, w)), add(div(z, w), sum(3, w)))",
        "div(add(div(z, w), sum(3, w)), add(div(z, w), sum(3, w)))",
        True,
    ),
]


@pytest.mark.parametrize("engine", ["z3", "python"])
@pytest.mark.parametrize(("target", "query", "keep"), CASES)
def test_queries(target: str, query: str, keep: bool, engine: str) -> None:
    answer, _ = checker(target, engine).decide(canonical(parse_term(query)))
    assert answer is (Answer.KEEP if keep else Answer.PRUNE)


ENGINES = ["z3", "python"]
A_SUB: list[tuple[str, object]] = [
    ("add", lambda a, b: Add(a, b)),
    ("mul", lambda a, b: Mul(a, b)),
    ("div numerator", lambda a, b: Div(a, b)),
    ("div denominator", lambda a, b: Div(b, a)),
    ("exp", lambda a, b: Exp(a)),
    ("sqrt", lambda a, b: Sqrt(a)),
    ("silu", lambda a, b: Fn("silu", (a,))),
    ("sum", lambda a, b: Sum(8, a)),
]


@settings(max_examples=40, deadline=None)
@given(a=terms(5), b=terms(5), rule=st.sampled_from(A_SUB), engine=st.sampled_from(ENGINES))
def test_each_a_sub_axiom_instance_is_kept(a: Term, b: Term, rule: object, engine: str) -> None:
    _, make = rule  # type: ignore[misc]
    target = make(a, b)  # type: ignore[operator]
    c = SubexprChecker([canonical(target)], engine=engine)
    assert c.decide(canonical(a))[0] is Answer.KEEP


@settings(max_examples=40, deadline=None)
@given(target=terms(10), seed=st.integers(0, 10**6))
def test_every_subterm_of_an_equivalent_term_is_kept(target: Term, seed: int) -> None:
    # Theorem 1 on terms: a μGraph whose expression is A_eq-equivalent to the target has
    # only subterms of that expression as values.
    variant = equivalent(target, seed, steps=15)
    for engine in ("z3", "python"):
        c = SubexprChecker([canonical(target)], engine=engine)
        for sub in variant.walk():
            assert c.decide(canonical(sub))[0] is Answer.KEEP, (str(target), str(sub))


@settings(max_examples=120, deadline=None)
@given(target=terms(10), query=terms(6))
def test_engines_agree(target: Term, query: Term) -> None:
    t = canonical(query)
    z3_answer = SubexprChecker([canonical(target)], engine="z3").decide(t)[0]
    py_answer = SubexprChecker([canonical(target)], engine="python").decide(t)[0]
    assert z3_answer is py_answer


def test_transitivity_through_a_chain() -> None:
    chain = [parse_term("x")]
    for wrap in (lambda t: Exp(t), lambda t: Sum(4, Mul(t, parse_term("y"))), Sqrt):
        chain.append(wrap(chain[-1]))
    c = SubexprChecker([canonical(chain[-1])])
    assert all(c.decide(canonical(t))[0] is Answer.KEEP for t in chain)


def test_shortcuts_and_solver_are_reported() -> None:
    c = checker(RMSNORM_LINEAR)
    assert c.decide(canonical(parse_term(RMSNORM_LINEAR)))[1] is Via.IDENTITY
    assert c.decide(canonical(parse_term("exp(x)")))[1] is Via.SUPPORT
    assert c.decide(canonical(parse_term("sum(16, mul(x, w))")))[1] is Via.SOLVER


def test_the_ground_query_is_plain_linear_arithmetic() -> None:
    t = canonical(parse_term("sum(16, mul(x, w))"))
    target = canonical(parse_term(RMSNORM_LINEAR))
    text = smt_query(t, [target])  # type: ignore[arg-type]
    assert text is not None
    assert "forall" not in text and "exists" not in text
    assert contained_search(t, target)  # type: ignore[arg-type]


def test_unknown_targets_and_queries_are_kept() -> None:
    assert (
        SubexprChecker([canonical(Unknown("t"))]).decide(canonical(parse_term("exp(x)")))[0]
        is Answer.KEEP
    )
    assert checker(RMSNORM_LINEAR).decide(canonical(Unknown("q")))[0] is Answer.KEEP


def test_solver_giving_up_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    import z3

    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    pruner = Pruner([parse_term(RMSNORM_LINEAR)])
    assert pruner.keep_term(parse_term("sum(128, mul(x, w))"))
    assert pruner.stats.unknown == 1
    assert pruner.stats.pruned == 0


def test_engine_name_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown engine"):
        checker("x", engine="egg")
