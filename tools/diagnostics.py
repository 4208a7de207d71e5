"""One-line diagnostics for the command-line tools: `file:line:col: error: message`.

xDSL reports parse errors with a source excerpt and verifier errors with the whole module
printed; a compiler user wants one line that names the place. The parser here remembers
where each op started, so verifier errors can name the op's line and column too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError

from mirage.passes.linalg.constants import ResourceKeyParser


class LocatingParser(ResourceKeyParser):
    """A parser that records the source position at which each op starts (and files each
    `dialect_resources` blob under the name its attributes use)."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.line_offset = line_offset
        self.op_locations: dict[Operation, tuple[int, int]] = {}

    def parse_operation(self) -> Operation:
        span = self._current_token.span  # pyright: ignore[reportPrivateUsage]
        op = super().parse_operation()
        loc = span.get_location()
        self.op_locations[op] = (loc.line + self.line_offset, loc.col)
        return op


@dataclass
class ToolError(Exception):
    """An error the tool reports on one line and exits 1 for."""

    message: str

    def __str__(self) -> str:
        return self.message


def parse_error_line(e: ParseError, line_offset: int = 0) -> str:
    loc = e.span.get_location()
    msg = e.msg.strip()
    if not e.span.input.content[e.span.start :].strip():
        # xDSL's messages at the end of the input do not say so (" in block definition").
        msg = f"unexpected end of input ({msg})" if msg else "unexpected end of input"
    return f"{loc.file}:{loc.line + line_offset}:{loc.col}: error: {msg}"


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def verify_module(module: ModuleOp, locations: dict[Operation, tuple[int, int]], file: str) -> None:
    """Verify like xDSL (nested ops first), raising a ToolError that names the first
    offending op and its place."""
    try:
        module.verify()
        return
    except DiagnosticException:
        pass
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as e:
            raise ToolError(op_error_line(op, _first_line(e), locations, file)) from None
    raise ToolError(f"{file}: error: the module does not verify")


def op_error_line(
    op: Operation, message: str, locations: dict[Operation, tuple[int, int]], file: str
) -> str:
    message = message.removeprefix("Operation does not verify: ")
    where = locations.get(op)
    place = f"{file}:{where[0]}:{where[1]}" if where else file
    return f"{place}: error: '{op.name}' op {message}"


def fail(message: str) -> NoReturn:
    print(message, file=sys.stderr)
    sys.exit(1)
