"""The check-equivalence pass through mirage-opt: unchanged module when equivalent; one
error line and exit status 1 with a counterexample when not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.utils.exceptions import PassFailedException

from conftest import FIXTURES, parse_module
from mirage.passes.equivalence.check_equivalence import CheckEquivalencePass
from mirage.tools.registry import get_all_passes, make_context

CORPUS = Path(__file__).parent / "corpus"


def _mirage_opt(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mirage.tools.mirage_opt", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_registered() -> None:
    assert get_all_passes()["check-equivalence"]() is CheckEquivalencePass


def test_equivalent_module_passes_through_unchanged() -> None:
    path = FIXTURES / "rmsnorm_linear_small.mlir"
    spec = "check-equivalence{reference=program candidate=ugraph}"
    done = _mirage_opt(str(path), "-p", spec)
    assert done.returncode == 0, done.stderr
    plain = _mirage_opt(str(path))
    assert done.stdout == plain.stdout


def test_counterexample_is_one_error_line() -> None:
    path = CORPUS / "32_wrong_imap.mlir"
    done = _mirage_opt(
        str(path), "-p", "check-equivalence{reference=reference candidate=candidate}"
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        f"{path}: error: check-equivalence: @candidate is not equivalent to @reference: "
        "output 0 differs at index ["
    )
    assert "in the random test with seed" in lines[0]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("reference=reference candidate=nothing", "no function @nothing in the module"),
        ("reference=candidate candidate=reference error-bound=0.001", "not equivalent"),
    ],
)
def test_errors(spec: str, message: str) -> None:
    done = _mirage_opt(
        str(CORPUS / "31_swapped_div_operands.mlir"), "-p", f"check-equivalence{{{spec}}}"
    )
    assert done.returncode == 1 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_pass_api() -> None:
    ctx = make_context()
    module = parse_module((CORPUS / "36_transposed_operand.mlir").read_text(), ctx)
    before = str(module)
    with pytest.raises(PassFailedException, match="@candidate is not equivalent to @reference"):
        CheckEquivalencePass(reference="reference", candidate="candidate").apply(ctx, module)
    CheckEquivalencePass(reference="reference", candidate="reference").apply(ctx, module)
    assert str(module) == before
