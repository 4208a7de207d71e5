"""Norms with eps, gain and bias lower to PTX that applies them (the GPU check is in
test_gpu.py, on the same functions)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from mirage.dialects.hardware import SM_90A
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.optimize.annotate import plan_for
from mirage.lowering.optimize.decisions import encode
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


def test_a_reductions_one_elementwise_reader_is_computed_as_it_stores() -> None:
    # column_norm: reduce_sum -> fuse(mul_scalar, sqrt) -> div. The roots are stored once
    # per column by the reduction (no tile of the sums); computed where the division reads
    # them, each of the 32 rows would take its column's square root again.
    func = get_func(parse_module((DATA / "norms.mlir").read_text()), "column_norm")
    (op,) = graph_from_func(func).ops
    assert op.body is not None
    plan = plan_for(op, SM_90A)
    sums, roots = 3, 4  # the body's values: X, t, s, then these
    assert plan.reduce_epilogues == {sums: roots}
    assert sums not in plan.tiles and plan.tiles[roots].shape == (1, 1, 128)
    (reduce,) = [t for t in plan.loop if t.kind == "reduce"]
    assert reduce.writes == (roots,)
    assert not [t for t in plan.loop if t.kind == "compute" and roots in t.writes]
    # the recorded plan carries it through plan-ugraph's attribute
    attr = encode(plan, lambda _i, _n, _a: None)
    assert "epilogues [3 = 4]" in str(attr)
    ptx = compile_function(func).ptx
    entry = ptx[ptx.index(".entry column_norm") :]
    assert entry.count("sqrt.rn.f32") == 1 and "div.full.f32" in entry
