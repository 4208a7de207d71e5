"""`mirage-opt FILE -t dot`: the module's functions as Graphviz text (`dot.py`);
`-t 'dot{render=svg}'`: the picture, through the `dot` binary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from mirage.passes.pictures.dot import draw_module
from mirage.passes.pictures.render import RenderError, render


@dataclass(frozen=True)
class DotTarget(Target):
    name = "dot"
    render: str = ""
    """Empty: the dot text; `svg`: the rendered picture (needs Graphviz)."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        text = draw_module(module)
        if not self.render:
            output.write(text)
            return
        try:
            output.write(render(text, self.render))
        except RenderError as e:
            raise RenderError(f"-t dot{{render={self.render}}}: {e}") from None
