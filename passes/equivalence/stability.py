"""The floating-point check beside the proof: a candidate equal to the reference in exact
arithmetic can still be a numerically unstable rewrite (a cancellation, an overflowing
intermediate) or be undefined where the reference is not (a square root of a negative
value). Both programs run in float32 on the same random inputs, and are compared with the
reference's float64 result at the positions where the reference's float32 and float64
results are both finite (elsewhere the reference itself gives no answer to compare with).
A candidate is rejected when its float32 result is not finite at such a position, or when
its drift (largest deviation from float64, relative to the largest magnitude of the result)
exceeds the dtype bound while the reference's stays within it.

Inputs: in even draws every other slice along the first axis is `offset + N(0, 1)`, the
others `N(0, 1)`; odd draws are `N(0, 1)` throughout. The offset exposes cancellation (the
mean of squares minus the square of the mean loses about offset^2 ulps) and exponentials
that overflow float32 but not float64 (softmax without the max subtracted); signed values
expose square roots of negative values. Where the program keeps tensors in f16 or bf16, the
candidate also runs with every stored tensor rounded to its dtype (the values a device
kernel writes), and is rejected where that result is not finite while the float64 one fits
the output's dtype: an intermediate that overflows f16 (exp of raw scores kept between
kernels) is caught, though the reference's own f16 run may overflow there too. Small
programs get several draws. The candidate's
own float64 run is not needed: it is proven equal to the reference in exact arithmetic,
whose float64 result stands for both.
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
    storage: bool = False
    """Also run the candidate with its f16/bf16 tensors rounded to their dtypes (where the
    program has such tensors) and reject what overflows there (the search asks this)."""


def draws(graph: Graph, options: StabilityOptions) -> int:
    elements = max(1, sum(t.numel for t in graph.args))
    return max(1, min(options.max_draws, -(-options.min_elements // elements)))


def stability_inputs(graph: Graph, options: StabilityOptions, draw: int = 0) -> list[FloatArray]:
    rng = np.random.default_rng([options.seed, draw])
    inputs: list[FloatArray] = []
    for t in graph.args:
        x = rng.standard_normal(t.shape)
        if x.ndim and draw % 2 == 0:
            x[::2] += options.offset
        inputs.append(x)
    return inputs


@dataclass(frozen=True)
class FloatSample:
    """One draw of random float inputs (as float32) and the reference's results on them."""

    draw: int
    inputs: list[FloatArray]
    reference64: list[FloatArray]
    reference32: list[FloatArray]
    reference_stored: list[FloatArray] | None = None
    """The reference's own result with its tensors stored in their narrow dtypes (the
    storage check's samples only)."""


@dataclass(frozen=True)
class Comparison:
    drift: float
    """The candidate's largest relative deviation from the reference's float64 result
    (infinite: not finite somewhere the reference is)."""
    reference_drift: float
    """The same for the reference's own float32 result."""
    not_finite_at: tuple[int, tuple[int, ...]] | None = None
    """(output, index) of the first position where the candidate's float32 result is not
    finite while the reference's float32 and float64 results are."""

    def worst(self, other: Comparison) -> Comparison:
        return Comparison(
            max(self.drift, other.drift),
            max(self.reference_drift, other.reference_drift),
            self.not_finite_at or other.not_finite_at,
        )

    def rejection(self, bound: float) -> str | None:
        """Why the candidate is numerically unstable, or None."""
        if self.not_finite_at is not None:
            output, index = self.not_finite_at
            return (
                f"its float32 result is not finite at output {output}, index {list(index)}, "
                "where the reference's float32 and float64 results are finite"
            )
        if self.drift > bound >= self.reference_drift:
            return (
                f"its float32 result drifts {self.drift:.1e} from float64 (relative), beyond "
                f"the bound {bound:.1e}; the reference's drifts {self.reference_drift:.1e}"
            )
        return None


def compare(sample: FloatSample, got: Sequence[FloatArray]) -> Comparison:
    """The candidate's float32 results `got` against the reference's, on one sample."""
    result = Comparison(0.0, 0.0)
    for j, (g, w, r) in enumerate(zip(got, sample.reference64, sample.reference32, strict=True)):
        w64 = np.asarray(w, dtype=np.float64)
        r64 = np.broadcast_to(np.asarray(r, dtype=np.float64), w64.shape)
        g64 = np.broadcast_to(np.asarray(g, dtype=np.float64), w64.shape)
        comparable = np.isfinite(w64) & np.isfinite(r64)
        if not comparable.any():
            continue
        bad = comparable & ~np.isfinite(g64)
        if bad.any():
            flat = int(np.argmax(bad.ravel()))
            index = tuple(int(i) for i in np.unravel_index(flat, w64.shape))
            return Comparison(float("inf"), result.reference_drift, (j, index))
        wf = w64[comparable]
        scale = float(np.max(np.abs(wf))) or 1.0
        result = result.worst(
            Comparison(
                float(np.max(np.abs(g64[comparable] - wf))) / scale,
                float(np.max(np.abs(r64[comparable] - wf))) / scale,
            )
        )
    return result


NARROW_RANGE: dict[str, float] = {
    "f16": float(np.finfo(np.float16).max),
    "bf16": float(np.finfo(np.float32).max),  # bf16 keeps f32's exponent range
}
"""The largest finite value of each narrow storage dtype."""


STORED_HEADROOM = 0.5
"""Compared with the reference's own stored result, a position counts only where that is
at most this part of the dtype's range: a value at the edge of it (-65440 in f16) becomes
infinite in a sum taken in another order (a blocked matmul), which is no instability."""


def storage_overflow(
    sample: FloatSample,
    got: Sequence[FloatArray],
    output_dtypes: Sequence[str],
    as_reference: bool = False,
) -> tuple[int, tuple[int, ...]] | None:
    """(output, index) of the first position where the candidate's result with narrow
    storage is not finite while the reference's float64 result is finite and fits the
    output's dtype (`as_reference`: and the reference's own result with narrow storage is
    finite there too, within `STORED_HEADROOM` of the range); None if there is none."""
    for j, (g, w, dtype) in enumerate(zip(got, sample.reference64, output_dtypes, strict=True)):
        w64 = np.asarray(w, dtype=np.float64)
        g64 = np.broadcast_to(np.asarray(g, dtype=np.float64), w64.shape)
        limit = NARROW_RANGE.get(dtype, float(np.finfo(np.float32).max))
        with np.errstate(invalid="ignore"):
            fits = np.isfinite(w64) & (np.abs(w64) <= limit)
        if as_reference and sample.reference_stored is not None:
            own = np.broadcast_to(np.asarray(sample.reference_stored[j], np.float64), w64.shape)
            with np.errstate(invalid="ignore"):
                fits &= np.isfinite(own) & (np.abs(own) <= STORED_HEADROOM * limit)
        bad = fits & ~np.isfinite(g64)
        if bad.any():
            flat = int(np.argmax(bad.ravel()))
            return j, tuple(int(i) for i in np.unravel_index(flat, w64.shape))
    return None
