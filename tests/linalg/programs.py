"""The six benchmark programs in float64 numpy (an oracle independent of PyTorch), and the
fixtures exported from their PyTorch versions."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]
FIXTURES = Path(__file__).parent / "fixtures"
BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def rms_norm(x: Array, axis: int = -1) -> Array:
    return x / np.sqrt(np.mean(x * x, axis=axis, keepdims=True))


def gqa(q: Array, k: Array, v: Array) -> Array:
    s = np.exp(q @ k)
    return (s / s.sum(-1, keepdims=True)) @ v


REFERENCE: dict[str, Callable[..., Array]] = {
    "gqa": gqa,
    "qknorm": lambda q, k, v: gqa(rms_norm(q, -1), rms_norm(k, 1), v),
    "rmsnorm_linear": lambda x, w: rms_norm(x) @ w,
    "lora": lambda x, w, a, b: x @ w + (x @ a) @ b,
    "gated_mlp": lambda x, w1, w2: (x @ w1) / (1 + np.exp(-(x @ w1))) * (x @ w2),
    "ntrans": lambda h, x, alpha: rms_norm(x + alpha * (rms_norm(h) - x)),
}

_STEM = re.compile(
    r"^(?P<name>gqa|qknorm|rmsnorm_linear|lora|gated_mlp|ntrans)_(?P<tag>b1|b8|bench|small|odd)"
    r"(?P<half>_float16)?(?P<consts>_consts)?$"
)


@dataclass(frozen=True)
class Fixture:
    path: Path
    name: str
    tag: str
    half: bool
    consts: bool

    @property
    def benchmark_shape(self) -> bool:
        return self.tag in ("b1", "b8", "bench")

    def __str__(self) -> str:
        return self.path.stem


def fixtures() -> list[Fixture]:
    out: list[Fixture] = []
    for path in sorted(FIXTURES.glob("*.mlir")):
        m = _STEM.match(path.stem)
        assert m is not None, f"unexpected fixture name {path.name}"
        out.append(
            Fixture(path, m["name"], m["tag"], m["half"] is not None, m["consts"] is not None)
        )
    return out


def random_inputs(shapes: list[tuple[int, ...]], seed: int) -> list[Array]:
    """Uniform in +-[0.25, 1]: norms and softmax sums stay away from zero."""
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.25, 1.0, s) * rng.choice([-1.0, 1.0], s) for s in shapes]


def rel_error(got: Array, want: Array) -> float:
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
