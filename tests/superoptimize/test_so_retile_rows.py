"""Shape families over rows (`family.retile`, `family.reshape_program`): a gain's or bias's
reshape carries over (kept where its operand keeps its shape, its unit dims kept where the
width changes), a reshape of the rest of each row follows new row counts, and a norm over
long rows is parallelized a few rows per block where tiles of MIN_TILE rows do not fit."""

from __future__ import annotations

from pathlib import Path

import pytest
from superoptimize.so_helpers import build
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize.family import reshape_program, retile
from mirage.passes.superoptimize.parallelize import MIN_TILE

DATA = Path(__file__).parent / "data"


def _funcs() -> dict[str, Graph]:
    module = parse_module((DATA / "layernorm_rows.mlir").read_text())
    return {op.sym_name.data: graph_from_func(op) for op in module.ops if isinstance(op, FuncOp)}


def _at(rows: int, width: int = 2048) -> Graph:
    template = _funcs()["program"]
    args = (
        TensorType((rows, width), "f16"),
        TensorType((width,), "f16"),
        TensorType((width,), "f16"),
    )
    program = reshape_program(template, args)
    assert program is not None
    return program


@pytest.mark.parametrize("rows", [256, 1024])
def test_a_layer_norm_retiles_to_more_rows_a_few_rows_per_block(rows: int) -> None:
    program = _at(rows)
    tiled = retile(_funcs()["found"], program, SM_90)
    assert tiled is not None
    (graph,) = [op for op in tiled.ops if op.kind == "graph"]
    # rows of 2048 elements: blocks of MIN_TILE rows do not fit, so fewer rows per block
    assert rows // graph.ints_attr("grid")[0] < MIN_TILE
    assert Verifier(program).verify(tiled).equivalent


def test_a_gains_reshape_keeps_its_unit_dim_at_a_new_width() -> None:
    program = _at(64, 1024)
    reshapes = [op for op in program.ops if op.kind == "reshape"]
    assert [op.results[0].shape for op in reshapes] == [(1, 1024), (1, 1024)]


def test_a_reshape_of_each_row_follows_the_rows_and_others_do_not() -> None:
    def split(rows: int, to: tuple[int, ...]) -> Graph:
        module = parse_module(
            f"func.func @f(%x: tensor<{rows}x2048xf16>) -> tensor<{'x'.join(map(str, to))}xf16> "
            "{\n"
            f"  %0 = kernel.reshape %x : tensor<{rows}x2048xf16> -> "
            f"tensor<{'x'.join(map(str, to))}xf16>\n"
            f"  func.return %0 : tensor<{'x'.join(map(str, to))}xf16>\n}}"
        )
        (func,) = module.ops
        assert isinstance(func, FuncOp)
        return graph_from_func(func)

    heads = reshape_program(split(64, (64, 16, 128)), (TensorType((256, 2048), "f16"),))
    assert heads is not None and heads.output_types[0].shape == (256, 16, 128)
    # a reshape that moves elements across rows was built for its old shapes
    merged = reshape_program(split(64, (128, 1024)), (TensorType((256, 2048), "f16"),))
    assert merged is None


def _wide_linear(b: KernelBuilder) -> None:
    b.output(b.matmul(b.input((16, 4096)), b.input((4096, 11008))))


def test_a_small_members_row_split_is_dropped_where_it_would_reread_the_weights() -> None:
    # At 16 x 64 rows split over two blocks cost little; at 16 x 4096 @ 4096 x 11008 every
    # block row would read all of the weight again. Without partial results the cut is
    # free to change: the retiled op keeps the rows whole and is cheaper than the split.
    small = parse_module((DATA / "row_split_matmul.mlir").read_text())
    (func,) = [op for op in small.ops if isinstance(op, FuncOp)]
    found = graph_from_func(func)
    program = build(_wide_linear)
    tiled = retile(found, program, SM_90)
    assert tiled is not None
    (op,) = tiled.ops
    assert op.body is not None
    x_tile = op.body.ops[0].results[0]
    assert x_tile.shape[0] == 16  # the rows whole in every block
    assert Verifier(program).verify(tiled).equivalent
