"""The Dynamo backend: `torch.compile(model, backend="mirage")`.

Registered through torch's `torch_dynamo_backends` entry point. Dynamo hands over each FX
graph; the backend returns a callable that specializes the graph per input signature
(shapes, dtypes, devices: Dynamo's dynamic shapes arrive here as concrete shapes) the
first time it sees one (`splitting.specialize`) and then runs that specialization.
Parameters are graph inputs, so each call reads them as they are then.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch
from torch import fx

from mirage.torch.options import BackendOptions
from mirage.torch.splitting import Report

log = logging.getLogger("mirage.torch")

_warned: set[str] = set()
"""The reasons already warned about: each is said once per process."""


def _warn_eager(why: str, hint: str = "") -> None:
    if why not in _warned:
        _warned.add(why)
        warnings.warn(f"mirage: {why}; running PyTorch eagerly{hint}", RuntimeWarning, stacklevel=3)


def _warn_no_gpu(why: str) -> None:
    _warn_eager(
        why,
        " (reference=True runs the optimized programs on the reference evaluator instead)",
    )


def importer_missing() -> str:
    """Why PyTorch programs cannot be imported here (empty when they can)."""
    from mirage.tools.from_torch import MissingTorchError, check_importer

    try:
        check_importer()
    except MissingTorchError as e:
        return str(e)
    return ""


def _signature(args: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(
        (tuple(a.shape), a.dtype, a.device, a.requires_grad and torch.is_grad_enabled())
        if isinstance(a, torch.Tensor)
        else ("value", a if isinstance(a, int | float | bool) else type(a).__name__)
        for a in args
    )


class CompiledGraph:
    """One Dynamo graph: a specialization per input signature."""

    def __init__(self, gm: fx.GraphModule, backend: MirageBackend, mode: str) -> None:
        self.gm = gm
        self.backend = backend
        self.mode = mode
        self.specializations: dict[tuple[Any, ...], Callable[..., Any]] = {}

    def __call__(self, *args: Any) -> Any:
        key = _signature(args)
        fn = self.specializations.get(key)
        if fn is None:
            fn = self._specialize(args)
            self.specializations[key] = fn
        return fn(*args)

    def _specialize(self, args: Sequence[Any]) -> Callable[..., Any]:
        options = self.backend.options
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        if any(a.requires_grad for a in tensors) and torch.is_grad_enabled():
            log.info("mirage: autograd is on for an input; the graph runs in PyTorch")
            return self.gm.forward
        missing = importer_missing()
        if missing:
            # without the importer nothing is expressible: say so, not "all in PyTorch"
            _warn_eager(missing)
            return self.gm.forward
        if not options.reference:
            if not torch.cuda.is_available():
                _warn_no_gpu("no CUDA device")
                return self.gm.forward
            if tensors and not all(a.is_cuda for a in tensors):
                _warn_no_gpu("inputs are not on a CUDA device")
                return self.gm.forward
        gm, report = self.backend.specialize(self.gm, args)
        if self.mode == "reduce-overhead" and not options.reference and tensors:
            from mirage.torch.capture import GraphReplay

            return GraphReplay(gm, args)
        del report
        return gm


class MirageBackend:
    """A Dynamo backend with its options, caches and the reports of what it compiled."""

    def __init__(self, options: BackendOptions | None = None) -> None:
        from mirage.torch.capability import Capability
        from mirage.torch.searching import Searcher

        self.options = options or BackendOptions()
        self.capability = Capability(self.options.cache)
        self.searcher = Searcher(self.options)
        self.reports: list[Report] = []

    def specialize(self, gm: fx.GraphModule, args: Sequence[Any]) -> tuple[fx.GraphModule, Report]:
        from mirage.torch.splitting import specialize

        out, report = specialize(gm, args, self.options, self.capability, self.searcher)
        self.reports.append(report)
        log.info("mirage: %s", report.note)
        return out, report

    def __call__(
        self, gm: fx.GraphModule, example_inputs: Sequence[Any], mode: str | None = None
    ) -> Callable[..., Any]:
        del example_inputs
        return CompiledGraph(gm, self, mode or self.options.mode)


def mirage_backend(
    gm: fx.GraphModule,
    example_inputs: Sequence[Any],
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Callable[..., Any]:
    """The entry point: `torch.compile(m, backend="mirage", options={...})`. One backend
    (and its in-process caches) per distinct set of options."""
    opts = BackendOptions.from_mapping(dict(options or {}))
    backend = _backends.get(opts)
    if backend is None:
        backend = _backends[opts] = MirageBackend(opts)
    return backend(gm, example_inputs, mode)


_backends: dict[BackendOptions, MirageBackend] = {}


BACKEND_NAME = "mirage"


def register_by_name(entry_points: Sequence[str] | None = None) -> bool:
    """Register "mirage" with Dynamo where no installed distribution names it (a source
    tree on the path rather than `pip install`): `torch.compile(m, backend="mirage")`
    then works either way. Where the entry point exists, Dynamo loads it itself (and a
    second registration would be a duplicate). Whether this registered it."""
    from torch._dynamo.backends import registry

    if entry_points is None:
        from importlib.metadata import entry_points as installed

        entry_points = list(installed(group="torch_dynamo_backends").names)
    known: dict[str, Any] = registry._COMPILER_FNS  # pyright: ignore[reportPrivateUsage]
    if BACKEND_NAME in entry_points or BACKEND_NAME in known:
        return False
    registry.register_backend(mirage_backend, name=BACKEND_NAME)
    return True
