"""Parsing stays linear in the file's length: the tools' parser records where each op
starts without asking xDSL for a line number per op (that counts the newlines from the
start of the file every time, which made a 4 MB file take 45 s), and still places every
op at the line and column xDSL would give."""

from __future__ import annotations

import pytest
from xdsl.utils.lexer import Span

from mirage.tools.diagnostics import LocatingParser
from mirage.tools.registry import make_context


def _program(ops: int) -> str:
    t = "tensor<8x64xf32>"
    lines = [f"func.func @f(%x0: {t}) -> {t} {{"]
    lines += [f"  %x{i + 1} = kernel.exp %x{i} : {t} -> {t}" for i in range(ops)]
    lines += [f"  func.return %x{ops} : {t}", "}"]
    return "\n".join(lines) + "\n"


def test_no_line_numbers_while_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = Span.get_location

    def counted(self: Span) -> object:
        calls.append(1)
        return original(self)

    monkeypatch.setattr(Span, "get_location", counted)
    parser = LocatingParser(make_context(), _program(300), "p.mlir")
    parser.parse_module()
    assert calls == []
    assert len(parser.op_locations) == 302  # func, 300 ops, return


def test_locations_are_xdsls() -> None:
    text = "// a comment\n" + _program(20).replace("  %x5 =", "\n    %x5 =")
    parser = LocatingParser(make_context(), text, "p.mlir", line_offset=7)
    module = parser.parse_module()
    lines = text.splitlines()
    for op in module.walk():
        if op.name == "builtin.module":
            continue
        line, col = parser.op_locations[op]
        source = lines[line - 7 - 1]
        assert source[col - 1 :].startswith(("%", "func.", "kernel.")), (op.name, source)
    exp5 = next(o for o in module.walk() if o.results and o.results[0].name_hint == "x5")
    # comment, func, four ops, the blank line: line 8 of the text, 15 with the offset
    assert parser.op_locations[exp5] == (8 + 7, 5)
