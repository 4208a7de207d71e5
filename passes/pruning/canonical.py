"""Canonical forms of abstract expressions: a model of A_eq in which equivalent terms are
the same object.

The model: a term is a polynomial, a multiset of monomials (add is associative and
commutative, and x + x stays two copies: no axiom merges them). A monomial is
- a multiset of atoms: variables, `#p` for each prime p of a sum's extent (sum(n, x) is x
  times the formal degree n, and degrees multiply: sum(i, sum(j, x)) = sum(i*j, x), with
  sum(1, x) = x), exp(m) of one monomial m, uninterpreted functions f(P, ...), rmax;
- one polynomial S under a square root and one polynomial I in the denominator, each the
  product of every such factor of the monomial (so sqrt(x) sqrt(y) = sqrt(x y) and
  div(div(x, y), z) = div(x, mul(y, z)) hold as equalities of these products).
Products distribute over sums. Every A_eq axiom of paper Table 2 holds in this model:
commutativity and associativity of add and mul, distributivity, add(div(x, z), div(y, z))
= div(add(x, y), z), mul(x, div(y, z)) = div(mul(x, y), z), div(div(x, y), z) =
div(x, mul(y, z)), x = sum(1, x), sum(i, sum(j, x)) = sum(i*j, x), sum over add, mul and
div, exp(add(x, y)) = mul(exp(x), exp(y)), sqrt(mul(x, y)) = mul(sqrt(x), sqrt(y)).
It identifies nothing else, except rmax(i, rmax(j, x)) = rmax(i*j, x) (a maximum of
maxima, true of the values).

Canonical objects are interned by a canonical string (`key`), which is stable across
processes: the on-disk cache is keyed by it.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from functools import cache

from mirage.passes.pruning.terms import (
    ONE,
    Add,
    Cat,
    Div,
    Exp,
    Fn,
    Mul,
    RMax,
    Sqrt,
    Sum,
    Term,
    Unknown,
    Var,
)

NORMAL_FORM_VERSION = "1"
"""Changes whenever a canonical form or the subexpression order changes meaning, so that
answers cached on disk by an older version are not reused."""

Exps = tuple[tuple["Atom", int], ...]


class Atom:
    """A factor that does not split further under A_eq."""

    __slots__ = ("__weakref__", "args", "key", "kind", "name", "primes")
    kind: str
    """'var', 'deg', 'exp', 'fn' or 'rmax'."""
    name: str
    args: tuple[Poly, ...]
    primes: tuple[tuple[int, int], ...]
    key: str

    def __repr__(self) -> str:
        return self.key


class Mono:
    """A monomial: atoms with exponents, a square-root part and a denominator."""

    __slots__ = ("__weakref__", "atoms", "inv", "key", "sqrt")
    atoms: Exps
    sqrt: Poly | None
    inv: Poly | None
    key: str

    def __repr__(self) -> str:
        return self.key

    def exponent(self, atom: Atom) -> int:
        for a, e in self.atoms:
            if a is atom:
                return e
        return 0


class Poly:
    """A polynomial: monomials with multiplicities."""

    __slots__ = ("__weakref__", "key", "terms")
    terms: tuple[tuple[Mono, int], ...]
    key: str

    def __repr__(self) -> str:
        return self.key

    @property
    def is_one(self) -> bool:
        return self is ONE_POLY


class CatValue:
    """A concatenation: canonical pieces along one dim."""

    __slots__ = ("dim", "key", "pieces")

    def __init__(self, dim: int, pieces: tuple[tuple[int, Poly], ...]):
        self.dim = dim
        self.pieces = pieces
        self.key = f"cat<{dim}>(" + ",".join(f"{e}:{p.key}" for e, p in pieces) + ")"

    def __repr__(self) -> str:
        return self.key


class _Top:
    __slots__ = ()
    key = "?"

    def __repr__(self) -> str:
        return "?"


TOP = _Top()
"""The canonical form of an Unknown expression: contained in everything."""

Canonical = Poly | CatValue | _Top

# Interning tables. Weak values: forms that no cache or term refers to any more go away.
_ATOMS: weakref.WeakValueDictionary[str, Atom] = weakref.WeakValueDictionary()
_MONOS: weakref.WeakValueDictionary[str, Mono] = weakref.WeakValueDictionary()
_POLYS: weakref.WeakValueDictionary[str, Poly] = weakref.WeakValueDictionary()


def _atom(
    kind: str,
    key: str,
    name: str = "",
    args: tuple[Poly, ...] = (),
    primes: tuple[tuple[int, int], ...] = (),
) -> Atom:
    found = _ATOMS.get(key)
    if found is not None:
        return found
    atom = Atom()
    atom.kind, atom.key, atom.name, atom.args, atom.primes = kind, key, name, args, primes
    _ATOMS[key] = atom
    return atom


def make_mono(
    atoms: Iterable[tuple[Atom, int]], sqrt: Poly | None = None, inv: Poly | None = None
) -> Mono:
    merged: dict[str, tuple[Atom, int]] = {}
    for a, e in atoms:
        if e:
            prev = merged.get(a.key)
            merged[a.key] = (a, e + (prev[1] if prev else 0))
    ordered = tuple(merged[k] for k in sorted(merged))
    if sqrt is not None and sqrt.is_one:
        sqrt = None
    if inv is not None and inv.is_one:
        inv = None
    parts = [a.key if e == 1 else f"{a.key}^{e}" for a, e in ordered]
    key = "*".join(parts) if parts else "1"
    if sqrt is not None:
        key += f"|sqrt{sqrt.key}"
    if inv is not None:
        key += f"|inv{inv.key}"
    found = _MONOS.get(key)
    if found is not None:
        return found
    mono = Mono()
    mono.atoms, mono.sqrt, mono.inv, mono.key = ordered, sqrt, inv, key
    _MONOS[key] = mono
    return mono


def make_poly(terms: Iterable[tuple[Mono, int]]) -> Poly:
    counts: dict[str, tuple[Mono, int]] = {}
    for m, c in terms:
        prev = counts.get(m.key)
        counts[m.key] = (m, c + (prev[1] if prev else 0))
    ordered = tuple(counts[k] for k in sorted(counts))
    key = "[" + ";".join(m.key if c == 1 else f"{c}x{m.key}" for m, c in ordered) + "]"
    found = _POLYS.get(key)
    if found is not None:
        return found
    poly = Poly()
    poly.terms, poly.key = ordered, key
    _POLYS[key] = poly
    return poly


ONE_MONO = make_mono(())
ONE_POLY = make_poly(((ONE_MONO, 1),))


# --- arithmetic of the model -------------------------------------------------------------

_MONO_MUL: dict[tuple[Mono, Mono], Mono] = {}
_POLY_MUL: dict[tuple[Poly, Poly], Poly] = {}
_MEMO_LIMIT = 200_000


def _mul_opt(a: Poly | None, b: Poly | None) -> Poly | None:
    if a is None:
        return b
    if b is None:
        return a
    return poly_mul(a, b)


def mono_mul(a: Mono, b: Mono) -> Mono:
    if a is ONE_MONO:
        return b
    if b is ONE_MONO:
        return a
    pair = (a, b) if a.key <= b.key else (b, a)
    found = _MONO_MUL.get(pair)
    if found is None:
        found = make_mono((*a.atoms, *b.atoms), _mul_opt(a.sqrt, b.sqrt), _mul_opt(a.inv, b.inv))
        if len(_MONO_MUL) > _MEMO_LIMIT:
            _MONO_MUL.clear()
        _MONO_MUL[pair] = found
    return found


def poly_add(a: Poly, b: Poly) -> Poly:
    return make_poly((*a.terms, *b.terms))


def poly_mul(a: Poly, b: Poly) -> Poly:
    if a is ONE_POLY:
        return b
    if b is ONE_POLY:
        return a
    pair = (a, b) if a.key <= b.key else (b, a)
    found = _POLY_MUL.get(pair)
    if found is None:
        found = make_poly((mono_mul(m, n), c * d) for m, c in a.terms for n, d in b.terms)
        if len(_POLY_MUL) > _MEMO_LIMIT:
            _POLY_MUL.clear()
        _POLY_MUL[pair] = found
    return found


@cache
def factorize(n: int) -> tuple[tuple[int, int], ...]:
    """(prime, exponent) pairs of n >= 1."""
    out: list[tuple[int, int]] = []
    p = 2
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        if e:
            out.append((p, e))
        p += 1
    if n > 1:
        out.append((n, 1))
    return tuple(out)


def degree(n: int) -> Mono:
    """The formal degree of a sum of n values, as a monomial of prime atoms."""
    return make_mono((_atom("deg", f"#{p}", primes=((p, 1),)), e) for p, e in factorize(n))


def var(name: str) -> Poly:
    return make_poly(((make_mono(((_atom("var", name, name=name), 1),)), 1),))


def summed(n: int, p: Poly) -> Poly:
    d = degree(n)
    return make_poly((mono_mul(m, d), c) for m, c in p.terms)


def exp(p: Poly) -> Poly:
    # exp(add(x, y)) = mul(exp(x), exp(y)): one exp atom per monomial copy.
    atoms = [(_atom("exp", f"exp({m.key})", args=(make_poly(((m, 1),)),)), c) for m, c in p.terms]
    return make_poly(((make_mono(atoms), 1),))


def sqrt(p: Poly) -> Poly:
    return make_poly(((make_mono((), sqrt=p), 1),))


def inverse(p: Poly) -> Poly:
    return make_poly(((make_mono((), inv=p), 1),))


def function(name: str, args: tuple[Poly, ...]) -> Poly:
    key = f"{name}(" + ",".join(a.key for a in args) + ")"
    return make_poly(((make_mono(((_atom("fn", key, name=name, args=args), 1),)), 1),))


def _primes_key(primes: tuple[tuple[int, int], ...]) -> str:
    return "*".join(f"{p}^{e}" for p, e in primes)


def _merge_primes(
    a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int], ...]:
    out = dict(a)
    for p, e in b:
        out[p] = out.get(p, 0) + e
    return tuple(sorted(out.items()))


def rmax(n: int, p: Poly) -> Poly:
    primes = factorize(n)
    if not primes:
        return p
    inner = _single_atom(p)
    if inner is not None and inner.kind == "rmax":
        primes = _merge_primes(primes, inner.primes)
        p = inner.args[0]
    return rmax_atom_poly(primes, p)


def rmax_atom_poly(primes: tuple[tuple[int, int], ...], p: Poly) -> Poly:
    key = f"rmax[{_primes_key(primes)}]({p.key})"
    atom = _atom("rmax", key, args=(p,), primes=primes)
    return make_poly(((make_mono(((atom, 1),)), 1),))


def _single_atom(p: Poly) -> Atom | None:
    if len(p.terms) != 1 or p.terms[0][1] != 1:
        return None
    m = p.terms[0][0]
    if m.sqrt is not None or m.inv is not None or len(m.atoms) != 1 or m.atoms[0][1] != 1:
        return None
    return m.atoms[0][0]


# --- terms -> canonical forms ------------------------------------------------------------

_CANON: weakref.WeakKeyDictionary[Term, Canonical] = weakref.WeakKeyDictionary()


def canonical(term: Term) -> Canonical:
    """The canonical form of `term`: equal for A_eq-equivalent terms."""
    found = _CANON.get(term)
    if found is not None:
        return found
    # Children first, descending only into subterms not seen before.
    stack: list[tuple[Term, bool]] = [(term, False)]
    while stack:
        sub, ready = stack.pop()
        if ready:
            if sub not in _CANON:
                _CANON[sub] = _canonical_node(sub)
            continue
        stack.append((sub, True))
        stack.extend((c, False) for c in sub.children() if c not in _CANON)
    return _CANON[term]


def _canonical_node(term: Term) -> Canonical:
    if isinstance(term, Var):
        return var(term.name)
    if term is ONE:
        return ONE_POLY
    if isinstance(term, Unknown):
        return TOP
    if isinstance(term, Cat):
        pieces: list[tuple[int, Poly]] = []
        for extent, piece in term.pieces:
            c = _CANON[piece]
            if not isinstance(c, Poly):
                return TOP
            if pieces and pieces[-1][1] is c:
                pieces[-1] = (pieces[-1][0] + extent, c)
            else:
                pieces.append((extent, c))
        if len(pieces) == 1:
            return pieces[0][1]
        return CatValue(term.dim, tuple(pieces))
    kids: list[Poly] = []
    for child in term.children():
        c = _CANON[child]
        if not isinstance(c, Poly):
            # Concatenations only appear whole (the expressions of ops push into their
            # pieces); inside another term they are not modelled.
            return TOP
        kids.append(c)
    if isinstance(term, Sum):
        return summed(term.n, kids[0])
    if isinstance(term, Add):
        return poly_add(kids[0], kids[1])
    if isinstance(term, Mul):
        return poly_mul(kids[0], kids[1])
    if isinstance(term, Div):
        return poly_mul(kids[0], inverse(kids[1]))
    if isinstance(term, Exp):
        return exp(kids[0])
    if isinstance(term, Sqrt):
        return sqrt(kids[0])
    if isinstance(term, Fn):
        return function(term.name, tuple(kids))
    if isinstance(term, RMax):
        return rmax(term.n, kids[0])
    raise TypeError(f"no canonical form for {type(term).__name__}")


# --- the ground subterm closure (A_sub) --------------------------------------------------


def components(p: Poly) -> Iterator[Poly]:
    """The polynomials that A_sub makes immediate subexpressions of `p` beyond its own
    sub-sums and factors: the arguments of its exp atoms (merged: exp(x) exp(y) =
    exp(x + y)), of its functions and maxima (and the partial maxima), its square-root
    part and its denominator."""
    for m, _ in p.terms:
        exps: list[tuple[Mono, int]] = []
        for a, e in m.atoms:
            if a.kind == "exp":
                exps.append((a.args[0].terms[0][0], e))
            elif a.kind == "fn":
                yield from a.args
            elif a.kind == "rmax":
                yield a.args[0]
                yield from (rmax_atom_poly(d, a.args[0]) for d in _proper_divisors(a.primes))
        if exps:
            yield make_poly(exps)
        if m.sqrt is not None:
            yield m.sqrt
        if m.inv is not None:
            yield m.inv


def _proper_divisors(primes: tuple[tuple[int, int], ...]) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every divisor d of the degree with 1 < d < degree, as (prime, exponent) pairs."""
    choices: list[tuple[tuple[int, int], ...]] = [()]
    for p, e in primes:
        choices = [(*c, (p, k)) if k else c for c in choices for k in range(e + 1)]
    for c in choices:
        if c and c != primes:
            yield c


def closure(targets: Iterable[Canonical]) -> list[Poly]:
    """Every polynomial that is reachable from the targets by `components`: the finite
    universe over which A_sub is ground (sub-sums and factors are matched directly)."""
    seen: dict[str, Poly] = {}
    stack: list[Poly] = []
    for t in targets:
        if isinstance(t, Poly):
            stack.append(t)
        elif isinstance(t, CatValue):
            stack.extend(p for _, p in t.pieces)
    while stack:
        p = stack.pop()
        if p.key in seen:
            continue
        seen[p.key] = p
        stack.extend(c for c in components(p) if c.key not in seen)
    return list(seen.values())


def atoms_of(p: Poly) -> set[Atom]:
    """The atoms of p's monomials (not those inside its atoms or parts)."""
    return {a for m, _ in p.terms for a, _ in m.atoms}
