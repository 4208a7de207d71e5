"""The six benchmark programs of the Mirage paper as PyTorch modules, with their shapes.

Each program takes every tensor, weights included, as a forward() argument, so an export
holds no weight constants; `with_parameters` turns chosen arguments into module parameters
instead (exports then carry them as constants).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor, nn


def rms_norm(x: Tensor, dim: int = -1) -> Tensor:
    """x / sqrt(mean(x^2)) over `dim`, without an epsilon, as the kernel dialect defines it."""
    return x * torch.rsqrt(torch.mean(x * x, dim=dim, keepdim=True))


def gqa(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    s = torch.exp(torch.matmul(q, k))
    return torch.matmul(s / torch.sum(s, dim=-1, keepdim=True), v)


def qknorm(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    return gqa(rms_norm(q, -1), rms_norm(k, 1), v)


def rmsnorm_linear(x: Tensor, w: Tensor) -> Tensor:
    return torch.matmul(rms_norm(x), w)


def lora(x: Tensor, w: Tensor, a: Tensor, b: Tensor) -> Tensor:
    return torch.matmul(x, w) + torch.matmul(torch.matmul(x, a), b)


def gated_mlp(x: Tensor, w1: Tensor, w2: Tensor) -> Tensor:
    return torch.nn.functional.silu(torch.matmul(x, w1)) * torch.matmul(x, w2)


def ntrans(h: Tensor, x: Tensor, alpha: Tensor) -> Tensor:
    return rms_norm(x + alpha * (rms_norm(h) - x))


PROGRAMS: dict[str, Callable[..., Tensor]] = {
    "gqa": gqa,
    "qknorm": qknorm,
    "rmsnorm_linear": rmsnorm_linear,
    "lora": lora,
    "gated_mlp": gated_mlp,
    "ntrans": ntrans,
}


def sdpa_of(name: str) -> Callable[..., Tensor] | None:
    """The attention programs through SDPA's FlashAttention kernel, K stored (b, n, d)."""
    from torch.nn import functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    if name not in ("gqa", "qknorm"):
        return None

    def run(q: Tensor, k_t: Tensor, v: Tensor) -> Tensor:
        if name == "qknorm":
            q, k_t = rms_norm(q, -1), rms_norm(k_t, -1)
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            out = F.scaled_dot_product_attention(q[:, None], k_t[:, None], v[:, None], scale=1.0)
        return out[:, 0]

    return run


def sdpa_args(name: str, args: Sequence[Tensor]) -> list[Tensor]:
    q, k, v = args
    del name
    return [q, k.transpose(1, 2).contiguous(), v]  # K stored (b, n, d), as flash reads it


def _attention(b: int, n: int, d: int, kv: int) -> tuple[tuple[int, ...], ...]:
    return ((b, n, d), (b, d, kv), (b, kv, d))


SHAPES: dict[str, dict[str, tuple[tuple[int, ...], ...]]] = {
    "gqa": {
        "b1": _attention(2, 256, 64, 4096),
        "b8": _attention(16, 256, 64, 4096),
        "small": _attention(2, 8, 16, 32),
        "odd": _attention(3, 5, 12, 20),
    },
    "rmsnorm_linear": {
        "b1": ((2, 4096), (4096, 6144)),
        "b8": ((16, 4096), (4096, 6144)),
        "small": ((4, 64), (64, 96)),
        "odd": ((3, 40), (40, 24)),
    },
    "lora": {
        "bench": ((16, 256), (256, 4096), (256, 16), (16, 4096)),
        "small": ((4, 32), (32, 48), (32, 4), (4, 48)),
        "odd": ((3, 20), (20, 28), (20, 5), (5, 28)),
    },
    "gated_mlp": {
        "bench": ((8, 4096), (4096, 4096), (4096, 4096)),
        "small": ((4, 64), (64, 96), (64, 96)),
        "odd": ((3, 24), (24, 40), (24, 40)),
    },
    "ntrans": {
        "b1": ((8, 4096),) * 3,
        "b8": ((64, 4096),) * 3,
        "small": ((4, 64),) * 3,
        "odd": ((3, 40),) * 3,
    },
}
SHAPES["qknorm"] = SHAPES["gqa"]

BENCHMARK_TAGS = ("b1", "b8", "bench")
"""Shape tags that are the paper's benchmark shapes (the others are extra test shapes)."""


class Program(nn.Module):
    """A benchmark program as a module; arguments named in `parameters` become parameters
    (set to the given tensors) and leave forward()'s signature."""

    def __init__(
        self,
        fn: Callable[..., Tensor],
        arity: int,
        parameters: dict[int, Tensor] | None = None,
    ) -> None:
        super().__init__()
        self.fn = fn
        self.arity = arity
        self.fixed = sorted((parameters or {}).keys())
        for i, value in (parameters or {}).items():
            self.register_parameter(f"p{i}", nn.Parameter(value, requires_grad=False))

    def forward(self, *args: Tensor) -> Tensor:
        it = iter(args)
        full = [getattr(self, f"p{i}") if i in self.fixed else next(it) for i in range(self.arity)]
        return self.fn(*full)


@dataclass(frozen=True)
class Case:
    name: str
    tag: str
    dtype: torch.dtype
    constants: tuple[int, ...] = ()
    """Argument positions that become module parameters (constants in the export)."""

    @property
    def shapes(self) -> tuple[tuple[int, ...], ...]:
        return SHAPES[self.name][self.tag]

    @property
    def stem(self) -> str:
        suffix = "" if self.dtype == torch.float32 else f"_{str(self.dtype).removeprefix('torch.')}"
        consts = "_consts" if self.constants else ""
        return f"{self.name}_{self.tag}{suffix}{consts}"

    def tensors(self, seed: int = 0) -> list[Tensor]:
        """Random arguments, uniform in +-[0.25, 1] so norms and softmax sums stay finite."""
        gen = torch.Generator().manual_seed(seed)
        out: list[Tensor] = []
        for shape in self.shapes:
            mag = torch.rand(shape, generator=gen, dtype=torch.float64) * 0.75 + 0.25
            sign = torch.randint(0, 2, shape, generator=gen, dtype=torch.float64) * 2 - 1
            out.append((mag * sign).to(self.dtype))
        return out

    def module(self, tensors: Sequence[Tensor]) -> tuple[nn.Module, list[Tensor]]:
        """The module and the arguments its forward() takes."""
        params = {i: tensors[i] for i in self.constants}
        args = [t for i, t in enumerate(tensors) if i not in self.constants]
        return Program(PROGRAMS[self.name], len(tensors), params), args


def cases() -> list[Case]:
    """Every exported fixture: each program at each of its shapes in float32, the benchmark
    shapes in float16 too, and small shapes with weights as constants."""
    out: list[Case] = []
    for name, shapes in SHAPES.items():
        for tag in shapes:
            out.append(Case(name, tag, torch.float32))
            if tag in BENCHMARK_TAGS:
                out.append(Case(name, tag, torch.float16))
    out.append(Case("rmsnorm_linear", "small", torch.float32, constants=(1,)))
    out.append(Case("lora", "small", torch.float32, constants=(1, 2, 3)))
    out.append(Case("gated_mlp", "odd", torch.float32, constants=(1, 2)))
    return out
