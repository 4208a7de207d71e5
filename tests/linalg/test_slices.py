"""Slices and concatenation from PyTorch (x.chunk, torch.split, x[..., :n], torch.cat,
RoPE's rotate_half): imported as kernel.slice and kernel.concat, equal to PyTorch, with
clear errors for the forms the kernel dialect cannot express. The importer's handling of
tensor.insert_slice is tested on hand-written linalg. Skipped without torch and
torch-mlir (the optional extra `torch`) where a test exports from PyTorch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from linalg.programs import rel_error
from linalg.test_fixtures import function, only_kernel_ops
from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.passes.linalg.conversion_errors import ConversionError
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.tools.from_torch import parse_linalg
from mirage.tools.registry import make_context


def _kinds(module: ModuleOp, name: str = "main") -> list[str]:
    entry = function(module, name)
    return [op.name.removeprefix("kernel.") for op in entry.body.block.ops][:-1]


def _run(module: ModuleOp, inputs: list[np.ndarray], name: str = "main") -> list[np.ndarray]:
    entry = function(module, name)
    assert only_kernel_ops(entry)
    return evaluate_function(entry, inputs, FloatDomain())


# --- PyTorch programs ------------------------------------------------------------------


def _torch_check(fn: Callable[..., Any], *shapes: tuple[int, ...]) -> ModuleOp:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torch_mlir")
    from mirage.tools.from_torch import import_module

    gen = torch.Generator().manual_seed(11)
    args = [torch.randn(*s, generator=gen) for s in shapes]
    module = import_module(fn, args)
    with torch.no_grad():
        want = fn(*args)
    got = _run(module, [a.double().numpy() for a in args])
    assert rel_error(got[0], want.double().numpy()) < 1e-5
    return module


def _chunk(x: Any) -> Any:
    a, b = x.chunk(2, -1)
    return a * b


def _split(x: Any) -> Any:
    import torch

    a, b, c = torch.split(x, [2, 3, 4], dim=1)
    return a.sum(1, keepdim=True) + b.amax(1, keepdim=True) * c[:, :1]


def _cat(x: Any, y: Any) -> Any:
    import torch

    return torch.cat([torch.exp(x), y], dim=0) * 2.0


def _rotate_half(x: Any) -> Any:
    import torch

    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def _rope(x: Any, cos: Any, sin: Any) -> Any:
    return x * cos + _rotate_half(x) * sin


def _row(x: Any) -> Any:
    return x[:, 1] * 3.0  # a rank-reducing slice


def test_chunk_is_two_slices() -> None:
    m = _torch_check(_chunk, (3, 10))
    assert _kinds(m).count("slice") == 2


def test_split_along_a_middle_dim() -> None:
    m = _torch_check(_split, (2, 9, 5))
    assert "slice" in _kinds(m)


def test_cat_along_dim_zero() -> None:
    m = _torch_check(_cat, (3, 5), (2, 5))
    assert "concat" in _kinds(m)


def test_rotate_half_is_slices_and_concat() -> None:
    m = _torch_check(_rotate_half, (2, 3, 6))
    assert {"slice", "concat"} <= set(_kinds(m))


def test_rope_as_torch_writes_it() -> None:
    m = _torch_check(_rope, (2, 5, 12), (5, 12), (5, 12))
    assert {"slice", "concat"} <= set(_kinds(m))


def test_rank_reducing_slice() -> None:
    m = _torch_check(_row, (4, 3))
    assert "slice" in _kinds(m)


def test_fused_gate_up_swiglu() -> None:
    import torch.nn.functional as F

    def swiglu(x: Any, w_gu: Any, w_down: Any) -> Any:
        gate, up = (x @ w_gu).chunk(2, -1)
        return (F.silu(gate) * up) @ w_down

    m = _torch_check(swiglu, (5, 8), (8, 12), (6, 8))
    assert _kinds(m).count("slice") == 2


# --- linalg written by hand: insert_slice, and what is not supported ---------------------

_INSERTS = """
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = tensor.insert_slice %b into %e[0, 3] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<4x8xf32>
  %1 = tensor.insert_slice %a into %0[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""

_OVERWRITE = """
func.func @main(%x: tensor<6x4xf32>, %y: tensor<2x4xf32>) -> tensor<6x4xf32> {
  %0 = tensor.insert_slice %y into %x[1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
"""


def _convert(text: str) -> ModuleOp:
    module = parse_linalg(text)
    ConvertLinalgToKernelPass().apply(make_context(), module)
    return module


def test_insert_slices_into_an_empty_tensor_build_a_concat() -> None:
    m = _convert(_INSERTS)
    assert _kinds(m) == ["concat"]
    a, b = np.arange(12.0).reshape(4, 3), -np.arange(20.0).reshape(4, 5)
    (got,) = _run(m, [a, b])
    assert np.array_equal(got, np.concatenate([a, b], axis=1))


def test_insert_slice_into_a_value_keeps_the_rest() -> None:
    m = _convert(_OVERWRITE)
    assert sorted(_kinds(m)) == ["concat", "slice", "slice"]
    x, y = np.arange(24.0).reshape(6, 4), -np.ones((2, 4))
    (got,) = _run(m, [x, y])
    want = x.copy()
    want[1:3] = y
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            """
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %i = arith.constant 2 : index
  %0 = tensor.extract_slice %x[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}""",
            "tensor.extract_slice.*has dynamic offsets, sizes or strides",
        ),
        (
            """
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %0 = tensor.extract_slice %x[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}""",
            r"tensor.extract_slice.*has strides \[2\]; only unit strides",
        ),
        (
            """
func.func @main(%x: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = tensor.insert_slice %x into %e[1, 1] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}""",
            r"tensor.insert_slice.*cut in dims \[0, 1\]",
        ),
        (
            """
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = tensor.insert_slice %x into %e[0, 0] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}""",
            "reads a tensor.empty",
        ),
    ],
    ids=["dynamic_offset", "strided", "two_dims", "undefined_part"],
)
def test_unsupported_slices_name_the_op(text: str, message: str) -> None:
    with pytest.raises(ConversionError, match=message):
        _convert(text)
