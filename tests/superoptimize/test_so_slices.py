"""Slices normalized away before the search: a slice moves towards the arguments through
the ops that only slices read, and a slice of an argument becomes a window view (an
offset view) on block.input; what the search finds reads the window in place."""

from __future__ import annotations

from pathlib import Path

from superoptimize.so_helpers import assert_same_values as _same
from superoptimize.so_helpers import op_kinds as _kinds
from superoptimize.so_helpers import search
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.superoptimize.normalize import normalize

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"

# x @ w_gu, chunked: SwiGLU with a fused gate/up weight, as torch exports it (the hidden
# width and the batch are not the benchmarks').
SWIGLU_GATE_UP = """
func.func @swiglu(%x: tensor<16x64xf32>, %w: tensor<64x96xf32>, %d: tensor<48x64xf32>) -> tensor<16x64xf32> {
  %gu = kernel.matmul %x, %w : tensor<16x64xf32>, tensor<64x96xf32> -> tensor<16x96xf32>
  %g = kernel.slice %gu offsets [0, 0] : tensor<16x96xf32> -> tensor<16x48xf32>
  %u = kernel.slice %gu offsets [0, 48] : tensor<16x96xf32> -> tensor<16x48xf32>
  %s = kernel.silu %g : tensor<16x48xf32> -> tensor<16x48xf32>
  %h = kernel.mul %s, %u : tensor<16x48xf32>, tensor<16x48xf32> -> tensor<16x48xf32>
  %y = kernel.matmul %h, %d : tensor<16x48xf32>, tensor<48x64xf32> -> tensor<16x64xf32>
  func.return %y : tensor<16x64xf32>
}
"""  # noqa: E501

# A slice that cannot move: the window cuts the dim the reduction sums.
CUT_REDUCTION = """
func.func @cut(%x: tensor<8x32xf32>) -> tensor<8x1xf32> {
  %e = kernel.exp %x : tensor<8x32xf32> -> tensor<8x32xf32>
  %s = kernel.reduce_sum %e dim 1 size 4 : tensor<8x32xf32> -> tensor<8x4xf32>
  %w = kernel.slice %s offsets [0, 1] : tensor<8x4xf32> -> tensor<8x1xf32>
  %y = kernel.mul %w, %w : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x1xf32>
  func.return %y : tensor<8x1xf32>
}
"""

# Windows through a transpose and a norm, and a window of a concatenation's piece.
THROUGH = """
func.func @through(%x: tensor<6x16xf32>, %g: tensor<1x16xf32>, %a: tensor<8x6xf32>, %b: tensor<4x6xf32>) -> (tensor<3x16xf32>, tensor<6x4xf32>) {
  %n = kernel.rms_norm %x affine(%g : tensor<1x16xf32>) eps 1.0e-05 : tensor<6x16xf32> -> tensor<6x16xf32>
  %r = kernel.slice %n offsets [2, 0] : tensor<6x16xf32> -> tensor<3x16xf32>
  %c = kernel.concat %a, %b dim 0 : tensor<8x6xf32>, tensor<4x6xf32> -> tensor<12x6xf32>
  %t = kernel.transpose %c permutation [1, 0] : tensor<12x6xf32> -> tensor<6x12xf32>
  %e = kernel.exp %t : tensor<6x12xf32> -> tensor<6x12xf32>
  %w = kernel.slice %e offsets [0, 8] : tensor<6x12xf32> -> tensor<6x4xf32>
  func.return %r, %w : tensor<3x16xf32>, tensor<6x4xf32>
}
"""  # noqa: E501


def _graph(text: str) -> Graph:
    module = parse_module(text)
    return graph_from_func(next(op for op in module.ops if isinstance(op, FuncOp)))


def test_a_chunked_fused_weight_becomes_two_windows_of_it() -> None:
    program = _graph(SWIGLU_GATE_UP)
    norm = normalize(program)
    assert norm is not None
    assert sorted(_kinds(norm.program)) == ["matmul", "matmul", "matmul", "mul", "silu"]
    windows = [o for o in norm.origins if o.window]
    assert [(o.arg, o.type.shape, o.strides, o.offset) for o in windows] == [
        (1, (64, 48), (96, 1), 0),
        (1, (64, 48), (96, 1), 48),
    ]
    _same(program, norm.restore(norm.program, SM_90))


def test_windows_move_through_norms_transposes_and_concatenations() -> None:
    program = _graph(THROUGH)
    norm = normalize(program)
    assert norm is not None
    assert "slice" not in _kinds(norm.program) and "concat" not in _kinds(norm.program)
    # rows 2..4 of x; columns 8..11 of the transposed concat: all of b, read transposed
    shapes = sorted((o.arg, o.type.shape, o.strides, o.offset) for o in norm.origins)
    assert shapes == [(0, (3, 16), (16, 1), 32), (1, (1, 16), (16, 1), 0), (3, (6, 4), (1, 6), 0)]
    _same(program, norm.restore(norm.program, SM_90))


def test_a_slice_that_cuts_a_reduction_stays() -> None:
    program = _graph(CUT_REDUCTION)
    norm = normalize(program)
    assert norm is None or "slice" in _kinds(norm.program)


def _launches(g: Graph) -> int:
    return sum(1 for op in g.ops if op.kind != "reshape")


def test_swiglu_with_a_fused_gate_up_weight_fuses() -> None:
    program = _graph(SWIGLU_GATE_UP)
    result = search(program, time_budget=20)
    assert result.ranked
    found = result.ranked[0].graph
    assert "slice" not in _kinds(found)
    assert _launches(found) <= 2
    windows = [
        bop
        for op in found.ops
        if op.body is not None
        for bop in op.body.ops
        if bop.kind == "input" and bop.offset
    ]
    assert windows, "the up half is read in place, at its offset"
    _same(program, found)


def _corpus(name: str) -> Graph:
    from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
    from mirage.tools.registry import make_context

    module = parse_module((CORPUS / f"{name}_small.mlir").read_text(), make_context())
    ConvertLinalgToKernelPass().apply(make_context(), module)
    funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
    return graph_from_func(funcs[-1])


def test_the_rotary_embedding_of_q_and_k_fuses_into_one_launch() -> None:
    program = _corpus("rotary_embedding")  # rotate_half: slices and torch.cat, twice
    assert {"slice", "concat"} <= set(_kinds(program))
    # 30 s: found within 10 s on a quiet 2-core machine, not within 10 s with tests beside it
    result = search(program, time_budget=30)
    assert result.ranked
    found = result.ranked[0].graph
    assert _launches(found) == 1
    (graph,) = [op for op in found.ops if op.kind == "graph"]
    assert graph.body is not None
    windows = [op.offset for op in graph.body.ops if op.kind == "input" and op.viewed]
    assert sorted(windows) == [0, 0, 8, 8]  # both halves of q and of k, read in place
    _same(program, found)
