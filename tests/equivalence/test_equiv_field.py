"""Modular arithmetic on float64 arrays against Python's exact integers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from mirage.passes.equivalence import field
from mirage.passes.equivalence.field import P, Q


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1) or a % n == 0:
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def test_primes_as_documented() -> None:
    assert _is_prime(P) and _is_prime(Q)
    assert (P - 1) % Q == 0
    assert (P - 1) ** 2 < 2**53  # products of two residues are exact in float64
    assert P % 4 == 3 and Q % 4 == 3  # -1 is a non-residue; sqrt is a single power


@pytest.mark.parametrize("size", [7, 500])  # below and above field.SMALL
@pytest.mark.parametrize("m", [P, Q, 101])
def test_elementwise_ops_match_python_ints(m: int, size: int) -> None:
    rng = np.random.default_rng(m)
    a = rng.integers(0, m, size)
    b = rng.integers(0, m, size)
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    assert field.add(fa, fb, m).tolist() == [(x + y) % m for x, y in zip(a, b, strict=True)]
    assert field.sub(fa, fb, m).tolist() == [(x - y) % m for x, y in zip(a, b, strict=True)]
    assert field.mul(fa, fb, m).tolist() == [int(x) * int(y) % m for x, y in zip(a, b, strict=True)]
    assert field.neg(fa, m).tolist() == [(-x) % m for x in a]
    assert field.power(fa, 12345, m).tolist() == [pow(int(x), 12345, m) for x in a]
    inv = field.inverse(fa, m)
    assert all(int(x) * int(i) % m == (1 if x else 0) for x, i in zip(a, inv, strict=True))


def test_reduce_mod_near_the_exact_limit() -> None:
    xs = np.array([2.0**53 - 1, 2.0**53 - 2, float(P * P // 2), float(P - 1) ** 2, 0.0, P])
    got = field.reduce_mod(xs, P)
    assert got.tolist() == [int(x) % P for x in xs]


def test_power_elementwise() -> None:
    rng = np.random.default_rng(0)
    base = rng.integers(0, P, 200)
    exps = rng.integers(0, P, 200)
    got = field.power_elementwise(base.astype(np.float64), exps.astype(np.float64), P)
    assert got.tolist() == [pow(int(b), int(e), P) for b, e in zip(base, exps, strict=True)]


@pytest.mark.parametrize("m", [P, Q])
def test_canonical_square_root(m: int) -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(0, m, 1000).astype(np.float64)
    r = field.sqrt_or_negated(a, m)
    square = field.mul(r, r, m)
    residue = square == a
    assert np.all(residue | (square == field.neg(a, m)))
    assert 0.3 < residue.mean() < 0.7  # about half the elements are squares
    # The root is itself a square: the choice does not depend on how a was computed.
    assert np.all(field.sqrt_or_negated(field.mul(r, r, m), m) == r)


def test_residues_of_rationals() -> None:
    values = [0.5, -3.0, 1 / 3, 1e-300, 12345.678, 0.0, -2.5e10]
    got = field.residues_of_array(np.array(values), P)
    for v, g in zip(values, got, strict=True):
        frac = Fraction(v)
        assert int(g) * frac.denominator % P == frac.numerator % P
    assert field.residues_of_array(np.array([-1, 7]), P).tolist() == [P - 1, 7]
    with pytest.raises(ValueError):
        field.residues_of_array(np.array([np.inf]), P)


@pytest.mark.parametrize(
    ("m", "k", "n", "batch"),
    [(P, 1, 3, ()), (P, 64, 5, ()), (P, 4096, 3, ()), (Q, 300, 4, (2,)), (P, 7, 2, (3, 1))],
)
def test_matmul_is_exact(m: int, k: int, n: int, batch: tuple[int, ...]) -> None:
    rng = np.random.default_rng(k)
    a = rng.integers(0, m, (*batch, 3, k))
    b = rng.integers(0, m, (*batch, k, n))
    got = field.matmul(a.astype(np.float64), b.astype(np.float64), m)
    want = np.matmul(a.astype(object), b.astype(object)) % m
    assert got.astype(np.int64).tolist() == want.tolist()


@pytest.mark.parametrize("m", [P, Q])
@pytest.mark.parametrize("k", [64, 4096])
@pytest.mark.parametrize("split_a", [True, False])
def test_matmul_horner_recombination_is_exact(m: int, k: int, split_a: bool) -> None:
    bits, count, chunk = field._limb_plan(k, m)  # pyright: ignore[reportPrivateUsage]
    assert count == 2 and chunk == k
    assert field._horner_is_exact(k, m, bits)  # pyright: ignore[reportPrivateUsage]
    rows, cols = (2, 5) if split_a else (5, 2)  # the smaller operand is cut into limbs
    rng = np.random.default_rng(k + m)
    a = rng.integers(0, m, (rows, k))
    b = rng.integers(0, m, (k, cols))
    # The largest residues give the largest limb sums the plan allows.
    a[0], b[:, 0] = m - 1, m - 1
    got = field.matmul(a.astype(np.float64), b.astype(np.float64), m)
    want = np.matmul(a.astype(object), b.astype(object)) % m
    assert got.astype(np.int64).tolist() == want.tolist()


def test_matmul_splits_the_larger_contraction_into_chunks() -> None:
    _bits, count, chunk = field._limb_plan(2**40, P)  # pyright: ignore[reportPrivateUsage]
    assert chunk < 2**40 and count == 1
    assert field._limb_plan(4096, P)[:2] == (14, 2)  # pyright: ignore[reportPrivateUsage]
    assert field._limb_plan(64, 1_000_003)[1] == 1  # pyright: ignore[reportPrivateUsage]


def test_exp_table_is_a_homomorphism() -> None:
    rng = np.random.default_rng(2)
    omega = field.random_omega(rng)
    assert omega != 1 and pow(omega, Q, P) == 1
    table = field.ExpTable(omega)
    x = rng.integers(0, Q, 300).astype(np.float64)
    y = rng.integers(0, Q, 300).astype(np.float64)
    assert table(x).tolist() == [pow(omega, int(v), P) for v in x]
    lhs = table(field.add(x, y, Q))
    rhs = field.mul(table(x), table(y), P)
    assert np.array_equal(lhs, rhs)


def test_on_distinct_computes_broadcast_views_once() -> None:
    calls: list[int] = []

    def fn(x: field.Arr) -> field.Arr:
        calls.append(x.size)
        return x + 1

    base = np.arange(4.0).reshape(4, 1)
    view = np.broadcast_to(base, (4, 1000))
    out = field.on_distinct(fn, view)
    assert calls == [4]
    assert np.array_equal(out, view + 1)
