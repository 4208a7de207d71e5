"""How model attributes and types map to IR properties and types (both directions)."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    bf16,
    f16,
    f32,
    f64,
    i64,
)
from xdsl.ir import Attribute

from mirage.dialects.types import tensor_or_none
from mirage.dialects.ugraph.graph import AttrValue
from mirage.dialects.ugraph.graph import TensorType as MTensorType

_DTYPES: dict[type[Attribute], str] = {
    Float16Type: "f16",
    BFloat16Type: "bf16",
    Float32Type: "f32",
    Float64Type: "f64",
}
_ELEMENTS: dict[str, Attribute] = {"f16": f16, "bf16": bf16, "f32": f32, "f64": f64}


def dtype_name(element: Attribute) -> str:
    return _DTYPES[type(element)]


def element_type(dtype: str) -> Attribute:
    return _ELEMENTS[dtype]


def type_from_ir(ty: Attribute) -> MTensorType:
    tensor = tensor_or_none(ty)
    if tensor is not None:
        return MTensorType(tuple(tensor.get_shape()), dtype_name(tensor.element_type))
    return MTensorType((), dtype_name(ty))  # a thread-level scalar


def type_to_ir(ty: MTensorType, scalar: bool = False) -> Attribute:
    if scalar:
        return element_type(ty.dtype)
    return TensorType(element_type(ty.dtype), ty.shape)


def attr_from_ir(attr: Attribute) -> AttrValue:
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    raise TypeError(f"no model form for attribute {attr}")


def attr_to_ir(value: AttrValue) -> Attribute:
    if isinstance(value, bool):
        raise TypeError("boolean attributes are not used")
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr(value, f64)
    if isinstance(value, tuple):
        return DenseArrayBase.from_list(i64, [int(v) for v in value])  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    raise TypeError(f"no IR form for attribute value {value!r}")
