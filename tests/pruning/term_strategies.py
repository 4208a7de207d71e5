"""Random abstract expressions and random A_eq rewrites of them, for property tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from mirage.passes.pruning.terms import (
    Add,
    Div,
    Exp,
    Fn,
    Mul,
    RMax,
    Sqrt,
    Sum,
    Term,
    Var,
)

VARS = [Var(n) for n in ("x", "y", "z", "w")]
DEGREES = [2, 3, 4, 8]


def terms(max_leaves: int = 12) -> st.SearchStrategy[Term]:
    leaves = st.sampled_from(VARS)

    def extend(inner: st.SearchStrategy[Term]) -> st.SearchStrategy[Term]:
        return st.one_of(
            st.builds(Add, inner, inner),
            st.builds(Mul, inner, inner),
            st.builds(Div, inner, inner),
            st.builds(Exp, inner),
            st.builds(Sqrt, inner),
            st.builds(lambda a: Fn("silu", (a,)), inner),
            st.builds(Sum, st.sampled_from(DEGREES), inner),
            st.builds(RMax, st.sampled_from(DEGREES), inner),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)


Rule = Callable[[Term], Term | None]


def _rules() -> list[Rule]:
    """Each A_eq axiom of paper Table 2 as rewrites, in both directions."""

    def comm(t: Term) -> Term | None:
        if isinstance(t, Add):
            return Add(t.rhs, t.lhs)
        if isinstance(t, Mul):
            return Mul(t.rhs, t.lhs)
        return None

    def assoc(t: Term) -> Term | None:
        for op in (Add, Mul):
            if isinstance(t, op) and isinstance(t.lhs, op):
                return op(t.lhs.lhs, op(t.lhs.rhs, t.rhs))
            if isinstance(t, op) and isinstance(t.rhs, op):
                return op(op(t.lhs, t.rhs.lhs), t.rhs.rhs)
        return None

    def distribute(t: Term) -> Term | None:
        if isinstance(t, Mul) and isinstance(t.rhs, Add):
            return Add(Mul(t.lhs, t.rhs.lhs), Mul(t.lhs, t.rhs.rhs))
        if (
            isinstance(t, Add)
            and isinstance(t.lhs, Mul)
            and isinstance(t.rhs, Mul)
            and t.lhs.lhs is t.rhs.lhs
        ):
            return Mul(t.lhs.lhs, Add(t.lhs.rhs, t.rhs.rhs))
        return None

    def add_div(t: Term) -> Term | None:
        if (
            isinstance(t, Add)
            and isinstance(t.lhs, Div)
            and isinstance(t.rhs, Div)
            and t.lhs.rhs is t.rhs.rhs
        ):
            return Div(Add(t.lhs.lhs, t.rhs.lhs), t.lhs.rhs)
        if isinstance(t, Div) and isinstance(t.lhs, Add):
            return Add(Div(t.lhs.lhs, t.rhs), Div(t.lhs.rhs, t.rhs))
        return None

    def mul_div(t: Term) -> Term | None:
        if isinstance(t, Mul) and isinstance(t.rhs, Div):
            return Div(Mul(t.lhs, t.rhs.lhs), t.rhs.rhs)
        if isinstance(t, Div) and isinstance(t.lhs, Mul):
            return Mul(t.lhs.lhs, Div(t.lhs.rhs, t.rhs))
        return None

    def div_div(t: Term) -> Term | None:
        if isinstance(t, Div) and isinstance(t.lhs, Div):
            return Div(t.lhs.lhs, Mul(t.lhs.rhs, t.rhs))
        if isinstance(t, Div) and isinstance(t.rhs, Mul):
            return Div(Div(t.lhs, t.rhs.lhs), t.rhs.rhs)
        return None

    def sum_sum(t: Term) -> Term | None:
        if isinstance(t, Sum) and isinstance(t.arg, Sum):
            return Sum(t.n * t.arg.n, t.arg.arg)
        if isinstance(t, Sum) and t.n % 2 == 0 and t.n > 2:
            return Sum(2, Sum(t.n // 2, t.arg))
        return None

    def sum_over(t: Term) -> Term | None:
        if isinstance(t, Sum):
            a = t.arg
            if isinstance(a, Add):
                return Add(Sum(t.n, a.lhs), Sum(t.n, a.rhs))
            if isinstance(a, Mul):
                return Mul(Sum(t.n, a.lhs), a.rhs)
            if isinstance(a, Div):
                return Div(Sum(t.n, a.lhs), a.rhs)
        if (
            isinstance(t, Add)
            and isinstance(t.lhs, Sum)
            and isinstance(t.rhs, Sum)
            and t.lhs.n == t.rhs.n
        ):
            return Sum(t.lhs.n, Add(t.lhs.arg, t.rhs.arg))
        if isinstance(t, Mul) and isinstance(t.lhs, Sum):
            return Sum(t.lhs.n, Mul(t.lhs.arg, t.rhs))
        if isinstance(t, Div) and isinstance(t.lhs, Sum):
            return Sum(t.lhs.n, Div(t.lhs.arg, t.rhs))
        return None

    def exp_sqrt(t: Term) -> Term | None:
        if isinstance(t, Exp) and isinstance(t.arg, Add):
            return Mul(Exp(t.arg.lhs), Exp(t.arg.rhs))
        if isinstance(t, Mul) and isinstance(t.lhs, Exp) and isinstance(t.rhs, Exp):
            return Exp(Add(t.lhs.arg, t.rhs.arg))
        if isinstance(t, Sqrt) and isinstance(t.arg, Mul):
            return Mul(Sqrt(t.arg.lhs), Sqrt(t.arg.rhs))
        if isinstance(t, Mul) and isinstance(t.lhs, Sqrt) and isinstance(t.rhs, Sqrt):
            return Sqrt(Mul(t.lhs.arg, t.rhs.arg))
        return None

    return [comm, assoc, distribute, add_div, mul_div, div_div, sum_sum, sum_over, exp_sqrt]


RULES = _rules()


def _rebuild(t: Term, kids: list[Term]) -> Term:
    if isinstance(t, Add | Mul | Div):
        return type(t)(kids[0], kids[1])
    if isinstance(t, Exp | Sqrt):
        return type(t)(kids[0])
    if isinstance(t, Sum | RMax):
        return type(t)(t.n, kids[0])
    if isinstance(t, Fn):
        return Fn(t.name, tuple(kids))
    return t


def rewrite_once(t: Term, rng: random.Random) -> Term:
    """One A_eq step at a random position (or t when no rule applies there)."""
    positions = list(t.walk())
    target = rng.choice(positions)
    rules = RULES[:]
    rng.shuffle(rules)
    replacement = next((r for rule in rules if (r := rule(target)) is not None), None)
    if replacement is None:
        return t
    return _replace(t, target, replacement)


def _replace(t: Term, old: Term, new: Term) -> Term:
    if t is old:
        return new
    kids = t.children()
    if not kids:
        return t
    return _rebuild(t, [_replace(k, old, new) for k in kids])


def equivalent(t: Term, seed: int, steps: int) -> Term:
    rng = random.Random(seed)
    for _ in range(steps):
        t = rewrite_once(t, rng)
    return t
