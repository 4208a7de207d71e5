"""Type checks shared by the three dialects."""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

ELEMENT_TYPE_NAMES = {Float16Type: "f16", BFloat16Type: "bf16", Float32Type: "f32"}


def element_name(ty: Attribute) -> str:
    """'f16', 'bf16' or 'f32'; raises for any other element type."""
    name = ELEMENT_TYPE_NAMES.get(type(ty))
    if name is None:
        raise VerifyException(f"element type {ty} is not supported (use f16, bf16 or f32)")
    return name


def tensor_shape(ty: Attribute, what: str) -> tuple[int, ...]:
    """The static shape of a ranked tensor with a supported element type."""
    if not isinstance(ty, TensorType):
        raise VerifyException(f"{what} must be a ranked tensor, got {ty}")
    element_name(ty.element_type)
    shape = tuple(ty.get_shape())
    if any(d < 1 for d in shape):
        raise VerifyException(f"{what} must have a static shape of positive extents, got {ty}")
    return shape


def check_result_shape(got: tuple[int, ...], want: tuple[int, ...], what: str = "result") -> None:
    if got != want:
        fmt = lambda s: "x".join(map(str, s)) or "scalar"  # noqa: E731
        raise VerifyException(f"{what} shape {fmt(got)} does not match the expected {fmt(want)}")
