"""Command-line tools (`mirage-opt`, `mirage-run`) and the registries they share, and
`draw(module)`: a module's μGraphs as Graphviz text (`mirage.passes.pictures`)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from mirage.passes.pictures.dot import draw_function, draw_module


def draw(module: ModuleOp | FuncOp) -> str:
    """The dot text of a module's functions (or of one function), for notebooks and
    scripts; render it with Graphviz (`mirage.passes.pictures.render.render`)."""
    return draw_function(module) if isinstance(module, FuncOp) else draw_module(module)
