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
z3's unknown or timeout keeps. `engine="python"` answers the same questions by
enumeration (mu's atoms from each pairing of monomials, its parts from the pairs that fix
them, then a flow of t's monomial counts into X's); tests check that both engines agree.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
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


def _part_pairs(t: Poly, x: Poly) -> Iterator[tuple[int, int, Mono, Mono, Quotient, Quotient]]:
    """(i, j, t's monomial i, x's monomial j, the quotients of their square-root and
    denominator parts) for the pairs whose parts can divide: the pairs both engines match."""
    for i, (tm, _) in enumerate(t.terms):
        for j, (xm, _) in enumerate(x.terms):
            qs = part_quotient(xm.sqrt, tm.sqrt)
            qi = part_quotient(xm.inv, tm.inv)
            if qs is not None and qi is not None:
                yield i, j, tm, xm, qs, qi


def contained_search(t: Poly, x: Poly) -> bool:
    """Is t * mu a sub-multiset of x for some monomial mu? The question `smt_query` asks z3
    for one node, answered by enumeration: mu's atom exponents come from some pairing of a
    monomial of t with one of x; its square-root and denominator parts are those of the
    pairs that fix them (all alike) or free where a quotient is not computed; then the
    copies of t's monomials must fit x's (a flow)."""
    atoms = sorted(atoms_of(t) | atoms_of(x), key=lambda a: a.key)
    pairs: list[tuple[int, int, tuple[int, ...], str | None, str | None]] = []
    for i, j, tm, xm, qs, qi in _part_pairs(t, x):
        mu = tuple(xm.exponent(a) - tm.exponent(a) for a in atoms)
        if min(mu, default=0) < 0:
            continue
        keys = tuple(q.key if isinstance(q, Poly) else None for q in (qs, qi))
        pairs.append((i, j, mu, keys[0], keys[1]))
    for mu in {p[2] for p in pairs}:
        alike = [p for p in pairs if p[2] == mu]
        # a part's value: one that some pair fixes, or one that none does (free pairs only)
        roots = {p[3] for p in alike if p[3] is not None} | {_NONE_FIXES}
        denominators = {p[4] for p in alike if p[4] is not None} | {_NONE_FIXES}
        for root in roots:
            for denominator in denominators:
                allowed = [
                    (i, j)
                    for i, j, _, ps, pd in alike
                    if ps in (None, root) and pd in (None, denominator)
                ]
                if _fits(t, x, allowed):
                    return True
    return False


_NONE_FIXES = "\0"
"""A part value no computed quotient has (its key is never a polynomial's)."""


def _fits(t: Poly, x: Poly, allowed: list[tuple[int, int]]) -> bool:
    """Can each monomial of t take its count of copies from x's monomials along the allowed
    (t monomial, x monomial) pairs, no x monomial giving more than it has?"""
    need = [c for _, c in t.terms]
    room = [c for _, c in x.terms]
    if any(not any(i == r for i, _ in allowed) for r in range(len(need))):
        return False
    # augmenting paths on the bipartite graph (counts are small)
    flow: dict[tuple[int, int], int] = {}
    for row in range(len(need)):
        while need[row]:
            path = _augment(row, allowed, flow, room, set())
            if path is None:
                return False
            for i, j, sign in path:
                flow[(i, j)] = flow.get((i, j), 0) + sign
            room[path[-1][1]] -= 1
            need[row] -= 1
    return True


def _augment(
    row: int,
    allowed: list[tuple[int, int]],
    flow: dict[tuple[int, int], int],
    room: list[int],
    seen: set[int],
) -> list[tuple[int, int, int]] | None:
    """A path from t monomial `row` to an x monomial with room, through x monomials whose
    copies another row gives back: (i, j, +1 or -1) steps."""
    for i, j in allowed:
        if i != row or j in seen:
            continue
        seen.add(j)
        if room[j] > 0:
            return [(i, j, 1)]
        for (k, jj), f in list(flow.items()):
            if jj == j and f > 0 and k != row:
                rest = _augment(k, allowed, flow, room, seen)
                if rest is not None:
                    return [(i, j, 1), (k, j, -1), *rest]
    return None


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
        for i, j, tm, xm, qs, qi in _part_pairs(t, x):
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
