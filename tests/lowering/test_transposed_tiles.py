"""Transposed views as tensor-core B operands (`x @ W.T` as nn.Linear writes it, `q @ k.T`
with k stored (keys, dim)): the tile is stored in the tensor's own order, copied in 16-byte
chunks, and read by ldmatrix without its transpose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.utils.exceptions import VerifyException

from mirage.dialects.hardware import SM_80, SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.optimize.decisions import TileAttr
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.plan import Plan, plan_graph_op
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.ptxas import find_ptxas
from mirage.passes.superoptimize.cost import program_cost
from tests.conftest import get_func, parse_module

VIEWS = Path(__file__).parent / "data" / "views.mlir"


def _graph(func: str) -> Graph:
    return graph_from_func(get_func(parse_module(VIEWS.read_text()), func))


def _plan(func: str) -> Plan:
    (op,) = [o for o in _graph(func).ops if o.kind == "graph"]
    assert op.body is not None
    return plan_graph_op(
        op.body, op.ints_attr("grid"), op.ints_attr("block"), op.int_attr("forloop_range")
    )


def test_tile_strides_of_a_transposed_tile() -> None:
    t = Tile((2, 64, 32), "f16", 72, transposed=True)
    assert t.strides == (72 * 32, 1, 72) and t.storage_shape == (2, 32, 64)
    assert t.copy_bytes == 2 * 32 * 72 * 2
    plain = Tile((2, 64, 32), "f16", 40)
    assert plain.strides == (40 * 64, 40, 1) and plain.copy_bytes == 2 * 64 * 40 * 2


@pytest.mark.parametrize(
    ("func", "value_shape"), [("linear_f16", (64, 64)), ("scores_f16", (1, 64, 64))]
)
def test_the_planner_stores_transposed_views_transposed(
    func: str, value_shape: tuple[int, ...]
) -> None:
    plan = _plan(func)
    transposed = [t for t in plan.tiles.values() if t.transposed]
    (t,) = transposed
    assert t.shape == value_shape and t.pitch == 72  # 64 elements, padded to an odd 16-byte count


def test_not_on_fma_matmuls() -> None:
    # f32 matmuls run on FMA: their element reads go through any layout, the copy stays
    plan = _plan("transposed_weight")
    assert not any(t.transposed for t in plan.tiles.values())


def test_tile_attribute_round_trip_and_checks() -> None:
    text = "#mirage.tile<64x64xf16, offset 0, transposed, pitch 72, stages 8>"
    module = parse_module(f'"test.op"() {{t = {text}}} : () -> ()')
    module.verify()
    attr = module.body.block.first_op.attributes["t"]  # type: ignore[union-attr]
    assert isinstance(attr, TileAttr) and attr.tile().transposed and attr.tile().pitch == 72
    assert text in str(module)
    unpadded = parse_module(
        '"test.op"() {t = #mirage.tile<64x32xf16, offset 0, transposed>} : () -> ()'
    )
    assert unpadded.body.block.first_op.attributes["t"].tile().pitch == 64  # type: ignore[union-attr]
    with pytest.raises(VerifyException, match="transposed tile must have 2 or more dims"):
        parse_module(
            '"test.op"() {t = #mirage.tile<64xf16, offset 0, transposed>} : () -> ()'
        ).verify()


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
@pytest.mark.parametrize("func", ["linear_f16", "scores_f16"])
def test_transposed_tiles_copy_16_bytes_and_skip_the_ldmatrix_transpose(
    func: str, arch: str
) -> None:
    ptx = compile_function(get_func(parse_module(VIEWS.read_text()), func), arch).ptx
    assert "cp.async.cg.shared.global" in ptx
    assert not re.search(r"ld\.global", ptx)  # no element-by-element copy
    assert "ldmatrix.sync.aligned" in ptx and ".trans" not in ptx
    if find_ptxas() is not None:
        import subprocess
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
            f.write(ptx)
            f.flush()
            done = subprocess.run(
                [str(find_ptxas()), "-arch", arch, f.name, "-o", "/dev/null"],
                capture_output=True,
                text=True,
                check=False,
            )
        assert done.returncode == 0, done.stderr


def test_the_cost_model_charges_a_transposed_b_operand_as_a_contiguous_one() -> None:
    # both copied by cp.async (sm_80): the same cost
    viewed = program_cost(_graph("linear_f16"), SM_80).seconds
    stored = program_cost(_graph("linear_f16_kn"), SM_80).seconds
    assert viewed == pytest.approx(stored)
    # on sm_90 the stored weight loads by tensor maps, which a strided view cannot use
    viewed = program_cost(_graph("linear_f16"), SM_90).seconds
    stored = program_cost(_graph("linear_f16_kn"), SM_90).seconds
    assert viewed > stored
    # an f32 (FMA) matmul still copies its transposed operand element by element
    f32 = _graph("transposed_weight")
    assert program_cost(f32, SM_90).seconds > 0
