"""Rendering dot text through Graphviz's `dot` binary, where it is installed."""

from __future__ import annotations

import shutil
import subprocess

FORMATS = ("svg",)
"""What `render` makes: text formats only (the targets write to a text stream)."""


class RenderError(ValueError):
    """Graphviz is missing, or it refused the text."""


def dot_binary() -> str | None:
    return shutil.which("dot")


def render(dot_text: str, fmt: str = "svg", timeout: float = 60.0) -> str:
    """The picture `dot -T<fmt>` makes of the text."""
    if fmt not in FORMATS:
        raise RenderError(f"render must be one of {', '.join(FORMATS)}, got '{fmt}'")
    binary = dot_binary()
    if binary is None:
        raise RenderError(
            "Graphviz's 'dot' binary is not installed (not found on PATH); install Graphviz "
            "to render, or leave out render= for the dot text"
        )
    try:
        done = subprocess.run(
            [binary, f"-T{fmt}"],
            input=dot_text,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(f"'dot -T{fmt}' took more than {timeout:g} s") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise RenderError(f"'dot -T{fmt}' failed: {lines[0] if lines else done.returncode}")
    return done.stdout
