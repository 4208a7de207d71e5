"""FloatDomain: compute precision, and rounding every stored tensor to its declared type."""

from __future__ import annotations

import numpy as np
import pytest
from dialect_programs import Array, run_text, sample, tensor

from mirage.dialects.semantics import FloatDomain
from mirage.dialects.semantics.domain import round_to_bf16


def _bf16_reference(x: Array) -> Array:
    """Nearest bfloat16, ties to even, found by comparing the two neighbouring bf16 values."""
    out = np.empty(x.shape, dtype=np.float64)
    for i, v in enumerate(np.asarray(x, dtype=np.float32).ravel()):
        bits = int(np.float32(v).view(np.uint32))
        low_bits = bits & 0xFFFF0000
        high_bits = low_bits + 0x10000
        low = float(np.uint32(low_bits).view(np.float32))
        high = float(np.uint32(high_bits).view(np.float32))
        d_low, d_high = abs(float(v) - low), abs(high - float(v))
        if d_low < d_high or (d_low == d_high and (low_bits >> 16) % 2 == 0):
            out.flat[i] = low
        else:
            out.flat[i] = high
    return out


def test_bf16_rounding_ties_to_even() -> None:
    one = 1.0
    ulp = 2.0**-7  # bf16 spacing in [1, 2)
    values = np.array(
        [
            one + ulp / 2,  # halfway, 1.0 is even
            one + 3 * ulp / 2,  # halfway, 1 + 2 ulp is even
            one + ulp / 2 + 2.0**-20,  # just above halfway
            -(one + 3 * ulp / 2),
            3.0,
            0.0,
        ],
        dtype=np.float32,
    )
    got = round_to_bf16(values).astype(np.float64)
    np.testing.assert_array_equal(got, [1.0, 1.0 + 2 * ulp, 1.0 + ulp, -(1.0 + 2 * ulp), 3.0, 0.0])


def test_bf16_rounding_random() -> None:
    x = np.random.default_rng(0).normal(scale=100.0, size=2000).astype(np.float32)
    np.testing.assert_array_equal(round_to_bf16(x).astype(np.float64), _bf16_reference(x))


PROGRAM = """
func.func @f(%x: {x}) -> ({e}, {r}) {{
  %e = kernel.exp %x : {x} -> {e}
  %r = kernel.add %e, %x : {e}, {x} -> {r}
  func.return %e, %r : {e}, {r}
}}"""


def _program(dtype: str) -> str:
    return PROGRAM.format(x=tensor((64,)), e=tensor((64,), dtype), r=tensor((64,), "f32"))


def _round(x: Array, dtype: str) -> Array:
    if dtype == "bf16":
        return _bf16_reference(x)
    return x.astype({"f16": np.float16, "f32": np.float32}[dtype]).astype(np.float64)


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_round_to_storage(dtype: str) -> None:
    x = sample(np.random.default_rng(1), (64,))
    e, r = run_text(_program(dtype), [x], FloatDomain(round_to_storage=True))
    want_e = _round(np.exp(x), dtype)
    np.testing.assert_array_equal(e, want_e)
    # The stored (rounded) exp feeds the add, whose f32 result is rounded again.
    np.testing.assert_array_equal(r, _round(want_e + x, "f32"))


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_no_rounding_by_default(dtype: str) -> None:
    x = sample(np.random.default_rng(2), (64,))
    e, r = run_text(_program(dtype), [x])
    np.testing.assert_array_equal(e, np.exp(x))
    assert not np.array_equal(e, _round(np.exp(x), dtype))
    np.testing.assert_array_equal(r, np.exp(x) + x)


def test_float32_compute() -> None:
    x = sample(np.random.default_rng(3), (64,))
    e, r = run_text(_program("f32"), [x], FloatDomain(np.float32))
    assert e.dtype == np.float32 and r.dtype == np.float32
    np.testing.assert_allclose(e, np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(r, np.exp(x) + x, rtol=1e-6, atol=1e-6)


def test_float32_compute_with_f16_storage() -> None:
    x = sample(np.random.default_rng(4), (64,))
    dom = FloatDomain(np.float32, round_to_storage=True)
    e, _ = run_text(_program("f16"), [x], dom)
    assert e.dtype == np.float32
    np.testing.assert_array_equal(e, np.exp(x.astype(np.float32)).astype(np.float16))
