"""A reshape is a retype: the lowering launches nothing for it (it aliases the buffer), and
the cost model charges nothing, except where its result is an output (then copied)."""

from __future__ import annotations

from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.ptx.compile import compile_function
from mirage.passes.superoptimize.cost import op_cost, program_cost

WITH = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<64xf32>) -> tensor<8x64xf32> {
  %r = kernel.reshape %g : tensor<64xf32> -> tensor<1x64xf32>
  %y = kernel.mul %x, %r : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""
WITHOUT = """
func.func @f(%x: tensor<8x64xf32>, %g: tensor<1x64xf32>) -> tensor<8x64xf32> {
  %y = kernel.mul %x, %g : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""
OUTPUT = """
func.func @f(%x: tensor<8x64xf32>) -> tensor<512xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %r = kernel.reshape %e : tensor<8x64xf32> -> tensor<512xf32>
  func.return %r : tensor<512xf32>
}
"""


def _func(text: str) -> FuncOp:
    return next(op for op in parse_module(text).ops if isinstance(op, FuncOp))


def _graph(text: str) -> Graph:
    return graph_from_func(_func(text))


def test_reshape_costs_no_launch() -> None:
    with_reshape = program_cost(_graph(WITH), SM_90)
    without = program_cost(_graph(WITHOUT), SM_90)
    assert with_reshape.seconds == without.seconds
    reshape = _graph(WITH).ops[0]
    assert op_cost(reshape, [_graph(WITH).args[1]], SM_90).seconds == 0.0
    # as the lowering: one launch, for the mul
    assert len(compile_function(_func(WITH)).launches) == 1


def test_reshaped_output_costs_the_copy_the_lowering_makes() -> None:
    cost = program_cost(_graph(OUTPUT), SM_90)
    assert len(compile_function(_func(OUTPUT)).launches) == 2
    exp, copy = cost.kernels
    assert copy.seconds > SM_90.launch_seconds
    assert copy.seconds < 2 * exp.seconds
