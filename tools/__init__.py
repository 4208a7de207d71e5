"""Command-line tools (`mirage-opt`, `mirage-run`) and the registries they share, and
`draw(module)`: a module's μGraphs as Graphviz text (`mirage.tools.pictures`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp


def draw(module: ModuleOp | FuncOp) -> str:
    """The dot text of a module's functions (or of one function), for notebooks and
    scripts; render it with Graphviz (`mirage.tools.pictures.render.render`)."""
    from xdsl.dialects.func import FuncOp

    from mirage.tools.pictures.dot import draw_function, draw_module

    return draw_function(module) if isinstance(module, FuncOp) else draw_module(module)
