"""The term language of abstract expressions (paper Table 1), as hash-consed terms.

A term is built only through its class, which interns it: two structurally equal terms
are the same object, so equality and hashing are O(1) and memoizing on terms is cheap
even when a μGraph shares subterms heavily.

Constructors: `Var(name)`, `ONE` (the empty product), `Sum(n, a)` (a sum of n values of
shape `a`), `Add`, `Mul`, `Div`, `Exp`, `Sqrt`, `Fn(name, args)` (an uninterpreted
function: silu, gelu, relu, pow, max), `RMax(n, a)` (a maximum over n values),
`Cat(dim, pieces)` (a concatenation whose pieces have different expressions) and
`Unknown(reason)` (a value that the abstraction does not describe; never pruned).
`str(term)` prints the form used in the IR attribute, `parse_term` reads it back.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from typing import Any, ClassVar

_TABLE: weakref.WeakValueDictionary[tuple[Any, ...], Term] = weakref.WeakValueDictionary()


class Term:
    """An abstract expression. Immutable and interned."""

    __slots__ = ("__weakref__", "_text")
    fields: ClassVar[tuple[str, ...]] = ()
    _text: str | None

    def __new__(cls, *values: Any) -> Any:
        key = (cls, *values)
        term = _TABLE.get(key)
        if term is None:
            term = object.__new__(cls)
            for name, value in zip(cls.fields, values, strict=True):
                object.__setattr__(term, name, value)
            object.__setattr__(term, "_text", None)
            _TABLE[key] = term
        return term

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, f) for f in self.fields))

    def children(self) -> tuple[Term, ...]:
        return ()

    def __str__(self) -> str:
        text: str | None = self._text
        if text is None:
            text = self._render()
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"<term {self}>"

    def _render(self) -> str:
        raise NotImplementedError

    def walk(self) -> Iterator[Term]:
        """Every distinct subterm, each once, children before parents."""
        seen: set[int] = set()
        stack: list[tuple[Term, bool]] = [(self, False)]
        while stack:
            term, expanded = stack.pop()
            if expanded:
                yield term
                continue
            if id(term) in seen:
                continue
            seen.add(id(term))
            stack.append((term, True))
            stack.extend((c, False) for c in reversed(term.children()) if id(c) not in seen)


class Var(Term):
    __slots__ = ("name",)
    fields = ("name",)
    name: str

    def __new__(cls, name: str) -> Var:
        if not _NAME.fullmatch(name) or name in _RESERVED:
            raise ValueError(f"'{name}' cannot name a variable of an abstract expression")
        return super().__new__(cls, name)

    def _render(self) -> str:
        return self.name


class _One(Term):
    __slots__ = ()

    def __new__(cls) -> _One:
        return super().__new__(cls)

    def _render(self) -> str:
        return "1"


ONE = _One()
"""The empty product: the numerator of rsqrt(x) = div(1, sqrt(x))."""


class Sum(Term):
    __slots__ = ("arg", "n")
    fields = ("n", "arg")
    n: int
    arg: Term

    def __new__(cls, n: int, arg: Term) -> Sum:
        if n < 2:
            raise ValueError(f"a sum needs at least 2 summands, got {n} (use sum_of)")
        return super().__new__(cls, n, arg)

    def children(self) -> tuple[Term, ...]:
        return (self.arg,)

    def _render(self) -> str:
        return f"sum({self.n}, {self.arg})"


class _Binary(Term):
    __slots__ = ("lhs", "rhs")
    fields = ("lhs", "rhs")
    lhs: Term
    rhs: Term
    symbol: ClassVar[str]

    def __new__(cls, lhs: Term, rhs: Term) -> Any:
        return super().__new__(cls, lhs, rhs)

    def children(self) -> tuple[Term, ...]:
        return (self.lhs, self.rhs)

    def _render(self) -> str:
        return f"{self.symbol}({self.lhs}, {self.rhs})"


class Add(_Binary):
    __slots__ = ()
    symbol = "add"


class Mul(_Binary):
    __slots__ = ()
    symbol = "mul"


class Div(_Binary):
    __slots__ = ()
    symbol = "div"


class _Unary(Term):
    __slots__ = ("arg",)
    fields = ("arg",)
    arg: Term
    symbol: ClassVar[str]

    def __new__(cls, arg: Term) -> Any:
        return super().__new__(cls, arg)

    def children(self) -> tuple[Term, ...]:
        return (self.arg,)

    def _render(self) -> str:
        return f"{self.symbol}({self.arg})"


class Exp(_Unary):
    __slots__ = ()
    symbol = "exp"


class Sqrt(_Unary):
    __slots__ = ()
    symbol = "sqrt"


class Fn(Term):
    """An uninterpreted function of the abstraction (silu, gelu, relu, pow, max)."""

    __slots__ = ("args", "name")
    fields = ("name", "args")
    name: str
    args: tuple[Term, ...]

    def __new__(cls, name: str, args: tuple[Term, ...]) -> Fn:
        if not _NAME.fullmatch(name) or name in _RESERVED or not args:
            raise ValueError(f"'{name}' with {len(args)} operands is not an uninterpreted function")
        return super().__new__(cls, name, tuple(args))

    def children(self) -> tuple[Term, ...]:
        return self.args

    def _render(self) -> str:
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


class RMax(Term):
    """The maximum of n values of shape `arg` (reduce_max, accum_max)."""

    __slots__ = ("arg", "n")
    fields = ("n", "arg")
    n: int
    arg: Term

    def __new__(cls, n: int, arg: Term) -> RMax:
        if n < 2:
            raise ValueError(f"a maximum needs at least 2 values, got {n} (use rmax_of)")
        return super().__new__(cls, n, arg)

    def children(self) -> tuple[Term, ...]:
        return (self.arg,)

    def _render(self) -> str:
        return f"rmax({self.n}, {self.arg})"


class Cat(Term):
    """A tensor whose elements along `dim` come from different expressions: `pieces` are
    (extent, expression) in order along that dim."""

    __slots__ = ("dim", "pieces")
    fields = ("dim", "pieces")
    dim: int
    pieces: tuple[tuple[int, Term], ...]

    def __new__(cls, dim: int, pieces: tuple[tuple[int, Term], ...]) -> Cat:
        if len(pieces) < 2 or any(e < 1 for e, _ in pieces):
            raise ValueError("a concatenation needs at least two pieces of positive extent")
        if any(isinstance(p, Cat | Unknown) for _, p in pieces):
            raise ValueError("pieces of a concatenation are plain expressions")
        return super().__new__(cls, dim, tuple(pieces))

    def children(self) -> tuple[Term, ...]:
        return tuple(p for _, p in self.pieces)

    def _render(self) -> str:
        inner = ", ".join(f"{e}: {p}" for e, p in self.pieces)
        return f"cat<{self.dim}>({inner})"


class Unknown(Term):
    """A value the abstraction does not describe (it is never pruned)."""

    __slots__ = ("reason",)
    fields = ("reason",)
    reason: str

    def __new__(cls, reason: str) -> Unknown:
        return super().__new__(cls, reason)

    def _render(self) -> str:
        return "?"


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_RESERVED = frozenset({"sum", "add", "mul", "div", "exp", "sqrt", "rmax", "cat"})


def sum_of(n: int, arg: Term) -> Term:
    """sum(n, arg), written as A_eq allows it most simply: x = sum(1, x) and
    sum(i, sum(j, x)) = sum(i*j, x)."""
    if n == 1:
        return arg
    if isinstance(arg, Sum):
        return Sum(n * arg.n, arg.arg)
    return Sum(n, arg)


def rmax_of(n: int, arg: Term) -> Term:
    """rmax(n, arg), with a maximum of maxima written as one."""
    if n == 1:
        return arg
    if isinstance(arg, RMax):
        return RMax(n * arg.n, arg.arg)
    return RMax(n, arg)


# --- reading the printed form back ---------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.]*)|(<)|(>)|([(),:?]))")


class TermSyntaxError(ValueError):
    """Text that is not an abstract expression."""


def parse_term(text: str) -> Term:
    """The term printed as `text` (the inverse of `str`)."""
    tokens: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise TermSyntaxError(f"unexpected character at {pos}: {text[pos : pos + 10]!r}")
        tokens.append(m.group(0).strip())
        pos = m.end()
    reader = _Reader(tokens)
    term = reader.term()
    if reader.pos != len(tokens):
        raise TermSyntaxError(
            f"trailing text after the expression: {' '.join(tokens[reader.pos :])}"
        )
    return term


class _Reader:
    def __init__(self, tokens: list[str]):
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise TermSyntaxError(f"expected {want or 'a token'}, found {tok or 'the end'}")
        self.pos += 1
        return tok

    def number(self) -> int:
        tok = self.take()
        if not tok.isdigit():
            raise TermSyntaxError(f"expected a number, found {tok}")
        return int(tok)

    def term(self) -> Term:
        tok = self.take()
        if tok == "1":
            return ONE
        if tok == "?":
            return Unknown("parsed")
        if not _NAME.fullmatch(tok):
            raise TermSyntaxError(f"expected an expression, found {tok}")
        if tok == "cat":
            return self.cat()
        if self.peek() != "(":
            return Var(tok)
        self.take("(")
        if tok in ("sum", "rmax"):
            n = self.number()
            self.take(",")
            arg = self.term()
            self.take(")")
            if n == 1:
                return arg
            return Sum(n, arg) if tok == "sum" else RMax(n, arg)
        args = [self.term()]
        while self.peek() == ",":
            self.take(",")
            args.append(self.term())
        self.take(")")
        binary = {"add": Add, "mul": Mul, "div": Div}
        unary = {"exp": Exp, "sqrt": Sqrt}
        if tok in binary:
            if len(args) != 2:
                raise TermSyntaxError(f"{tok} takes 2 operands, got {len(args)}")
            return binary[tok](args[0], args[1])
        if tok in unary:
            if len(args) != 1:
                raise TermSyntaxError(f"{tok} takes 1 operand, got {len(args)}")
            return unary[tok](args[0])
        return Fn(tok, tuple(args))

    def cat(self) -> Term:
        self.take("<")
        dim = self.number()
        self.take(">")
        self.take("(")
        pieces: list[tuple[int, Term]] = []
        while True:
            extent = self.number()
            self.take(":")
            pieces.append((extent, self.term()))
            if self.peek() != ",":
                break
            self.take(",")
        self.take(")")
        return Cat(dim, tuple(pieces))
