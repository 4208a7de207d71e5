"""Recognizing elementwise computations by what they compute.

An elementwise region of terms (arithmetic on tensors that are leaves for this purpose;
a narrowing cast is a leaf too, since the rounding it stands for is part of the program) is
a scalar function of the values where one cuts it. The matcher tries cuts from the one
that covers most of the region down: for each cut of one or two values it evaluates the
region on fixed random samples and compares with every kind of
`mirage.dialects.opkinds` (and with multiplication by a constant, and with a binary kind
whose other operand is a constant). So `x * sigmoid(x)` is silu however the body spells
sigmoid, `select(x > 0, x, 0)` is relu, `x * x` and `fpowi(x, 2)` are square.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mirage.dialects.opkinds import BINARY_KINDS, UNARY_KINDS, OpKind
from mirage.passes.linalg.term_graph import TermGraph, prim_fn

Array = NDArray[Any]

_N = 96
_RTOL = 1e-7
"""Constants of f32 bodies differ from the exact ones by about 1e-8 relative (gelu's
1.41421354 for sqrt(2)); an epsilon of 1e-6 added to values near 0.01 differs by 1e-4."""
_NARROW_RTOL = {"f16": 1e-3, "bf16": 8e-3}
"""The same for bodies computed in a 16-bit float: their constants are rounded to it (an
f16 body's sqrt(2) is 1.4140625), which moves gelu by about 4e-6 relative, far below what
the body's own rounding does. Where several kinds are that close, the closest is taken."""
_ATOL = 1e-9
"""Relative to the largest sample value: the tails of gelu are tiny, and there a constant
rounded to f32 weighs more than _RTOL."""
_MAX_REGION = 24


def _samples(seed: int) -> Array:
    rng = np.random.default_rng(seed)
    parts = [
        rng.uniform(-3.0, 3.0, 56),
        rng.uniform(0.01, 0.1, 12),
        -rng.uniform(0.01, 0.1, 12),
        rng.uniform(4.0, 9.0, 8) * rng.choice([-1.0, 1.0], 8),
        np.array([1.0, -1.0, 0.5, 2.0, -0.5, 3.0, 0.25, -2.0]),
    ]
    return np.concatenate(parts)[:_N]


def _float_fn(kind: OpKind) -> Callable[..., Array]:
    fn = kind.float_fn
    assert fn is not None, f"{kind.name} has no float meaning"
    return fn


_XS = _samples(1)
_YS = _samples(2)
_BINARY_FNS: list[tuple[str, Any]] = [
    *((k.name, _float_fn(k)) for k in BINARY_KINDS),
    ("min", np.minimum),  # no kind of its own: emitted as -max(-x, -y)
]
with np.errstate(all="ignore"):
    _UNARY_REF = {k.name: _float_fn(k)(_XS.copy()) for k in UNARY_KINDS}
    _BINARY_REF = {name: (fn(_XS, _YS), fn(_YS, _XS)) for name, fn in _BINARY_FNS}


def _close(a: Array, b: Array, rtol: float = _RTOL) -> bool:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        a, b = np.broadcast_arrays(a, b)
    fa, fb = np.isfinite(a), np.isfinite(b)
    if not np.array_equal(fa, fb) or fa.sum() < _N // 4:
        return False
    scale = float(np.max(np.abs(b[fb])))
    return bool(np.allclose(a[fa], b[fb], rtol=rtol, atol=_ATOL * scale))


def _distance(a: Array, b: Array) -> float:
    """How far apart two sample vectors that `_close` accepts are (relative to b's size)."""
    fb = np.isfinite(b)
    scale = max(float(np.max(np.abs(b[fb]))), 1e-300)
    return float(np.max(np.abs(np.asarray(a)[fb] - b[fb]))) / scale


@dataclass(frozen=True)
class Match:
    """The region equals `kind` applied to `operands` (term ids, in order), where an
    operand None stands for the constant `const`. Kinds: a kind of opkinds, `min`,
    `scale` (multiplication by `const`) or `identity`."""

    kind: str
    operands: tuple[int | None, ...]
    const: float | None = None


class Region:
    """The elementwise terms under one root, with the leaves they read."""

    def __init__(self, graph: TermGraph, root: int) -> None:
        self.graph = graph
        self.root = root
        self.rtol = _NARROW_RTOL.get(graph[root].dtype, _RTOL)
        self.nodes: list[int] = []
        self.leaves: list[int] = []
        seen: set[int] = set()
        stack = [root]
        while stack:
            t = stack.pop()
            if t in seen:
                continue
            seen.add(t)
            term = graph[t]
            if term.kind == "const":
                continue
            if (
                term.kind == "ew"
                and len(self.nodes) < _MAX_REGION
                and (t == root or not graph.is_narrowing_cast(t))
            ):
                self.nodes.append(t)
                stack.extend(term.operands)
            else:
                self.leaves.append(t)

    def covered(self, cut: tuple[int, ...]) -> list[int] | None:
        """The region nodes computed above `cut`, or None if the root reads a leaf that
        is not in the cut."""
        seen: set[int] = set()
        out: list[int] = []
        stack = [self.root]
        while stack:
            t = stack.pop()
            if t in seen or t in cut:
                continue
            seen.add(t)
            term = self.graph[t]
            if term.kind == "const":
                continue
            if term.kind != "ew" or (t != self.root and self.graph.is_narrowing_cast(t)):
                return None
            out.append(t)
            stack.extend(term.operands)
        return out

    def evaluate(self, binding: dict[int, Array]) -> Array:
        memo: dict[int, Array] = dict(binding)

        def value(t: int) -> Array:
            found = memo.get(t)
            if found is not None:
                return found
            term = self.graph[t]
            if term.kind == "const":
                v = np.full((), term.attr, np.float64)
            else:
                with np.errstate(all="ignore"):
                    v = prim_fn(term.attr)(*[value(o) for o in term.operands])  # type: ignore[arg-type]
            memo[t] = v
            return v

        return np.asarray(value(self.root))

    def constants(self, nodes: list[int]) -> list[float]:
        out: set[float] = set()
        for t in nodes:
            for o in self.graph[t].operands:
                c = self.graph.const_value(o)
                if c is not None:
                    out.update({c, -c})
                    if c != 0:
                        out.add(1.0 / c)
        return sorted(out)

    def in_order(self, cut: tuple[int, ...]) -> tuple[int, ...]:
        """The cut's values in the order the source reads them (left operands first), so
        a commutative op keeps its operand order."""
        order: dict[int, int] = {}
        stack = [self.root]
        while stack:
            t = stack.pop()
            if t in order:
                continue
            order[t] = len(order)
            if t not in cut and self.graph[t].kind == "ew":
                stack.extend(reversed(self.graph[t].operands))
        return tuple(sorted(cut, key=lambda c: order.get(c, len(order))))

    def cuts(self) -> list[tuple[tuple[int, ...], list[int]]]:
        """Cuts of one or two values with the nodes each covers, most covered first."""
        candidates = [t for t in [*self.nodes, *self.leaves] if t != self.root]
        found: list[tuple[tuple[int, ...], list[int]]] = []
        for c in candidates:
            cov = self.covered((c,))
            if cov is not None:
                found.append(((c,), cov))
        for a, b in itertools.combinations(candidates, 2):
            cov = self.covered((a, b))
            if cov is None:
                continue
            # both values must be read (else a smaller cut says the same)
            if self.covered((a,)) is None and self.covered((b,)) is None:
                found.append(((a, b), cov))
        found.sort(key=lambda x: (-len(x[1]), len(x[0])))
        return found


def match_region(graph: TermGraph, root: int) -> Match | None:
    """The kernel op (one kind, scale, or identity) that computes `root` from the values
    of the largest cut that one matches; None when only the root's own primitive does."""
    region = Region(graph, root)
    for cut, covered in region.cuts():
        m = _match_cut(region, cut, covered)
        if m is not None:
            return m
    return None


def _match_cut(region: Region, cut: tuple[int, ...], covered: list[int]) -> Match | None:
    if len(cut) == 1:
        (x,) = cut
        g = region.evaluate({x: _XS})
        if not np.isfinite(g).any():
            return None
        close = [k.name for k in UNARY_KINDS if _close(g, _UNARY_REF[k.name], region.rtol)]
        if close:
            return Match(min(close, key=lambda k: _distance(g, _UNARY_REF[k])), (x,))
        c = float(region.evaluate({x: np.array([1.0])}).reshape(-1)[0])
        if np.isfinite(c) and c != 0 and _close(g, c * _XS, region.rtol):
            return Match("identity", (x,)) if c == 1.0 else Match("scale", (x,), c)
        zero = float(region.evaluate({x: np.array([0.0])}).reshape(-1)[0])
        consts = region.constants(covered)
        if np.isfinite(zero):
            consts = sorted({*consts, zero})
        for name, fn in _BINARY_FNS:
            for c in consts:
                with np.errstate(all="ignore"):
                    if _close(g, fn(_XS, np.float64(c)), region.rtol):
                        return Match(name, (x, None), c)
                    if _close(g, fn(np.float64(c), _XS), region.rtol):
                        return Match(name, (None, x), c)
        return None
    a, b = region.in_order(cut)
    g = region.evaluate({a: _XS, b: _YS})
    for name, _ in _BINARY_FNS:
        ab, ba = _BINARY_REF[name]
        if _close(g, ab, region.rtol):
            return Match(name, (a, b))
        if _close(g, ba, region.rtol):
            return Match(name, (b, a))
    return None


def find_combiner(graph: TermGraph, y: int, placeholder: int) -> tuple[str, int] | None:
    """How a reduction body combines: `y` == comb(placeholder, x) for comb in add, max,
    min and some x that does not read the placeholder; returns (sum|max|min, x)."""
    region = Region(graph, y)
    combiners = {"sum": np.add(_XS, _YS), "max": np.maximum(_XS, _YS), "min": np.minimum(_XS, _YS)}
    for cut, _ in region.cuts():
        if placeholder not in cut or len(cut) != 2:
            continue
        x = cut[0] if cut[1] == placeholder else cut[1]
        g = region.evaluate({placeholder: _XS, x: _YS})
        for kind, ref in combiners.items():
            if _close(g, ref):
                return kind, x
    return None


def match_rms_norm(graph: TermGraph, root: int) -> int | None:
    """The x for which `root` is x / sqrt(mean(x * x)) over the last dim (kernel.rms_norm),
    however the division, root and mean are spelled; None otherwise."""
    term = graph[root]
    if not term.shape:
        return None
    region = Region(graph, root)
    for cut, _ in region.cuts():
        if len(cut) != 2:
            continue
        for x, r in (cut, cut[::-1]):
            if not _is_sum_of_squares(graph, r, x) or graph[x].shape != term.shape:
                continue
            n = float(term.shape[-1])
            sums = np.abs(_YS) + 0.01
            g = region.evaluate({x: _XS, r: sums})
            if _close(g, _XS / np.sqrt(sums / n)):
                return x
    return None


def _is_sum_of_squares(graph: TermGraph, r: int, x: int) -> bool:
    """Whether r sums x * x over x's last dim (keeping it)."""
    term = graph[r]
    rank = graph[x].rank
    if term.kind != "reduce" or term.attr != ("sum", (rank - 1,)):
        return False
    m = match_region(graph, term.operands[0]) if graph[term.operands[0]].kind == "ew" else None
    return m is not None and m.kind == "square" and m.operands == (x,)


# --- norms as users write them --------------------------------------------------------


@dataclass(frozen=True)
class NormMatch:
    """The root is rms_norm(x, gain, bias, eps) (`centered`: of x - mean(x), a layer
    norm), over the last dim. gain and bias are term ids or None."""

    x: int
    centered: bool
    gain: int | None
    bias: int | None
    eps: float


_ZS = _samples(3)
_GS = _samples(4)
_BS = _samples(5)


def _widened(graph: TermGraph, t: int) -> int:
    """t without the widening casts above it (they change no value)."""
    while True:
        term = graph[t]
        if term.kind != "ew" or term.attr != "cast" or graph.is_narrowing_cast(t):
            return t
        t = term.operands[0]


def _is_row_sum(graph: TermGraph, t: int) -> bool:
    term = graph[t]
    return term.kind == "reduce" and term.attr == ("sum", (term.rank - 1,))


def _passes(graph: TermGraph, t: int) -> bool:
    """Whether a norm's region goes on through t: elementwise terms, but not a narrowing
    cast, save one from f64 (the statistics torch computes in f64 are f32 in the kernel
    dialect, so that rounding is not part of the program)."""
    term = graph[t]
    if term.kind != "ew":
        return False
    return not graph.is_narrowing_cast(t) or graph[term.operands[0]].dtype == "f64"


def _region_terms(graph: TermGraph, root: int) -> list[int]:
    """The terms under root that a norm's region holds (its leaves included)."""
    out: list[int] = []
    seen: set[int] = set()
    stack = [root]
    while stack and len(out) < 4 * _MAX_REGION:
        t = stack.pop()
        if t in seen or graph[t].kind == "const":
            continue
        seen.add(t)
        out.append(t)
        if t == root or _passes(graph, t):
            stack.extend(graph[t].operands)
    return out


def _reads(graph: TermGraph, root: int, stop: set[int]) -> list[int] | None:
    """The values outside `stop` that the elementwise terms under `root` read, or None if
    they reach more than the region allows."""
    out: list[int] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        t = stack.pop()
        if t in seen or t in stop:
            continue
        seen.add(t)
        term = graph[t]
        if term.kind == "const":
            continue
        if term.kind == "ew" and (t == root or _passes(graph, t)):
            if len(seen) > 4 * _MAX_REGION:
                return None
            stack.extend(term.operands)
        else:
            out.append(t)
    return out


def _evaluate(graph: TermGraph, root: int, binding: dict[int, Array]) -> Array:
    return Region(graph, root).evaluate(binding)


def match_norm(graph: TermGraph, root: int) -> NormMatch | None:
    """The norm that `root` computes, however it is spelled: x * rsqrt(mean(x^2) + eps),
    x / sqrt(...), with a gain and a bias of the last dim in any operand order (T5 and
    Llama's RMSNorm, F.rms_norm), or the same of x - mean(x) (F.layer_norm, a hand-written
    LayerNorm); None otherwise."""
    term = graph[root]
    if term.kind != "ew" or not term.shape:
        return None
    rank = term.rank
    n = float(term.shape[-1])
    for r in _region_terms(graph, root):
        if not _is_row_sum(graph, r) or graph[r].shape != (*term.shape[:-1], 1):
            continue
        squared = graph[r].operands[0]
        if graph[squared].kind != "ew":
            continue
        bases = {_widened(graph, c) for c in _region_terms(graph, squared) if c != squared}
        for base in sorted(bases):
            if graph[base].shape != term.shape or graph[base].kind == "const":
                continue
            found = _match_norm_at(graph, root, r, squared, base, rank, n)
            if found is not None:
                return found
    return None


def _match_norm_at(
    graph: TermGraph, root: int, r: int, squared: int, base: int, rank: int, n: float
) -> NormMatch | None:
    terms = {*_region_terms(graph, root), *_region_terms(graph, squared)}
    xs = {t for t in terms if _widened(graph, t) == base and graph[t].shape == graph[base].shape}
    sums = {
        t for t in terms if _is_row_sum(graph, t) and _widened(graph, graph[t].operands[0]) == base
    }
    inner = _reads(graph, squared, xs | sums)
    if inner is None or inner:
        return None
    binding: dict[int, Array] = {t: _XS for t in xs} | {t: _ZS for t in sums}
    sq = _evaluate(graph, squared, binding)
    if _close(sq, _XS * _XS):
        centered = False
        centre = _XS
    elif _close(sq, (_XS - _ZS / n) ** 2):
        centered = True
        centre = _XS - _ZS / n
    else:
        return None
    others = _reads(graph, root, xs | sums | {r})
    if others is None or len(others) > 2:
        return None
    if any(graph[o].rank != rank for o in others):
        return None
    roles: list[tuple[int | None, int | None]] = []
    if len(others) == 2:
        roles = [(others[0], others[1]), (others[1], others[0])]
    elif len(others) == 1:
        roles = [(others[0], None), (None, others[0])]
    else:
        roles = [(None, None)]
    totals = np.abs(_YS) + 0.01
    consts = sorted(
        {
            abs(c)
            for t in terms
            for o in graph[t].operands
            if (c := graph.const_value(o)) is not None
        }
    )
    for gain, bias in roles:
        base_binding = {**binding, r: totals}
        unit = dict(base_binding)
        if gain is not None:
            unit[gain] = np.ones_like(_XS)
        if bias is not None:
            unit[bias] = np.zeros_like(_XS)
        y = _evaluate(graph, root, unit)
        with np.errstate(all="ignore"):
            estimates = (centre / y) ** 2 - totals / n
        finite = estimates[np.isfinite(estimates)]
        if finite.size < _N // 4:
            continue
        estimate = float(np.median(finite))
        eps = _snap_eps(estimate, consts, float(np.mean(totals / n)))
        if eps is None:
            continue
        full = dict(base_binding)
        want = centre / np.sqrt(totals / n + eps)
        if gain is not None:
            full[gain] = _GS
            want = want * _GS
        if bias is not None:
            full[bias] = _BS
            want = want + _BS
        if _close(_evaluate(graph, root, full), want):
            return NormMatch(base, centered, gain, bias, eps)
    return None


def _snap_eps(estimate: float, consts: list[float], scale: float) -> float | None:
    """The constant of the region that the estimated eps is (the estimate is off by the
    rounding of the samples), 0 for none; None where no constant fits."""
    if abs(estimate) <= 1e-9 * scale:
        return 0.0
    for c in consts:
        if c > 0 and abs(c - estimate) <= 1e-6 * c + 1e-12 * scale:
            return c
    return None
