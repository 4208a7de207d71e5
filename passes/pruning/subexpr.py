"""Deciding subexpr(t, T) under A_eq and A_sub (paper Table 2) as a ground query.

With both sides in canonical form (`canonical.py`, a model of A_eq), A_sub reduces to a
finite question. Let U be the closure of the target under `components` (the arguments of
its exp atoms, functions and maxima, its square-root parts and denominators, again and
again). Then t is a subexpression of T when, for some X in U, a monomial mu and a
sub-multiset S of X's monomials have S = t * mu: t is then a sub-sum (x <= add(x, y)) of
a factor (x <= mul(x, y), div(x, y), sum(i, x)) of X, and X is a subexpression of T.
This relation contains every A_sub axiom instance of the model and is transitive, so no
subterm of a term A_eq-equivalent to the target is ever refused (Theorem 1).

z3 decides the question for each X as a quantifier-free linear integer problem: one
integer exponent of mu per atom (the sum degrees are the exponents of the prime atoms
`#p`, so sum(16, x) <= sum(64, x) and sum(128, x) </= sum(64, x) are linear facts), one
count per (monomial of t, monomial of X) pair, the identities of mu's square-root and
denominator parts (polynomial quotients, computed here; where a quotient is not certain
the part is left free, which can only keep more). Before z3, two cheap sound shortcuts:
t is literally a node of U (keep), or an atom of t occurs in no node of U (prune); and a
query left empty once pairs of monomials whose parts cannot divide are dropped is a prune.
z3's unknown or timeout keeps. `engine="python"` answers the same questions with a direct
search over mu (it tries each monomial of X divided by t's first monomial); tests check
that both engines agree.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3  # pyright: ignore[reportMissingTypeStubs]  (z3-solver ships no stubs; its source is read)

from mirage.passes.pruning.canonical import (
    ONE_POLY,
    TOP,
    Atom,
    Canonical,
    CatValue,
    Mono,
    Poly,
    atoms_of,
    closure,
    make_mono,
    make_poly,
    mono_mul,
)


class Answer(enum.Enum):
    KEEP = "keep"
    PRUNE = "prune"
    UNKNOWN = "unknown"
    """The solver gave up (timeout, resource limit): the caller keeps the prefix."""


class Via(enum.Enum):
    """Which step decided a query (for statistics)."""

    TOP = "top"
    IDENTITY = "identity"
    SUPPORT = "support"
    PARTS = "parts"
    """No monomial of t has square-root and denominator parts that divide those of a
    monomial of a node: the ground query is empty."""
    SOLVER = "solver"
    SEARCH = "search"


# --- exact polynomial quotients (for the square-root and denominator parts) -------------


class _Wild:
    """A quotient that this module does not compute: left free."""

    def __repr__(self) -> str:
        return "*"


WILD = _Wild()
Quotient = Poly | _Wild | None
"""A polynomial (ONE_POLY for 1), WILD, or None when no quotient exists."""


def part_quotient(a: Poly | None, b: Poly | None) -> Quotient:
    """q with a = b * q, for square-root or denominator parts (None stands for 1)."""
    if b is None:
        return ONE_POLY if a is None else a
    if a is None:
        return None  # 1 = b * q needs b = 1
    if a is b:
        return ONE_POLY
    total_a = sum(c for _, c in a.terms)
    total_b = sum(c for _, c in b.terms)
    if total_a % total_b:
        return None  # monomial counts multiply
    if len(b.terms) == 1 and b.terms[0][1] == 1:
        divisor = b.terms[0][0]
        terms: list[tuple[Mono, int]] = []
        for m, c in a.terms:
            q = mono_quotient(m, divisor)
            if q is None:
                return None
            if isinstance(q, _Wild):
                return WILD
            terms.append((q, c))
        return make_poly(terms)
    return WILD


def mono_quotient(x: Mono, m: Mono) -> Mono | _Wild | None:
    """q with x = m * q, or None when there is none."""
    mine = dict(m.atoms)
    atoms: list[tuple[Atom, int]] = []
    for a, e in x.atoms:
        d = e - mine.pop(a, 0)
        if d < 0:
            return None
        atoms.append((a, d))
    if mine:
        return None
    qs = part_quotient(x.sqrt, m.sqrt)
    qi = part_quotient(x.inv, m.inv)
    if qs is None or qi is None:
        return None
    if isinstance(qs, _Wild) or isinstance(qi, _Wild):
        return WILD
    return make_mono(atoms, qs, qi)


# --- the two engines --------------------------------------------------------------------


def contained_search(t: Poly, x: Poly) -> bool:
    """Is t * mu a sub-multiset of x for some monomial mu? (Uncertain quotients: yes.)"""
    first = t.terms[0][0]
    counts = {m: c for m, c in x.terms}
    for candidate, _ in x.terms:
        mu = mono_quotient(candidate, first)
        if mu is None:
            continue
        if isinstance(mu, _Wild):
            if len(t.terms) == 1 and counts[candidate] < t.terms[0][1]:
                continue  # whatever mu is, x holds too few copies of this monomial
            return True
        if all(counts.get(mono_mul(m, mu), 0) >= c for m, c in t.terms):
            return True
    return False


def _part_constraint(var: str, q: Quotient, ids: dict[str, int]) -> str | None:
    if not isinstance(q, Poly):
        return None
    return f"(= {var} {ids.setdefault(q.key, len(ids))})"


def smt_query(t: Poly, nodes: Sequence[Poly]) -> str | None:
    """SMT-LIB text that is satisfiable iff t * mu is a sub-multiset of some node; None
    when no pair of monomials can match at all (their parts have no quotient)."""
    decls: list[str] = []
    disjuncts: list[str] = []
    ids: dict[str, int] = {}
    for n, x in enumerate(nodes):
        atoms = sorted(atoms_of(t) | atoms_of(x), key=lambda a: a.key)
        mu = [f"m{n}_{i}" for i in range(len(atoms))]
        sq, dv = f"s{n}", f"d{n}"
        rows: list[list[str]] = [[] for _ in t.terms]
        cols: list[list[str]] = [[] for _ in x.terms]
        links: list[str] = []
        for i, (tm, _) in enumerate(t.terms):
            for j, (xm, _) in enumerate(x.terms):
                qs = part_quotient(xm.sqrt, tm.sqrt)
                qi = part_quotient(xm.inv, tm.inv)
                if qs is None or qi is None:
                    continue
                k = f"k{n}_{i}_{j}"
                decls.append(f"(declare-const {k} Int)")
                rows[i].append(k)
                cols[j].append(k)
                eqs = [
                    f"(= {mu[a]} {xm.exponent(atom) - tm.exponent(atom)})"
                    for a, atom in enumerate(atoms)
                ]
                for part in (_part_constraint(sq, qs, ids), _part_constraint(dv, qi, ids)):
                    if part is not None:
                        eqs.append(part)
                links.append(f"(>= {k} 0) (=> (> {k} 0) (and {' '.join(eqs) or 'true'}))")
        if any(not r for r in rows):
            continue
        decls.extend(f"(declare-const {v} Int)" for v in (*mu, sq, dv))
        conj = [f"(>= {v} 0)" for v in mu]
        conj.extend(links)
        conj.extend(f"(= (+ 0 {' '.join(r)}) {c})" for r, (_, c) in zip(rows, t.terms, strict=True))
        conj.extend(
            f"(<= (+ 0 {' '.join(col)}) {c})"
            for col, (_, c) in zip(cols, x.terms, strict=True)
            if col
        )
        disjuncts.append(f"(and {' '.join(conj)})")
    if not disjuncts:
        return None
    return "\n".join(decls) + f"\n(assert (or {' '.join(disjuncts)}))\n"


# --- the checker over one target ---------------------------------------------------------


@dataclass
class SubexprChecker:
    """Decides subexpr(t, T) for a fixed target (one canonical form per output)."""

    targets: Sequence[Canonical]
    engine: str = "z3"
    timeout_ms: int = 2000
    universe: list[Poly] = field(init=False)
    _keys: set[str] = field(init=False)
    _atoms: list[set[Atom]] = field(init=False)
    _context: z3.Context = field(init=False)

    def __post_init__(self) -> None:
        if self.engine not in ("z3", "python"):
            raise ValueError(f"unknown engine '{self.engine}' (z3 or python)")
        self.universe = closure(self.targets)
        self._keys = {p.key for p in self.universe}
        self._atoms = [atoms_of(p) for p in self.universe]
        self._context = z3.Context()
        self._top = any(t is TOP for t in self.targets)

    def decide(self, t: Canonical) -> tuple[Answer, Via]:
        if self._top or t is TOP:
            return Answer.KEEP, Via.TOP
        if isinstance(t, CatValue):
            worst = (Answer.KEEP, Via.IDENTITY)
            for _, piece in t.pieces:
                answer = self.decide(piece)
                if answer[0] is Answer.PRUNE:
                    return answer
                if answer[0] is Answer.UNKNOWN:
                    worst = answer
            return worst
        assert isinstance(t, Poly)
        if t.key in self._keys:
            return Answer.KEEP, Via.IDENTITY
        mine = atoms_of(t)
        nodes = [p for p, atoms in zip(self.universe, self._atoms, strict=True) if mine <= atoms]
        if not nodes:
            return Answer.PRUNE, Via.SUPPORT
        if self.engine == "python":
            found = any(contained_search(t, x) for x in nodes)
            return (Answer.KEEP if found else Answer.PRUNE), Via.SEARCH
        text = smt_query(t, nodes)
        if text is None:
            return Answer.PRUNE, Via.PARTS
        return self._solve(text), Via.SOLVER

    def _solve(self, text: str) -> Answer:
        # z3's Python API has no type annotations.
        solver = z3.SimpleSolver(ctx=self._context)  # pyright: ignore[reportUnknownMemberType]
        solver.set("timeout", self.timeout_ms)  # pyright: ignore[reportUnknownMemberType]
        try:
            solver.from_string(text)  # pyright: ignore[reportUnknownMemberType]
            result = solver.check()  # pyright: ignore[reportUnknownMemberType]
        except z3.Z3Exception:
            return Answer.UNKNOWN
        if result == z3.sat:
            return Answer.KEEP
        if result == z3.unsat:
            return Answer.PRUNE
        return Answer.UNKNOWN
