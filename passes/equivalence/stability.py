"""The floating-point check beside the proof: a candidate equal to the reference in exact
arithmetic can still be a numerically unstable rewrite (a cancellation, an overflowing
intermediate) or be undefined where the reference is not (a square root of a negative
value). Both programs run in float32 on the same random inputs; the drift of a result is
its largest deviation from the reference's float64 result relative to the largest
magnitude of that result, infinite where the float32 result is not finite but the
reference's float64 result is. A candidate is rejected when its drift exceeds the dtype
bound while the reference's stays within it.

The inputs alternate along their first axis between `offset + N(0, 1)` and `N(0, 1)`: an
offset large against the spread exposes cancellation (the mean of squares minus the square
of the mean loses about offset^2 ulps) and exponentials that overflow float32 but not
float64 (softmax without the max subtracted); the signed slices expose square roots of
negative values. The candidate's own float64 run is not needed: it is proven equal to the
reference in exact arithmetic, whose float64 result stands for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from mirage.dialects.ugraph.graph import Graph

FloatArray = NDArray[np.floating]

FLOAT32_EPS = float(np.finfo(np.float32).eps)


@dataclass(frozen=True)
class StabilityOptions:
    offset: float = 256.0
    """Every other slice of the inputs (along their first axis) is offset + N(0, 1), the
    others N(0, 1)."""
    bound: float = 1024 * FLOAT32_EPS
    """The largest float32 drift (relative to the result's magnitude) that passes."""
    seed: int = 0
    min_elements: int = 4096
    """Small programs get several input draws, up to this many input elements in all (a
    few signed values may all come out positive in one draw)."""
    max_draws: int = 8


def draws(graph: Graph, options: StabilityOptions) -> int:
    elements = max(1, sum(t.numel for t in graph.args))
    return max(1, min(options.max_draws, -(-options.min_elements // elements)))


def stability_inputs(graph: Graph, options: StabilityOptions, draw: int = 0) -> list[FloatArray]:
    rng = np.random.default_rng([options.seed, draw])
    inputs: list[FloatArray] = []
    for t in graph.args:
        x = rng.standard_normal(t.shape)
        if x.ndim:
            x[::2] += options.offset
        inputs.append(x)
    return inputs


@dataclass(frozen=True)
class Drift:
    value: float
    """The largest relative deviation over all outputs (infinite: not finite somewhere)."""
    not_finite_at: tuple[int, tuple[int, ...]] | None = None
    """(output, index) of the first position where the result is not finite but the
    reference's is."""

    def __str__(self) -> str:
        if self.not_finite_at is not None:
            output, index = self.not_finite_at
            return f"not finite at output {output}, index {list(index)}"
        return f"{self.value:.1e}"

    def worst(self, other: Drift) -> Drift:
        if self.not_finite_at is not None:
            return self
        return other if other.not_finite_at is not None or other.value > self.value else self


def drift(got: Sequence[FloatArray], want: Sequence[FloatArray]) -> Drift:
    """How far `got` is from `want`, ignoring positions where `want` is not finite."""
    worst = 0.0
    for j, (g, w) in enumerate(zip(got, want, strict=True)):
        w64 = np.asarray(w, dtype=np.float64)
        g64 = np.broadcast_to(np.asarray(g, dtype=np.float64), w64.shape)
        finite = np.isfinite(w64)
        if not finite.any():
            continue
        bad = finite & ~np.isfinite(g64)
        if bad.any():
            flat = int(np.argmax(bad.ravel()))
            index = tuple(int(i) for i in np.unravel_index(flat, w64.shape))
            return Drift(float("inf"), (j, index))
        wf, gf = w64[finite], g64[finite]
        scale = float(np.max(np.abs(wf))) or 1.0
        worst = max(worst, float(np.max(np.abs(gf - wf))) / scale)
    return Drift(worst)


@dataclass(frozen=True)
class FloatSample:
    """One draw of random float inputs (as float32) and the reference's float64 outputs."""

    draw: int
    inputs: list[FloatArray]
    reference: list[FloatArray]
