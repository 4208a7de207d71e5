"""Shared pieces of the mirage.torch tests: small modules and a backend in reference mode."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import torch_programs

rms_norm = torch_programs.rms_norm


def rand(*shape: int, seed: int = 0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=gen, dtype=torch.float64) + 0.25).to(dtype)


class NormLinear(nn.Module):
    """RMSNorm then a linear layer with a parameter weight, then ops the kernels do not
    express (topk) and a sum they do."""

    def __init__(self, k: int = 64, n: int = 96, tail: bool = True) -> None:
        super().__init__()
        self.w = nn.Parameter(rand(k, n, seed=1) * 0.1, requires_grad=False)
        self.tail = tail

    def forward(self, x: torch.Tensor) -> Any:
        y = torch.matmul(rms_norm(x), self.w)
        if not self.tail:
            return y
        return torch.topk(y, 2).values, y


def compiled(module: nn.Module, **options: Any) -> tuple[Any, Any]:
    """`module` through a fresh backend in reference mode, and that backend."""
    from mirage.torch import BackendOptions, MirageBackend

    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    backend = MirageBackend(BackendOptions.from_mapping({"reference": True, **options}))
    return torch.compile(module, backend=backend), backend
