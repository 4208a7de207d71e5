"""PyTorch programs in: export through torch-mlir's FX importer as linalg-on-tensors, then
`convert-linalg-to-kernel`.

    from mirage.tools.from_torch import import_module
    module = import_module(model, [x, w])          # a ModuleOp of kernel-dialect functions

torch and torch-mlir are the optional extra `torch` (`pip install 'mirage-xdsl[torch]'`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import ModuleOp

from mirage.passes.linalg.constants import ResourceKeyParser
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.tools.registry import make_context

if TYPE_CHECKING:
    import torch


class MissingTorchError(ImportError):
    """torch or torch-mlir is not installed."""


def _torch_mlir() -> tuple[Any, Any]:
    try:
        import torch

        # torch-mlir is optional and ships no type information
        from torch_mlir import fx  # pyright: ignore[reportMissingImports, reportMissingTypeStubs]
    except ImportError as e:
        raise MissingTorchError(
            f"importing PyTorch programs needs torch and torch-mlir ({e.name} is missing): "
            "pip install 'mirage-xdsl[torch]'"
        ) from None
    return torch, fx


def check_importer() -> None:
    """Raise MissingTorchError where torch or torch-mlir is not installed."""
    _torch_mlir()


def _as_module(program: Any) -> torch.nn.Module:
    check_importer()  # the clear error where torch or torch-mlir is missing
    import torch  # an optional dependency: imported where it is used

    if isinstance(program, torch.nn.Module):
        return program

    class Wrapped(torch.nn.Module):
        def __init__(self, fn: Callable[..., Any]) -> None:
            super().__init__()
            self.fn = fn

        def forward(self, *args: Any) -> Any:
            return self.fn(*args)

    return Wrapped(program)


def export_linalg(program: Any, example_inputs: Sequence[Any], *, func_name: str = "main") -> str:
    """The program (an nn.Module or a function of tensors) as linalg-on-tensors MLIR text,
    traced at the shapes and dtypes of `example_inputs`."""
    _, fx = _torch_mlir()
    module = _as_module(program).eval()
    exported = fx.export_and_import(
        module, *example_inputs, output_type="linalg-on-tensors", func_name=func_name
    )
    return str(exported)


def parse_linalg(text: str) -> ModuleOp:
    """Parse and verify MLIR text with our dialects (and linalg's named ops) registered."""

    module = ResourceKeyParser(make_context(), text).parse_module()
    module.verify()
    return module


def import_module(
    program: Any, example_inputs: Sequence[Any], *, func_name: str = "main"
) -> ModuleOp:
    """The program as a module of kernel-dialect functions: @func_name takes the inputs;
    module parameters and buffers become arguments of @func_name_kernel (see
    `mirage.passes.linalg.constants`)."""

    module = parse_linalg(export_linalg(program, example_inputs, func_name=func_name))
    ConvertLinalgToKernelPass().apply(make_context(), module)
    module.verify()
    return module
