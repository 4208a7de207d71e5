"""Weights: tensor constants lifted out of kernel functions, and the wrapper that passes
them back in.

`convert-linalg-to-kernel` turns every non-splat tensor constant (`dense<...>` or
`dense_resource<...>`) of a function @f into an extra argument of the kernel function
@f_kernel, after f's own arguments, in the order the `arith.constant` ops appear in f.
@f keeps its name and signature: it holds the constants and calls @f_kernel. So the kernel
takes weights as parameters, and @f still runs with its activations alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    Builtin,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser

from mirage.dialects.types import as_tensor
from mirage.dialects.weights_wrapper import wrapped_kernel

Array = NDArray[Any]

KERNEL_SUFFIX = "_kernel"

_BLOB_DTYPES: dict[str, str] = {"f16": "<f2", "f32": "<f4", "f64": "<f8", "bf16": "<u2"}


class ResourceKeyParser(Parser):
    """xDSL's parser renames a resource key that an earlier parse in the process already
    declared, but then files the blob of the `{-# dialect_resources #-}` section under a
    second new name, so the attribute refers to an empty blob. This parser maps each key
    of one file to one stored name."""

    _resource_keys: dict[tuple[str, str], str]

    def _parse_dialect_resource_handle(
        self, dialect_name: str, interface: OpAsmDialectInterface
    ) -> str:
        if not hasattr(self, "_resource_keys"):
            self._resource_keys = {}
        key = self.parse_identifier(context_msg=" for resource handle")
        stored = self._resource_keys.get((dialect_name, key))
        if stored is None:
            stored = interface.declare_resource(key)
            self._resource_keys[(dialect_name, key)] = stored
            self.dialect_resources.add((dialect_name, stored))
        return stored


def constant_array(value: Attribute) -> Array:
    """The contents of a tensor constant (float64)."""
    typed = getattr(value, "type", None)
    assert isinstance(typed, Attribute), f"{value} is not a tensor constant"
    ty = as_tensor(typed)
    shape = tuple(int(d) for d in ty.get_shape())
    dtype = str(ty.element_type)
    if isinstance(value, DenseIntOrFPElementsAttr):
        data = np.asarray(value.get_values(), dtype=np.float64)
        return np.broadcast_to(data, shape).copy() if data.size == 1 else data.reshape(shape)
    if isinstance(value, DenseResourceAttr):
        interface = Builtin.get_interface(OpAsmDialectInterface)
        assert interface is not None
        key = value.resource_handle.data
        blob = interface.lookup(key)
        if not blob:
            raise ValueError(f"dense_resource<{key}> has no data in this module")
        raw = bytes.fromhex(blob[2:])[4:]  # the first 4 bytes are the blob's alignment
        if dtype not in _BLOB_DTYPES:
            raise ValueError(f"dense_resource<{key}> has unsupported element type {dtype}")
        data = np.frombuffer(raw, dtype=_BLOB_DTYPES[dtype])
        if dtype == "bf16":
            data = (data.astype(np.uint32) << 16).view(np.float32)
        return data.astype(np.float64).reshape(shape)
    raise TypeError(f"{value} is not a tensor constant")


def build_wrapper(
    original: func.FuncOp, kernel_name: str, constants: Sequence[arith.ConstantOp]
) -> func.FuncOp:
    """@original's name and signature: its constants, then a call of the kernel."""
    wrapper = func.FuncOp(original.sym_name.data, original.function_type)
    block = wrapper.body.block
    for new, old in zip(block.args, original.body.block.args, strict=True):
        new.name_hint = old.name_hint
    values: list[SSAValue] = [*block.args]
    for c in constants:
        clone = arith.ConstantOp(c.value, c.result.type)
        block.add_op(clone)
        values.append(clone.result)
    call = func.CallOp(kernel_name, values, list(original.function_type.outputs.data))
    block.add_op(call)
    block.add_op(func.ReturnOp(*call.results))
    return wrapper


def resolve_wrapper(
    module: ModuleOp, wrapper: func.FuncOp
) -> tuple[func.FuncOp, list[Array]] | None:
    """`wrapped_kernel` with the constants' values: run the kernel on the wrapper's
    arguments followed by these arrays."""
    found = wrapped_kernel(module, wrapper)
    if found is None:
        return None
    kernel, consts = found
    return kernel, [constant_array(c.value) for c in consts]


def module_text(module: ModuleOp) -> str:
    """The module as MLIR text, with the blobs of its `dense_resource` constants."""
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    printer = Printer(stream=out)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    return out.getvalue()
