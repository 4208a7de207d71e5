"""Which elements of a tensor are copies of each other, so that summing copies (a constant
factor) is not mistaken for a sum of distinct values.

A tensor dim of extent n is read as mixed-radix digits, most significant first, each
(extent, copy): `copy` says the value does not depend on that digit. Copies arise where
blocks that do not depend on a grid coordinate save their tiles side by side along a dim
(the same norm saved by every column block of a split-K kernel), and input iterators
carry them into tiles; a reduction, matmul, rms_norm or accumulator over such a dim sums
each distinct value once per copy, which the abstraction, like any constant factor,
drops. Every rule here only claims a copy where it is one; where digits do not line up it
claims none (the plain sum).
"""

from __future__ import annotations

from collections.abc import Sequence

Factors = tuple[tuple[int, bool], ...]
"""The digits of one dim, most significant first; () is a dim of extent 1."""
Layout = tuple[Factors, ...]


def normal(factors: Sequence[tuple[int, bool]]) -> Factors:
    """Without digits of extent 1, neighbours of one kind merged."""
    out: list[tuple[int, bool]] = []
    for extent, copy in factors:
        if extent == 1:
            continue
        if out and out[-1][1] == copy:
            out[-1] = (out[-1][0] * extent, copy)
        else:
            out.append((extent, copy))
    return tuple(out)


def distinct(extent: int) -> Factors:
    return normal([(extent, False)])


def plain(shape: Sequence[int]) -> Layout:
    return tuple(distinct(n) for n in shape)


def extent(factors: Factors) -> int:
    n = 1
    for e, _ in factors:
        n *= e
    return n


def copies(factors: Factors) -> int:
    """How many times each distinct value occurs along the dim."""
    n = 1
    for e, copy in factors:
        if copy:
            n *= e
    return n


def split(factors: Factors, extents: Sequence[int]) -> list[Factors] | None:
    """The digits of consecutive segments of the given extents (most significant first),
    or None where a segment boundary falls inside a digit it does not divide."""
    queue = list(factors)
    out: list[Factors] = []
    for want in extents:
        segment: list[tuple[int, bool]] = []
        while want > 1:
            if not queue:
                return None
            e, copy = queue.pop(0)
            if e <= want:
                if want % e:
                    return None
                segment.append((e, copy))
                want //= e
            else:
                if e % want:
                    return None
                segment.append((want, copy))
                queue.insert(0, (e // want, copy))
                want = 1
        out.append(normal(segment))
    if any(e > 1 for e, _ in queue):
        return None
    return out


def meet(a: Factors, b: Factors) -> Factors:
    """Digits that are copies in both (a common refinement; none where they do not line
    up)."""
    qa, qb = list(a), list(b)
    out: list[tuple[int, bool]] = []
    while qa and qb:
        (ea, ca), (eb, cb) = qa[0], qb[0]
        if ea == eb:
            out.append((ea, ca and cb))
            qa.pop(0)
            qb.pop(0)
        elif ea % eb == 0:
            out.append((eb, ca and cb))
            qa[0] = (ea // eb, ca)
            qb.pop(0)
        elif eb % ea == 0:
            out.append((ea, ca and cb))
            qb[0] = (eb // ea, cb)
            qa.pop(0)
        else:
            return distinct(extent(a))
    return normal(out)


def meet_broadcast(layouts: Sequence[Layout], shape: Sequence[int]) -> Layout:
    """The layout of an elementwise result of `shape`: an operand of extent 1 in a dim
    is the same along it."""
    dims: list[Factors] = []
    for d, n in enumerate(shape):
        acc = normal([(n, True)])
        for layout in layouts:
            if extent(layout[d]) == n:
                acc = meet(acc, layout[d])
        dims.append(acc)
    return tuple(dims)
