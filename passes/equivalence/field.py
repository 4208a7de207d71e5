"""Exact modular arithmetic on float64 arrays: the primes, and vectorized +, *, powers,
inverses, square roots and an exact matrix product through float64 BLAS.

Residues are kept as float64 arrays of integers in [0, m). Every float64 operation on
integers below 2^53 is exact, so:

- a product of two residues is exact while (m - 1)^2 < 2^53, which caps the modulus at
  about 2^26.5; P below is the largest safe prime under that cap with P = 7 (mod 8);
- a matrix product sums K products; BLAS computes it exactly while every partial sum stays
  below 2^53. `matmul` cuts the smaller operand into limbs of b bits with
  K (m - 1) (2^b - 1) < 2^53 (one limb when the residues already fit), stacks the limbs
  into one BLAS call, and recombines them modulo m (by Horner's rule, one reduction per
  limb, where its intermediate sums stay below 2^53); when even one-bit limbs do not fit
  it also cuts K into chunks. At K = 4096 and m = P that is two 14-bit limbs: the exact
  product costs one float64 BLAS call with twice the rows of the smaller operand.

Why these primes: the per-test error bound falls with the field size (Schwartz-Zippel
d/P for exp-free programs, 8 d k^4 / Q + Q^(-1/k^2) with k exponentials), so the largest
field whose products are still exact in float64 gives the fewest tests. Q = (P - 1) / 2 is
prime, the largest prime order an exponent domain Z_Q inside Z_P^* can have, and
P = 3 (mod 4) makes -1 a non-residue, so Z_P[i] (i^2 = -1) is the field of P^2 elements
where every element of Z_P has a square root.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

Arr = NDArray[np.float64]

P = 94_905_743
"""The prime of the value domain: the largest safe prime with (P - 1)^2 < 2^53 and P = 7 (mod 8)."""
Q = (P - 1) // 2
"""47_452_871, prime: the order of the exponent domain, Q | P - 1, Q = 3 (mod 4)."""
EXACT_LIMIT = 2**53
"""Integers below this are exact in float64."""

assert (P - 1) ** 2 < EXACT_LIMIT and P % 8 == 7 and Q % 4 == 3


def reduce_mod(x: Arr, m: int) -> Arr:
    """x mod m for float64 integers -m <= x < 2^53, exactly (a new array)."""
    r = np.asarray(np.multiply(x, 1.0 / m))
    np.floor(r, out=r)
    r *= m
    np.subtract(x, r, out=r)
    return _correct(r, m)


def _correct(r: Arr, m: int) -> Arr:
    # The quotient above is off by one when x / m rounds across an integer.
    np.add(r, m, out=r, where=r < 0)
    np.subtract(r, m, out=r, where=r >= m)
    return r


def add(a: Arr, b: Arr, m: int) -> Arr:
    s = np.asarray(np.add(a, b))
    np.subtract(s, m, out=s, where=s >= m)
    return s


def sub(a: Arr, b: Arr, m: int) -> Arr:
    d = np.asarray(np.subtract(a, b))
    np.add(d, m, out=d, where=d < 0)
    return d


def neg(a: Arr, m: int) -> Arr:
    r = np.asarray(np.subtract(float(m), a))
    np.copyto(r, 0.0, where=r == m)
    return r


def mul(a: Arr, b: Arr, m: int) -> Arr:
    product = np.asarray(np.multiply(a, b))
    q = np.asarray(np.multiply(product, 1.0 / m))
    np.floor(q, out=q)
    q *= m
    np.subtract(product, q, out=product)
    return _correct(product, m)


SMALL = 256
"""Arrays up to this size take Python's integer pow per element: cheaper than the dozens of
vectorized passes of square-and-multiply."""


def power(base: Arr, exponent: int, m: int) -> Arr:
    """base ** exponent mod m, one exponent for every element."""
    b = np.asarray(base, dtype=np.float64)
    if b.size <= SMALL:
        flat = [float(pow(int(v), exponent, m)) for v in b.ravel().tolist()]
        return np.array(flat, dtype=np.float64).reshape(b.shape)
    result = np.ones_like(b)
    e = exponent
    while e:
        if e & 1:
            result = mul(result, b, m)
        e >>= 1
        if e:
            b = mul(b, b, m)
    return result


def power_elementwise(base: Arr, exponent: NDArray[Any], m: int) -> Arr:
    """base ** exponent mod m with a residue exponent per element (0 <= exponent < 2^27)."""
    result = np.ones(np.broadcast_shapes(base.shape, exponent.shape))
    b = np.asarray(base, dtype=np.float64)
    e = np.asarray(exponent, dtype=np.int64)
    while np.any(e):
        result = np.where(e & 1, mul(result, b, m), result)
        e = e >> 1
        b = mul(b, b, m)
    return result


def inverse(a: Arr, m: int) -> Arr:
    """a^-1 mod m (Fermat); 0 for a = 0, which callers treat as a zero denominator."""
    return power(a, m - 2, m)


def centered(a: Arr, m: int) -> Arr:
    """The representative in (-m/2, m/2): the order that max and relu use."""
    return np.where(a > (m - 1) // 2, a - m, a)


def sqrt_or_negated(a: Arr, m: int) -> Arr:
    """r = a^((m+1)/4) for m = 3 (mod 4): r^2 = a when a is a square, r^2 = -a otherwise.
    r is itself a square, so the choice of root is canonical (and multiplicative)."""
    return power(a, (m + 1) // 4, m)


def residue_of(value: float | Fraction, m: int) -> int:
    """The residue of an exact rational (a float is the dyadic rational it stores)."""
    frac = Fraction(value)
    return frac.numerator % m * pow(frac.denominator, -1, m) % m


def residues_of_array(array: NDArray[Any], m: int) -> Arr:
    """Elementwise exact residues of an integer or float array (a float is the dyadic
    rational mantissa * 2^exponent it stores)."""
    a = np.asarray(array)
    if a.dtype.kind in "iub":
        return np.asarray(a.astype(np.int64) % m, dtype=np.float64)
    x = a.astype(np.float64)
    if not np.all(np.isfinite(x)):
        raise ValueError("only finite values have a residue")
    fraction, exponent = np.frexp(x)
    mantissa = np.ldexp(fraction, 53).astype(np.int64)  # x = mantissa * 2^(exponent - 53)
    scale = power_elementwise(np.asarray(2.0), (exponent.astype(np.int64) - 53) % (m - 1), m)
    return mul(np.asarray(mantissa % m, dtype=np.float64), scale, m)


# --- exact matrix product -------------------------------------------------------------


def _limb_plan(k: int, m: int) -> tuple[int, int, int]:
    """(limb bits, limb count, K chunk) such that chunk * (m - 1) * (2^bits - 1) < 2^53."""
    bits_needed = int(m - 1).bit_length()
    if k * (m - 1) * (m - 1) < EXACT_LIMIT:
        return bits_needed, 1, k
    for bits in range(bits_needed - 1, 0, -1):
        if k * (m - 1) * ((1 << bits) - 1) < EXACT_LIMIT:
            return bits, -(-bits_needed // bits), k
    chunk = max(1, (EXACT_LIMIT - 1) // ((m - 1) * (m - 1)))
    return bits_needed, 1, chunk


def _split(x: Arr, bits: int, count: int) -> list[Arr]:
    base = float(1 << bits)
    limbs: list[Arr] = []
    rest = x
    for _ in range(count - 1):
        high = np.floor(rest * (1.0 / base))
        limbs.append(rest - high * base)
        rest = high
    limbs.append(rest)
    return limbs


def _horner_is_exact(k: int, m: int, bits: int) -> bool:
    """Whether limbs recombine by Horner's rule, r <- (r * 2^bits + sums of the next limb)
    mod m, with every intermediate exact: r < m and each limb's sums are at most
    k (m - 1) (2^bits - 1)."""
    return (m - 1) * (1 << bits) + k * (m - 1) * ((1 << bits) - 1) < EXACT_LIMIT


def matmul(a: Arr, b: Arr, m: int) -> Arr:
    """Exact (a @ b) mod m over the last two dims, broadcasting leading dims."""
    k = a.shape[-1]
    bits, count, chunk = _limb_plan(k, m)
    if chunk < k:
        total: Arr | None = None
        for start in range(0, k, chunk):
            part = matmul(a[..., start : start + chunk], b[..., start : start + chunk, :], m)
            total = part if total is None else add(total, part, m)
        assert total is not None
        return total
    if count == 1:
        return reduce_mod(np.matmul(a, b), m)
    split_a = a.size <= b.size
    limbs = _split(a if split_a else b, bits, count)
    # All limbs in one BLAS call: stacked as extra rows of a (or columns of b).
    if split_a:
        rows = a.shape[-2]
        products = np.matmul(np.concatenate(limbs, axis=-2), b)
        parts = [products[..., i * rows : (i + 1) * rows, :] for i in range(count)]
    else:
        cols = b.shape[-1]
        products = np.matmul(a, np.concatenate(limbs, axis=-1))
        parts = [products[..., i * cols : (i + 1) * cols] for i in range(count)]
    if _horner_is_exact(k, m, bits):
        # Each limb costs one scale, one add and one reduction (instead of a reduction, a
        # modular product and a modular sum).
        result = reduce_mod(parts[-1], m)
        base = float(1 << bits)
        for part in reversed(parts[:-1]):
            result *= base
            result += part
            result = reduce_mod(result, m)
        return result
    result = reduce_mod(parts[0], m)
    for i in range(1, count):
        weight = float(pow(2, bits * i, m))
        result = add(result, mul(reduce_mod(parts[i], m), np.asarray(weight), m), m)
    return result


# --- exponentials ---------------------------------------------------------------------


class ExpTable:
    """x -> omega^x mod P for exponents x in [0, Q), by two table lookups (x = hi 2^13 + lo)."""

    SPLIT = 13

    def __init__(self, omega: int) -> None:
        self.omega = omega
        size = 1 << self.SPLIT
        high_count = (Q >> self.SPLIT) + 1
        self.low = _powers(omega, size)
        self.high = _powers(pow(omega, size, P), high_count)

    def __call__(self, x: Arr) -> Arr:
        e = x.astype(np.int64)
        lo = self.low[e & ((1 << self.SPLIT) - 1)]
        hi = self.high[e >> self.SPLIT]
        return mul(lo, hi, P)


def _powers(base: int, count: int) -> Arr:
    out = np.empty(count, dtype=np.float64)
    value = 1
    for i in range(count):
        out[i] = value
        value = value * base % P
    return out


def random_omega(rng: np.random.Generator) -> int:
    """A uniformly random element of order Q in Z_P^*: g^2 for a random g other than +-1."""
    while True:
        g = int(rng.integers(2, P - 1))
        omega = g * g % P
        if omega != 1:
            return omega


def on_distinct(fn: Callable[[Arr], Arr], x: Arr) -> Arr:
    """fn applied once per distinct position of a broadcast view (axes of stride 0 are
    computed once), then broadcast back: expensive elementwise rules run on the data, not
    on the broadcast copies the evaluator makes."""
    if x.ndim == 0 or all(s != 0 for s, n in zip(x.strides, x.shape, strict=True) if n > 1):
        return fn(x)
    index = tuple(
        slice(0, 1) if s == 0 and n > 1 else slice(None)
        for s, n in zip(x.strides, x.shape, strict=True)
    )
    return np.broadcast_to(fn(np.ascontiguousarray(x[index])), x.shape)
