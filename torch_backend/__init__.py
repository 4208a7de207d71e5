"""PyTorch in, PyTorch out: `optimize`, `explain` and the Dynamo backend "mirage".

    import mirage.torch
    fast = mirage.torch.optimize(model, [x])          # an nn.Module; searches now
    print(mirage.torch.explain(model, [x]))          # what runs where, and why
    torch.compile(model, backend="mirage")           # the same, through Dynamo

Needs the extra `torch` (torch and torch-mlir).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from mirage.torch.backend import (
    MirageBackend,
    importer_missing,
    mirage_backend,
    register_by_name,
)
from mirage.torch.options import BackendOptions, OptionError
from mirage.torch.splitting import Report

register_by_name()

__all__ = [
    "BackendOptions",
    "MirageBackend",
    "OptionError",
    "Report",
    "explain",
    "mirage_backend",
    "optimize",
]


def optimize(
    module: torch.nn.Module, example_inputs: Sequence[Any], **options: Any
) -> torch.nn.Module:
    """`module` compiled through the backend with `options` (see `BackendOptions`), and
    called once on `example_inputs` so that its searches are done when this returns."""
    backend = MirageBackend(BackendOptions.from_mapping(options))
    compiled = torch.compile(module, backend=backend)  # pyright: ignore[reportUnknownMemberType]
    with torch.no_grad():
        compiled(*example_inputs)
    assert isinstance(compiled, torch.nn.Module)
    return compiled


def explain(module: torch.nn.Module, example_inputs: Sequence[Any], **options: Any) -> str:
    """What runs where, and why: each graph Dynamo makes of `module` on `example_inputs`,
    its subgraphs as our kernels (and how each μGraph was found), and each other node with
    the importer's reason. Without a GPU, the reference evaluator runs the subgraphs."""
    if "reference" not in options and not torch.cuda.is_available():
        options = {**options, "reference": True}
    backend = MirageBackend(BackendOptions.from_mapping(options))
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    compiled = torch.compile(module, backend=backend)  # pyright: ignore[reportUnknownMemberType]
    with torch.no_grad():
        compiled(*example_inputs)
    graphs = len(backend.reports)
    head = f"mirage: {graphs} graph{'s' if graphs != 1 else ''} from Dynamo"
    missing = importer_missing()
    if missing:
        head += f"; all of it runs in PyTorch: {missing}"
    return "\n".join([head, *(str(r) for r in backend.reports)])
