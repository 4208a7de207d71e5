"""Dimension typing: which dim of the program each tensor dim is.

Every dim of every program argument is a variable; the program's ops unify them (an
elementwise op unifies the dims it aligns, a matmul its batch dims and the two contracted
dims, a norm its gain's and bias's dims with those it normalizes) and mark some as
reduced (contracted, summed, normalized over). A candidate's values carry these variables
through the same rules, and an op is dropped when it
- aligns two dims that the program never aligns (an elementwise op or a matmul batch dim
  over different variables),
- contracts or reduces a dim that the program never reduces (a sum over rows where the
  program sums over columns, a matmul contracting an output dim), or
- reduces a dim of extent 1 (a no-op).

This is a restriction beyond the abstract expressions, which do not see dims: a μGraph
equivalent to the program computes with the program's dims (the dialects have no
transposes and no constants but scalars), so none is lost on the programs of the
benchmarks; dims of unknown origin (concatenations, partial results) are not checked.
"""

from __future__ import annotations

from collections.abc import Sequence

from mirage.dialects.opkinds import (
    CONCATS,
    CONTRACTIONS,
    LAST_DIM_ACCUMULATORS,
    LOOP_MAX,
    LOOP_MEAN_LAST,
    LOOP_RMS_LAST,
    MAX_REDUCTIONS,
    NORMS,
    OP_KINDS,
    POINTWISE,
    REDUCTIONS,
    Partials,
)
from mirage.dialects.ugraph.graph import Graph

Dim = int | None
"""A variable's class, or None where unknown (and for extent-1 dims)."""
Dims = tuple[Dim, ...]

_COMPLETE_OPERANDS = LOOP_MAX | NORMS | LOOP_MEAN_LAST | LOOP_RMS_LAST | CONCATS
"""Kinds that take complete results only (a max, a mean or root, a concatenation)."""


class DimMismatch(ValueError):
    """The op aligns or reduces dims against the program's dims."""


class DimTypes:
    """The program's dim variables and the reduced ones."""

    def __init__(self, program: Graph) -> None:
        self._parent: list[int] = []
        self.args: list[Dims] = []
        for t in program.args:
            self.args.append(tuple(self._new() if n > 1 else None for n in t.shape))
        self._reduced: set[int] = set()
        values: list[Dims] = list(self.args)
        for op in program.ops:
            shapes = [program.type_of(v).shape for v in op.operands]
            results = self._learn(op.kind, dict(op.attrs), [values[v] for v in op.operands], shapes)
            out = (
                [results]
                if len(op.results) == 1
                else [tuple(None for _ in t.shape) for t in op.results]
            )
            values.extend(
                tuple(d if n > 1 else None for d, n in zip(dims, t.shape, strict=True))
                if len(dims) == len(t.shape)
                else tuple(None for _ in t.shape)
                for dims, t in zip(out, op.results, strict=True)
            )
        self.reduced = frozenset(self._find(r) for r in self._reduced)
        self._partial_tiles: dict[int, int] = {}

    def _new(self) -> int:
        self._parent.append(len(self._parent))
        return len(self._parent) - 1

    def _find(self, x: int) -> int:
        while self._parent[x] != x:
            self._parent[x] = self._parent[self._parent[x]]
            x = self._parent[x]
        return x

    def _union(self, a: Dim, b: Dim) -> Dim:
        if a is None:
            return b
        if b is None:
            return a
        ra, rb = self._find(a), self._find(b)
        self._parent[max(ra, rb)] = min(ra, rb)
        return min(ra, rb)

    def _learn(
        self,
        kind: str,
        attrs: dict[str, object],
        dims: list[Dims],
        shapes: Sequence[tuple[int, ...]],
    ) -> Dims:
        """Unify and mark reductions along the program's op; its result's dims."""
        if kind in POINTWISE:
            return tuple(self._union_all([d[i] for d in dims]) for i in range(len(dims[0])))
        if OP_KINDS[kind].partials is Partials.PASSES:
            return dims[0]
        if kind in CONTRACTIONS:
            a, b = dims
            batch = tuple(self._union(x, y) for x, y in zip(a[:-2], b[:-2], strict=True))
            k = self._union(a[-1], b[-2])
            if k is not None:
                self._reduced.add(k)
            return (*batch, a[-2], b[-1])
        if kind in REDUCTIONS:
            dim = attrs["dim"]
            assert isinstance(dim, int)
            d = dims[0][dim]
            if d is not None:
                self._reduced.add(d)
            return tuple(None if i == dim else x for i, x in enumerate(dims[0]))
        if kind in NORMS:
            if dims[0][-1] is not None:
                self._reduced.add(dims[0][-1])
            # the gain and the bias apply elementwise (a product, a sum): their dims are x's
            return tuple(self._union_all([d[i] for d in dims]) for i in range(len(dims[0])))
        return tuple(None for _ in shapes[0]) if shapes else ()

    def _union_all(self, ds: list[Dim]) -> Dim:
        out: Dim = None
        for d in ds:
            out = self._union(out, d)
        return out

    # --- candidates ----------------------------------------------------------------------

    def partial_var(self, tile: int) -> int:
        """A new variable for a dim that holds partial results side by side, `tile` apart:
        only sums over it (to a size dividing `tile`) and linear ops may touch it."""
        v = self._new()
        self._partials[v] = tile
        return v

    @property
    def _partials(self) -> dict[int, int]:
        return self._partial_tiles

    def root(self, d: Dim) -> Dim:
        return None if d is None else self._find(d)

    def is_partial(self, d: Dim) -> bool:
        return d is not None and self._find(d) in self._partials

    def _any_partial(self, dims: Dims) -> bool:
        return any(self.is_partial(d) for d in dims)

    def _linear_only(self, dims: Sequence[Dims], what: str) -> None:
        if any(self._any_partial(d) for d in dims):
            raise DimMismatch(f"{what} of partial results")

    def _same(self, ds: list[Dim]) -> Dim:
        known = {self._find(d) for d in ds if d is not None}
        if len(known) > 1:
            raise DimMismatch("aligns dims the program never aligns")
        return next(iter(known)) if known else None

    def _reduce(self, d: Dim, extent: int) -> None:
        if extent == 1:
            raise DimMismatch("reduces a dim of extent 1")
        if d is not None and not self.is_partial(d) and self._find(d) not in self.reduced:
            raise DimMismatch("reduces a dim the program never reduces")

    def infer(
        self,
        kind: str,
        attrs: dict[str, object],
        dims: Sequence[Dims],
        shapes: Sequence[tuple[int, ...]],
        result: tuple[int, ...],
    ) -> Dims:
        """The dims of a candidate op's result (whole tensors), or DimMismatch."""
        out = self._infer(kind, attrs, dims, shapes)
        return tuple(d if n > 1 else None for d, n in zip(out, result, strict=True))

    def _infer(
        self,
        kind: str,
        attrs: dict[str, object],
        dims: Sequence[Dims],
        shapes: Sequence[tuple[int, ...]],
    ) -> Dims:
        partial = [self._any_partial(d) for d in dims]
        rule = OP_KINDS[kind].partials if kind in OP_KINDS else None
        if kind in POINTWISE and rule is not Partials.PASSES:
            if len(dims) == 1:
                self._linear_only(dims, kind)
            elif rule is Partials.SUM:
                for i in range(len(shapes[0])):
                    if any(self.is_partial(d[i]) for d in dims) and any(s[i] == 1 for s in shapes):
                        raise DimMismatch("adds a value to each partial result")
            elif rule in (Partials.PRODUCT, Partials.QUOTIENT):
                if sum(partial) > 1 or (rule is Partials.QUOTIENT and partial[1]):
                    raise DimMismatch("a product or quotient of partial results")
            else:
                self._linear_only(dims, kind)
            return tuple(
                self._same([d[i] for d, s in zip(dims, shapes, strict=True) if s[i] > 1])
                for i in range(len(shapes[0]))
            )
        if rule is Partials.PASSES:
            return dims[0]
        if kind in _COMPLETE_OPERANDS:
            self._linear_only(dims, kind)
        if kind in LOOP_MAX:
            return dims[0]
        if kind in CONTRACTIONS:
            (a, b), (sa, sb) = dims, shapes
            if sum(partial) > 1:
                raise DimMismatch("a product of partial results")
            batch = tuple(
                self._same([x for x, n in ((a[i], sa[i]), (b[i], sb[i])) if n > 1])
                for i in range(len(sa) - 2)
            )
            k = self._same([a[-1], b[-2]])
            if self.is_partial(k):
                raise DimMismatch("contracts a dim of partial results")
            self._reduce(k, sa[-1])
            return (*batch, a[-2], b[-1])
        if kind in REDUCTIONS:
            dim, size = attrs["dim"], attrs.get("size", 1)
            assert isinstance(dim, int) and isinstance(size, int)
            if kind in MAX_REDUCTIONS:
                self._linear_only(dims, kind)
            d = dims[0][dim]
            if self.is_partial(d):
                assert d is not None
                if self._partials[self._find(d)] % size:
                    raise DimMismatch("a sum that mixes partial results of different places")
            elif size != 1:
                raise DimMismatch("a sum to several elements of a dim of complete results")
            self._reduce(d, shapes[0][dim])
            return tuple(None if i == dim else x for i, x in enumerate(dims[0]))
        if kind in NORMS or kind in LAST_DIM_ACCUMULATORS:
            self._reduce(dims[0][-1], shapes[0][-1])
            if kind in NORMS:  # with the gain and the bias aligned as elementwise
                return tuple(
                    self._same([d[i] for d, s in zip(dims, shapes, strict=True) if s[i] > 1])
                    for i in range(len(shapes[0]))
                )
            return (*dims[0][:-1], None)
        if kind in CONCATS:
            dim = attrs["dim"]
            assert isinstance(dim, int)
            return tuple(
                None if i == dim else self._same([d[i] for d in dims])
                for i in range(len(shapes[0]))
            )
        return tuple(None for _ in shapes[0]) if shapes else ()
