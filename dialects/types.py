"""Type checks shared by the three dialects."""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

ELEMENT_TYPE_NAMES: dict[type[Attribute], str] = {
    Float16Type: "f16",
    BFloat16Type: "bf16",
    Float32Type: "f32",
}


def as_tensor(ty: Attribute) -> TensorType[Attribute]:
    """`ty`, which must be a tensor type, with its element type typed (an isinstance test
    leaves it unknown)."""
    tensor = tensor_or_none(ty)
    assert tensor is not None, f"{ty} is not a tensor type"
    return tensor


def tensor_or_none(ty: Attribute) -> TensorType[Attribute] | None:
    if not isinstance(ty, TensorType):
        return None
    return cast("TensorType[Attribute]", ty)


def integer_or_none(ty: Attribute) -> IntegerType[int, Signedness] | None:
    """`ty` as an integer type with its width and signedness typed, or None."""
    if not isinstance(ty, IntegerType):
        return None
    return cast("IntegerType[int, Signedness]", ty)


def element_name(ty: Attribute) -> str:
    """'f16', 'bf16' or 'f32'; raises for any other element type."""
    name = ELEMENT_TYPE_NAMES.get(type(ty))
    if name is None:
        raise VerifyException(f"element type {ty} is not supported (use f16, bf16 or f32)")
    return name


def tensor_shape(ty: Attribute, what: str) -> tuple[int, ...]:
    """The static shape of a ranked tensor with a supported element type."""
    tensor = tensor_or_none(ty)
    if tensor is None:
        raise VerifyException(f"{what} must be a ranked tensor, got {ty}")
    element_name(tensor.element_type)
    shape = tuple(tensor.get_shape())
    if any(d < 1 for d in shape):
        raise VerifyException(f"{what} must have a static shape of positive extents, got {ty}")
    return shape


def check_result_shape(got: tuple[int, ...], want: tuple[int, ...], what: str = "result") -> None:
    if got != want:

        def fmt(s: tuple[int, ...]) -> str:
            return "x".join(map(str, s)) or "scalar"

        raise VerifyException(f"{what} shape {fmt(got)} does not match the expected {fmt(want)}")
