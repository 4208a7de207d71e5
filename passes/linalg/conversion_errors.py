"""The one error of the linalg conversions: it names the op that cannot be converted."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class ConversionError(DiagnosticException):
    """`'<op name>' op <what is wrong>`; `op` lets a tool add the op's source location."""

    def __init__(self, op: Operation | None, message: str) -> None:
        self.op = op
        self.message = message
        super().__init__(f"'{op.name}' op {message}" if op is not None else message)
