"""One-line diagnostics for the command-line tools: `file:line:col: error: message`.

xDSL reports parse errors with a source excerpt and verifier errors with the whole module
printed; a compiler user wants one line that names the place. The parser here remembers
where each op started, so verifier errors can name the op's line and column too.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
import signal
import struct
import sys
import tempfile
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

from mirage.passes.linalg.constants import ResourceKeyParser
from mirage.tools.registry import get_all_passes


class LocatingParser(ResourceKeyParser):
    """A parser that records the source position at which each op starts (and files each
    `dialect_resources` blob under the name its attributes use)."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.text = text
        self.line_offset = line_offset
        self._op_starts: dict[Operation, int] = {}
        self._op_locations: dict[Operation, tuple[int, int]] | None = None

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        op = super().parse_operation()
        # Only the offset here: a span's line number counts the newlines before it, which
        # made parsing quadratic in the file's length.
        self._op_starts[op] = start
        return op

    @property
    def op_locations(self) -> dict[Operation, tuple[int, int]]:
        """Line and column (1-based) where each parsed op starts."""
        if self._op_locations is None or len(self._op_locations) != len(self._op_starts):
            newlines = [m.start() for m in re.finditer("\n", self.text)]
            locations: dict[Operation, tuple[int, int]] = {}
            for op, start in self._op_starts.items():
                line = bisect.bisect_left(newlines, start)
                line_start = newlines[line - 1] + 1 if line else 0
                locations[op] = (line + 1 + self.line_offset, start - line_start + 1)
            self._op_locations = locations
        return self._op_locations


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


def parse_checked(
    ctx: Context, text: str, name: str, line_offset: int = 0, implicit_module: bool = True
) -> tuple[ModuleOp, LocatingParser]:
    """The module of `text` and its parser (for the ops' places), with every way the text
    can fail to parse reported on one line with its place (xDSL lets a few escape as other
    exceptions: an integer that does not fit its array's element type fails in
    `struct.pack`)."""
    parser: LocatingParser | None = None
    try:
        parser = LocatingParser(ctx, text, name, line_offset)  # lexes the first token
        return parser.parse_module(implicit_module), parser
    except ParseError as e:
        raise ToolError(parse_error_line(e, line_offset)) from None
    except (struct.error, OverflowError) as e:
        where = name
        if parser is not None:
            loc = parser._current_token.span.get_location()  # pyright: ignore[reportPrivateUsage]
            where = f"{loc.file}:{loc.line + line_offset}:{loc.col}"
        raise ToolError(f"{where}: error: a value out of the range of its type ({e})") from None


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


def fail(message: str, status: int = 1) -> NoReturn:
    print(message, file=sys.stderr)
    sys.exit(status)


def check_text(text: str, file: str, line_offset: int = 0) -> None:
    """Reject input that no MLIR parser reads, naming the first bad character's place
    (xDSL would print the character itself: a NUL byte garbles the terminal)."""
    at = text.find("\0")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        col = at - (text.rfind("\n", 0, at) + 1) + 1
        raise ToolError(f"{file}:{line + line_offset}:{col}: error: NUL byte in the input")


def check_output_path(path: str) -> None:
    """Fail before any work if the output file cannot be written where it is asked for."""
    target = Path(path)
    if target.is_dir():
        raise ToolError(f"{path}: error: is a folder; -o takes a file name")
    folder = target.parent
    if not folder.is_dir():
        raise ToolError(f"{path}: error: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ToolError(f"{path}: error: the folder {folder} is not writable")


def write_atomically(path: str, text: str) -> None:
    """Write `text` to a temporary file beside `path` and rename it into place."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise ToolError(f"{path}: error: cannot write it ({e.strerror})") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise ToolError(f"{path}: error: cannot write it ({e.strerror})") from None
        raise


class Terminated(BaseException):
    """SIGTERM arrived: unwind (ending worker processes, writing nothing) and exit."""


@contextmanager
def sigterm_raises() -> Generator[None]:
    """SIGTERM raises Terminated in the main thread while inside, so that `finally`
    blocks run (Python's default is to die on the spot)."""

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def spec_error(e: ArgSpecParseError) -> str:
    """One line for a pass pipeline or target that does not parse: the text, the column
    and xDSL's reason."""
    lines = [line for line in str(e).splitlines() if line.strip()]
    # lines: heading, "pass-pipeline:LINE:COL", the text, the caret, the reason
    if len(lines) < 5:
        return lines[-1].strip() if lines else "bad pass pipeline"
    col = lines[1].rsplit(":", 1)[-1]
    text, reason = lines[2], lines[-1].strip()
    hint = ""
    if reason == "Unknown token":
        hint = ' (quote values with characters other than letters, digits, "-" and "_": '
        hint += 'cache="/a/path")'
    return f"in '{text}' at column {col}: {reason}{hint}"


def kebab(name: str) -> str:
    return name.replace("_", "-")


def pipeline_error(pipeline: str, e: ValueError) -> str:
    """xDSL's message for pass options it rejects, with the pass named and the options
    spelled as users type them (`time-budget`, not `time_budget`)."""
    from xdsl.utils.arg_spec import parse_pipeline

    message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    try:
        specs = list(parse_pipeline(pipeline))
    except ArgSpecParseError:
        return message
    passes = get_all_passes()
    for spec in specs:
        factory = passes.get(spec.name)
        if factory is None:
            continue
        cls = factory()
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        given = spec.normalize_parameter_names().parameters
        unknown = [name for name in given if name not in fields]
        if unknown:
            return (
                f"{spec.name}: unknown option {kebab(unknown[0])} "
                f"(options: {', '.join(kebab(f) for f in fields)})"
            )
        try:
            cls.from_spec(spec)
        except ValueError as inner:
            text = str(inner)
            missing = re.search(r'requires argument "(\w+)"', text)
            if missing:
                return f"{spec.name}: option {kebab(missing[1])} is required"
            bad = _bad_option(cls, given)
            if bad is not None:
                return f"{spec.name}: {bad}"
            return f"{spec.name}: {re.sub(r'[a-z]+(?:_[a-z0-9]+)+', lambda m: kebab(m[0]), text)}"
    return re.sub(r"\b[a-z]+(?:_[a-z0-9]+)+\b", lambda m: kebab(m[0]), message)


def _bad_option(cls: type, given: dict[str, Any]) -> str | None:
    """Which option's value does not convert to its declared type, and why."""
    from xdsl.utils.arg_spec import _convert_arg_to_type  # pyright: ignore[reportPrivateUsage]

    hints = get_type_hints(cls)
    for name, value in given.items():
        try:
            _convert_arg_to_type(value, hints[name])
        except ValueError:
            shown = " ".join(str(v) for v in value) if value else "nothing"
            expected = getattr(hints[name], "__name__", str(hints[name]))
            hint = " (floats are written with a dot: 1.0e-6)" if expected == "float" else ""
            return f"option {kebab(name)}: expected {expected}, got {shown}{hint}"
    return None
