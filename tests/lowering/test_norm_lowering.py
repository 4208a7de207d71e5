"""Norms with eps, gain and bias lower to PTX that applies them (the GPU check is in
test_gpu.py, on the same functions)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from tests.conftest import get_func, parse_module

DATA = Path(__file__).parent / "data"


def _f32(value: float) -> str:
    """How PTX writes an f32 immediate."""
    return "0f" + struct.pack(">f", value).hex().upper()


@pytest.mark.parametrize(
    ("func", "eps"), [("affine_norm", 1e-5), ("looped_norm", 0.5), ("mean_eps", 0.25)]
)
def test_eps_reaches_the_ptx(func: str, eps: float) -> None:
    program = compile_function(get_func(parse_module((DATA / "norms.mlir").read_text()), func))
    assert _f32(eps) in program.ptx
    if find_ptxas() is not None:
        report = resource_report(program.ptx, program.arch)
        assert "error" not in report.lower(), report


def test_gain_and_bias_are_read() -> None:
    program = compile_function(
        get_func(parse_module((DATA / "norms.mlir").read_text()), "affine_norm")
    )
    (launch,) = program.launches
    assert len(launch.args) == 4  # x, gain, bias and the result
    # the f16 gain is loaded and widened, the bias added
    assert "cvt.f32.f16" in program.ptx
