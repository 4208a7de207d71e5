"""The floating-point check beside the proof: a candidate equal to the reference in exact
arithmetic can still be a numerically unstable rewrite (a cancellation, an overflowing
intermediate). Both programs run in float32 on the same random inputs; the drift of a
result is its largest deviation from the reference's float64 result relative to the
largest magnitude of that result. A candidate is rejected when its drift exceeds the
dtype bound while the reference's stays within it.

The inputs are `offset + N(0, 1)`: an offset large against the spread exposes
cancellation (mean of squares minus square of mean loses about offset^2 ulps) and
exponentials that overflow float32 but not float64 (softmax without the max subtracted).
The candidate's own float64 run is not needed: it is proven equal to the reference in
exact arithmetic, whose float64 result stands for both.
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
    offset: float = 100.0
    """Inputs are offset + N(0, 1)."""
    bound: float = 1024 * FLOAT32_EPS
    """The largest float32 drift (relative to the result's magnitude) that passes."""
    seed: int = 0


def stability_inputs(graph: Graph, options: StabilityOptions) -> list[FloatArray]:
    rng = np.random.default_rng(options.seed)
    return [options.offset + rng.standard_normal(t.shape) for t in graph.args]


def drift(got: Sequence[FloatArray], want: Sequence[FloatArray]) -> float:
    """The largest relative deviation of `got` from `want` over all outputs, ignoring
    positions where `want` is not finite; infinite when `got` is not finite there."""
    worst = 0.0
    for g, w in zip(got, want, strict=True):
        w64 = np.asarray(w, dtype=np.float64)
        g64 = np.broadcast_to(np.asarray(g, dtype=np.float64), w64.shape)
        finite = np.isfinite(w64)
        if not finite.any():
            continue
        wf, gf = w64[finite], g64[finite]
        if not np.all(np.isfinite(gf)):
            return float("inf")
        scale = float(np.max(np.abs(wf))) or 1.0
        worst = max(worst, float(np.max(np.abs(gf - wf))) / scale)
    return worst
