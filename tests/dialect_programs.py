"""Helpers of the dialect tests: writing programs as IR text, printing and parsing them, and
independent numpy meanings of the elementwise kinds and of the tile layout."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from io import StringIO
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.printer import Printer

from conftest import parse_module
from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.dialects.semantics.domain import Domain
from mirage.tools.registry import make_context

Array = NDArray[Any]
Shape = tuple[int, ...]


def tensor(shape: Sequence[int], dtype: str = "f32") -> str:
    return f"tensor<{'x'.join([*map(str, shape), dtype])}>"


def ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def print_module(module: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def print_func(func: FuncOp, generic: bool = False) -> str:
    return print_module(ModuleOp([func.clone()]), generic)


@functools.cache
def _context() -> Context:
    # Building a context reads the installed entry points; once is enough.
    return make_context()


def only_func(text: str) -> FuncOp:
    module = parse_module(text, _context())
    funcs = [op for op in module.ops if isinstance(op, FuncOp)]
    assert len(funcs) == 1
    return funcs[0]


def run_text(text: str, inputs: Sequence[Array], domain: Domain[Any] | None = None) -> list[Array]:
    """Parse `text` (one function), evaluate it and return numpy outputs."""
    dom: Domain[Any] = domain or FloatDomain()
    outs = evaluate_function(only_func(text), [dom.from_array(x) for x in inputs], dom)
    return [dom.to_array(o) for o in outs]


# --- independent meanings of the elementwise kinds ------------------------------------------

_erfc = np.vectorize(math.erfc, otypes=[np.float64])

REFERENCE: dict[str, Callable[..., Array]] = {
    "exp": lambda x: np.e**x,
    "square": lambda x: x * x,
    "sqrt": lambda x: x**0.5,
    "rsqrt": lambda x: x**-0.5,
    "silu": lambda x: x * 0.5 * (1.0 + np.tanh(x / 2.0)),
    "gelu": lambda x: x * 0.5 * _erfc(-x / math.sqrt(2.0)),
    "relu": lambda x: np.where(x > 0, x, 0.0),
    "tanh": lambda x: np.sinh(x) / np.cosh(x),
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: np.exp(b * np.log(a)),
    "max": lambda a, b: np.where(a >= b, a, b),
}
"""What each kind means, written without the op-kind table (a test checks it covers every
kind of the table)."""

POSITIVE_ONLY = {"sqrt", "rsqrt", "pow", "div"}
"""Kinds whose (first or second) operand should stay positive to give finite results."""


def sample(rng: np.random.Generator, shape: Shape, positive: bool = False) -> Array:
    if positive:
        return rng.uniform(0.5, 2.0, size=shape)
    return rng.uniform(-2.0, 2.0, size=shape)


# --- the tile layout, written literally from its definition ----------------------------------


def _cuts(dmap: Sequence[int], fdim: int, d: int) -> list[int]:
    """Which lead axes (0-2 grid x/y/z, 3 the loop) cut tensor dim d, most significant first."""
    axes = [g for g in range(3) if dmap[g] == d]
    if fdim == d:
        axes.append(3)
    return axes


def _slices(
    shape: Shape, dmap: Sequence[int], fdim: int, extents: Sequence[int], coord: Sequence[int]
) -> tuple[slice, ...]:
    """The part of a tensor of `shape` that lead coordinates `coord` (x, y, z, iteration)
    select, for lead axes of the given `extents`."""
    out: list[slice] = []
    for d, n in enumerate(shape):
        axes = _cuts(dmap, fdim, d)
        parts = math.prod(extents[a] for a in axes)
        index = 0
        for a in axes:
            index = index * extents[a] + coord[a]
        t = n // parts
        out.append(slice(index * t, (index + 1) * t))
    return tuple(out)


def blocks(grid: Sequence[int]) -> list[tuple[int, int, int]]:
    return [(x, y, z) for x in range(grid[0]) for y in range(grid[1]) for z in range(grid[2])]


def tile_of(
    x: Array,
    imap: Sequence[int],
    fdim: int,
    grid: Sequence[int],
    loops: int,
    block: Sequence[int],
    iteration: int,
) -> Array:
    """The tile that block `block` reads from `x` in iteration `iteration`."""
    return x[_slices(x.shape, imap, fdim, (*grid, loops), (*block, iteration))]


def assemble_literally(
    tiles: dict[tuple[int, int, int], Array], omap: Sequence[int], grid: Sequence[int]
) -> Array:
    """The device tensor that output savers write: block b's tile goes where omap puts it."""
    first = next(iter(tiles.values()))
    full = tuple(
        n * math.prod(grid[g] for g in range(3) if omap[g] == d) for d, n in enumerate(first.shape)
    )
    out = np.full(full, np.nan)
    for b, t in tiles.items():
        out[_slices(full, omap, -1, (*grid, 1), (*b, 0))] = t
    return out


def full_omap(imap: Sequence[int], rank: int) -> list[int]:
    """An omap that keeps imap's entries and maps every other grid dim to a free tensor dim."""
    free = [d for d in range(rank) if d not in imap]
    return [d if d != -1 else free.pop(0) for d in imap]
