"""Whether a function's tensors can be held in memory at all, checked before allocating.

The reference run (float64), the random tests of the equivalence check (int64 residues)
and the search's verifier hold every kernel-level tensor of a program at full size. A
shape of 10^12 elements would otherwise end in numpy's MemoryError deep inside them; here
it is one message naming the tensor.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import cast

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue


class FootprintError(ValueError):
    """A tensor with a dynamic shape, or tensors too large for the memory."""


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux, else the physical memory)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 40


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    raise AssertionError


def _values(func: FuncOp) -> Iterator[SSAValue]:
    """The function's arguments and the results of its top-level ops."""
    yield from func.body.block.args
    for op in func.body.block.ops:
        yield from op.results


def _name(value: SSAValue, index: int) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"value {index}"


def check_footprint(
    func: FuncOp, bytes_per_element: int, purpose: str, memory: int | None = None
) -> None:
    """Raise FootprintError if a tensor of `func` has a dynamic shape, or if its tensors
    at `bytes_per_element` (the element size of `purpose`'s arrays) exceed `memory`
    (default: the memory available now)."""
    total = 0
    largest: tuple[int, str, str] | None = None
    for index, value in enumerate(_values(func)):
        attr: Attribute = value.type
        if not isinstance(attr, TensorType):
            continue
        ty = cast(TensorType[Attribute], attr)
        shape = ty.get_shape()
        if any(d < 0 for d in shape):
            raise FootprintError(
                f"tensor {_name(value, index)} has a dynamic shape ({ty}); "
                "only static shapes can be run"
            )
        elements = 1
        for d in shape:
            elements *= d
        size = elements * bytes_per_element
        total += size
        if largest is None or size > largest[0]:
            largest = (size, _name(value, index), str(ty))
    limit = available_memory() if memory is None else memory
    if largest is not None and total > limit:
        size, name, ty = largest
        raise FootprintError(
            f"tensor {name} ({ty}) needs {_size(size)} for {purpose} "
            f"({_size(total)} for all tensors of @{func.sym_name.data}), "
            f"more than the {_size(limit)} of memory available"
        )
