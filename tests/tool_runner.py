"""Running the tools' `main()` in this process, with their output and exit status captured
(much faster than a subprocess per case)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from mirage.tools import mirage_opt, mirage_run


@dataclass
class Result:
    status: int
    out: str
    err: str

    @property
    def clean(self) -> bool:
        """No traceback, no internal error."""
        return "Traceback" not in self.err and "internal error" not in self.err


def _call(main: Callable[[Sequence[str] | None], None], argv: Sequence[str]) -> Result:
    out, err = io.StringIO(), io.StringIO()
    status = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return Result(status, out.getvalue(), err.getvalue())


def opt(*argv: str) -> Result:
    return _call(mirage_opt.main, argv)


def run(*argv: str) -> Result:
    return _call(mirage_run.main, argv)
