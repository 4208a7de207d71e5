"""What the backend is told: the options of `optimize`, `explain` and
`torch.compile(..., backend="mirage", options={...})`, checked once, with one clear line per
bad option."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from mirage.passes.superoptimize.module_pass import SEARCH_TARGETS


class OptionError(ValueError):
    """An option of the backend is unknown or out of range."""


def default_cache_dir() -> str:
    """`MIRAGE_CACHE_DIR` (as the runtime's module cache), else ~/.cache/mirage; `off`: none."""
    env = os.environ.get("MIRAGE_CACHE_DIR")
    if env is not None:
        return "" if env == "off" else env
    return str(Path.home() / ".cache" / "mirage")


MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
UNIMPROVED = ("pytorch", "ours")
"""torch.compile's modes; only 'reduce-overhead' changes what the backend does."""


@dataclass(frozen=True)
class BackendOptions:
    time_budget: float = 120.0
    """Seconds of search per subgraph not found in the cache."""
    cache_dir: str | None = None
    """Search results, shape families and built programs; None: `default_cache_dir()`,
    empty: no cache (every process searches again)."""
    target: str = "sm_90"
    """The search's target (shared memory, cost figures)."""
    arch: str = "sm_90a"
    """What the kernels are built for."""
    reference: bool = False
    """Run the optimized programs on the reference evaluator (float64 on the host) instead
    of a GPU: the whole path, tested without one."""
    full_search: bool = False
    """Search every new shape in full, not by re-tiling a searched shape of the family."""
    workers: int = 2
    max_kernel_ops: int = 2
    max_block_ops: int = 11
    seed: int = 0
    min_compute_ops: int = 1
    """Subgraphs with fewer compute ops than this stay in PyTorch."""
    max_stages: int = 2
    """A subgraph of more contraction stages than this (a whole transformer block) is cut
    into one subgraph per stage, each searched and verified alone (`staging.py`): the
    verification of a whole block at realistic shapes does not fit a search budget."""
    unimproved: str = "pytorch"
    """Who runs a subgraph whose search found nothing faster than the program as imported:
    'pytorch' (as the rest of the graph runs; our kernels would be the imported program's,
    one launch per op, each weight's transpose included) or 'ours' (those kernels)."""
    mode: str = "default"
    """'reduce-overhead' replays each specialization as a CUDA graph (torch.compile's `mode`
    arrives here too; it cannot be given together with `options`)."""

    def __post_init__(self) -> None:
        if self.target not in SEARCH_TARGETS:
            raise OptionError(
                "option target: must be one of "
                f"{', '.join(sorted(SEARCH_TARGETS))}, got {self.target!r}"
            )
        for name, value, least in (
            ("time_budget", self.time_budget, 0),
            ("workers", self.workers, 1),
            ("max_kernel_ops", self.max_kernel_ops, 1),
            ("max_block_ops", self.max_block_ops, 3),
            ("min_compute_ops", self.min_compute_ops, 1),
            ("max_stages", self.max_stages, 1),
        ):
            if value < least:
                raise OptionError(f"option {name}: must be at least {least}, got {value}")
        if self.mode not in MODES:
            raise OptionError(f"option mode: must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.unimproved not in UNIMPROVED:
            raise OptionError(
                f"option unimproved: must be one of {', '.join(UNIMPROVED)}, "
                f"got {self.unimproved!r}"
            )

    @property
    def cache(self) -> str:
        """The cache directory, or '' for none."""
        return default_cache_dir() if self.cache_dir is None else self.cache_dir

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any]) -> BackendOptions:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in given.items():
            name = key.replace("-", "_")
            if name not in known:
                raise OptionError(f"unknown option {key!r} (known: {', '.join(sorted(known))})")
            values[name] = value
        return cls(**values)
