"""Layout normalization around the search: reshapes, transposes and constants of programs
as PyTorch exports them are removed before the search and restored into what it finds
(views of block.input / block.output, retypes, mul_scalar, constants), evaluator-equal."""

from __future__ import annotations

from pathlib import Path

import pytest
from superoptimize.so_helpers import assert_same_values as _same
from superoptimize.so_helpers import op_kinds as _kinds
from superoptimize.so_helpers import repeat_kv as _repeat_kv
from superoptimize.so_helpers import search
from xdsl.dialects.func import FuncOp

from conftest import parse_module
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.superoptimize.normalize import Normalized, normalize

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus"

HEAD_SPLIT = """
func.func @mha(%q: tensor<2x8x32xf32>, %k: tensor<2x8x32xf32>, %v: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  %0 = kernel.reshape %q : tensor<2x8x32xf32> -> tensor<2x8x4x8xf32>
  %1 = kernel.transpose %0 permutation [0, 2, 1, 3] : tensor<2x8x4x8xf32> -> tensor<2x4x8x8xf32>
  %2 = kernel.reshape %1 : tensor<2x4x8x8xf32> -> tensor<8x8x8xf32>
  %3 = kernel.reshape %k : tensor<2x8x32xf32> -> tensor<2x8x4x8xf32>
  %4 = kernel.transpose %3 permutation [0, 2, 3, 1] : tensor<2x8x4x8xf32> -> tensor<2x4x8x8xf32>
  %5 = kernel.reshape %4 : tensor<2x4x8x8xf32> -> tensor<8x8x8xf32>
  %6 = kernel.matmul %2, %5 : tensor<8x8x8xf32>, tensor<8x8x8xf32> -> tensor<8x8x8xf32>
  %7 = kernel.reshape %6 : tensor<8x8x8xf32> -> tensor<2x4x8x8xf32>
  %c = kernel.constant 0.25 : tensor<1x1x1x1xf32>
  %8 = kernel.mul %7, %c : tensor<2x4x8x8xf32>, tensor<1x1x1x1xf32> -> tensor<2x4x8x8xf32>
  %11 = kernel.exp %8 : tensor<2x4x8x8xf32> -> tensor<2x4x8x8xf32>
  %12 = kernel.reduce_sum %11 dim 3 : tensor<2x4x8x8xf32> -> tensor<2x4x8x1xf32>
  %13 = kernel.div %11, %12 : tensor<2x4x8x8xf32>, tensor<2x4x8x1xf32> -> tensor<2x4x8x8xf32>
  %14 = kernel.reshape %13 : tensor<2x4x8x8xf32> -> tensor<8x8x8xf32>
  %15 = kernel.reshape %v : tensor<2x8x32xf32> -> tensor<2x8x4x8xf32>
  %16 = kernel.transpose %15 permutation [0, 2, 1, 3] : tensor<2x8x4x8xf32> -> tensor<2x4x8x8xf32>
  %17 = kernel.reshape %16 : tensor<2x4x8x8xf32> -> tensor<8x8x8xf32>
  %18 = kernel.matmul %14, %17 : tensor<8x8x8xf32>, tensor<8x8x8xf32> -> tensor<8x8x8xf32>
  %19 = kernel.reshape %18 : tensor<8x8x8xf32> -> tensor<2x4x8x8xf32>
  %20 = kernel.transpose %19 permutation [0, 2, 1, 3] : tensor<2x4x8x8xf32> -> tensor<2x8x4x8xf32>
  %21 = kernel.reshape %20 : tensor<2x8x4x8xf32> -> tensor<2x8x32xf32>
  func.return %21 : tensor<2x8x32xf32>
}
"""  # noqa: E501

LINEAR_BIAS = """
func.func @linear(%x: tensor<8x64xf32>, %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<8x96xf32> {
  %0 = kernel.transpose %w permutation [1, 0] : tensor<96x64xf32> -> tensor<64x96xf32>
  %1 = kernel.matmul %x, %0 : tensor<8x64xf32>, tensor<64x96xf32> -> tensor<8x96xf32>
  %2 = kernel.reshape %b : tensor<96xf32> -> tensor<1x96xf32>
  %3 = kernel.add %1, %2 : tensor<8x96xf32>, tensor<1x96xf32> -> tensor<8x96xf32>
  func.return %3 : tensor<8x96xf32>
}
"""  # noqa: E501

SHIFT = """
func.func @shift(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c = kernel.constant 2.0 : tensor<1x1xf32>
  %0 = kernel.add %x, %c : tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>
  %1 = kernel.exp %0 : tensor<8x32xf32> -> tensor<8x32xf32>
  func.return %1 : tensor<8x32xf32>
}
"""


REVERSED_SHIFT = SHIFT.replace("kernel.add %x, %c", "kernel.sub %c, %x").replace(
    "tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>",
    "tensor<1x1xf32>, tensor<8x32xf32> -> tensor<8x32xf32>",
)
"""2 - x: the constant first, which no immediate form (x - c) keeps."""


def _graph(text: str) -> Graph:
    module = parse_module(text)
    return graph_from_func(next(op for op in module.ops if isinstance(op, FuncOp)))


def _corpus(name: str) -> Graph:
    from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
    from mirage.tools.registry import make_context as ctx

    module = parse_module((CORPUS / f"{name}_small.mlir").read_text(), ctx())
    ConvertLinalgToKernelPass().apply(ctx(), module)
    funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
    return graph_from_func(funcs[-1])


def test_head_split_attention_normalizes_to_batched_attention_over_views() -> None:
    program = _graph(HEAD_SPLIT)
    norm = normalize(program)
    assert norm is not None
    assert _kinds(norm.program) == [
        "matmul", "mul_scalar", "exp", "reduce_sum", "div", "matmul"
    ]  # fmt: skip
    # the heads as views of the arguments: q's head dim moves before the sequence
    assert [o.type.shape for o in norm.origins] == [(2, 4, 8, 8)] * 3
    assert norm.origins[0].strides == (256, 8, 32, 1)
    assert norm.origins[1].strides == (256, 8, 1, 32)  # K read transposed
    assert norm.output_strides == ((256, 8, 32, 1),)
    # the normalized program itself, restored: the chains rebuilt as kernel ops
    restored = norm.restore(norm.program, SM_90)
    _same(program, restored)


@pytest.mark.parametrize(
    "name",
    ["multi_head_attention", "linear_bias", "rmsnorm_linear", "lora", "gqa_repeat_kv",
     "attention_out_proj", "qknorm_attention", "gelu_tanh_mlp", "layernorm_linear"],
)  # fmt: skip
def test_corpus_programs_restore_evaluator_equal(name: str) -> None:
    program = _corpus(name)
    norm = normalize(program)
    assert norm is not None
    assert len(norm.program.ops) < len(program.ops)
    _same(program, norm.restore(norm.program, SM_90))


def test_programs_without_layout_ops_are_not_normalized() -> None:
    program = _graph(
        SHIFT.replace("%c = kernel.constant 2.0 : tensor<1x1xf32>\n", "").replace(
            "kernel.add %x, %c : tensor<8x32xf32>, tensor<1x1xf32>",
            "kernel.exp %x : tensor<8x32xf32>",
        )
    )
    assert normalize(program) is None


def test_a_scalar_factor_becomes_mul_scalar_and_other_constants_arguments() -> None:
    norm = normalize(_graph(HEAD_SPLIT))
    assert norm is not None
    (scale,) = [op for op in norm.program.ops if op.kind == "mul_scalar"]
    assert scale.float_attr("scalar") == 0.25
    shift = normalize(_graph(SHIFT))
    assert shift is not None
    assert _kinds(shift.program) == ["add_scalar", "exp"]
    assert shift.program.ops[0].float_attr("scalar") == 2.0
    assert [(o.arg, o.value) for o in shift.origins] == [(0, 0.0)]
    _same(_graph(SHIFT), shift.restore(shift.program, SM_90))
    reversed_shift = normalize(_graph(REVERSED_SHIFT))
    assert reversed_shift is not None
    assert _kinds(reversed_shift.program) == ["sub", "exp"]
    assert [(o.arg, o.value) for o in reversed_shift.origins] == [(-1, 2.0), (0, 0.0)]
    restored = reversed_shift.restore(reversed_shift.program, SM_90)
    assert _kinds(restored) == ["constant", "sub", "exp"]
    _same(_graph(REVERSED_SHIFT), restored)


@pytest.mark.parametrize(
    ("binary", "constant_first", "form"),
    [("add", True, "add_scalar"), ("sub", False, "sub_scalar"), ("div", False, "div_scalar"),
     ("pow", False, "square"), ("mul", True, "mul_scalar"), ("div", True, None)],
)  # fmt: skip
def test_a_splat_constant_operand_becomes_the_immediate_form_that_keeps_its_place(
    binary: str, constant_first: bool, form: str | None
) -> None:
    operands, types = ("%c, %x", "tensor<1x1xf32>, tensor<8x32xf32>")
    if not constant_first:
        operands, types = ("%x, %c", "tensor<8x32xf32>, tensor<1x1xf32>")
    text = SHIFT.replace("kernel.add %x, %c", f"kernel.{binary} {operands}").replace(
        "tensor<8x32xf32>, tensor<1x1xf32> -> tensor<8x32xf32>", f"{types} -> tensor<8x32xf32>"
    )
    norm = normalize(_graph(text))
    assert norm is not None
    if form is None:  # c / x: the constant stays, an argument
        assert _kinds(norm.program) == [binary, "exp"]
    elif form == "square":  # x ** 2: a product, not a power
        assert _kinds(norm.program) == [form, "exp"]
    else:
        assert _kinds(norm.program) == [form, "exp"]
        assert norm.program.ops[0].float_attr("scalar") == 2.0
    _same(_graph(text), norm.restore(norm.program, SM_90))


def _search(text: str, budget: float, normalized: bool) -> tuple[Graph, Graph]:
    before = _graph(text)
    result = search(before, time_budget=budget, normalize=normalized)
    return before, (result.ranked[0].graph if result.ranked else before)


def _launches(g: Graph) -> int:
    return sum(1 for op in g.ops if op.kind != "reshape")


def test_linear_with_bias_fuses_reading_the_weight_transposed() -> None:
    before, after = _search(LINEAR_BIAS, 20, True)
    assert _launches(after) == 1
    (graph,) = [op for op in after.ops if op.kind == "graph"]
    assert graph.body is not None
    viewed = [op for op in graph.body.ops if op.kind == "input" and op.viewed]
    assert [op.layout((96, 64)) for op in viewed] == [((64, 96), (1, 64))]
    _same(before, after)
    _, unnormalized = _search(LINEAR_BIAS, 20, False)
    assert _launches(unnormalized) > 1


@pytest.mark.slow
def test_head_split_attention_fuses_into_one_kernel() -> None:
    before, after = _search(HEAD_SPLIT, 40, True)
    assert _kinds(after) == ["graph"]
    (graph,) = after.ops
    assert graph.body is not None
    inputs = [op for op in graph.body.ops if op.kind == "input"]
    outputs = [op for op in graph.body.ops if op.kind == "output"]
    assert inputs and all(op.viewed for op in inputs)
    assert [op.viewed for op in outputs] == [True]
    _same(before, after, seed=1)


def test_a_constant_shift_fuses_with_its_constant_as_a_property() -> None:
    before, after = _search(SHIFT, 15, True)
    assert _kinds(after) == ["graph"]
    (graph,) = after.ops
    assert graph.body is not None
    assert "add_scalar" in _kinds(graph.body) or any(
        op.body is not None and "add_scalar" in _kinds(op.body) for op in graph.body.ops
    )
    _same(before, after)


def test_a_constant_before_the_tensor_fuses_and_comes_back_as_a_constant() -> None:
    before, after = _search(REVERSED_SHIFT, 15, True)
    assert _kinds(after) == ["constant", "graph"]
    _same(before, after)


@pytest.mark.slow
def test_the_tanh_gelu_mlp_fuses_with_its_constants_as_properties() -> None:
    # torch's tanh-GELU adds 1 and cubes: the immediate forms leave no constant to fill
    before = _corpus("gelu_tanh_mlp")
    result = search(before, time_budget=120, normalize=True)
    after = result.ranked[0].graph
    assert "constant" not in _kinds(after)
    assert _launches(after) <= 2  # the expert's count
    _same(before, after)


def test_the_cost_model_charges_a_strided_tile_for_its_lost_vector_accesses() -> None:
    from dataclasses import replace

    from mirage.passes.superoptimize.cost import program_cost

    _, after = _search(LINEAR_BIAS, 20, True)
    (j,) = [j for j, op in enumerate(after.ops) if op.kind == "graph"]
    graph = after.ops[j]
    assert graph.body is not None
    # the same kernel reading a weight stored (k, n): no view, 16-byte accesses
    plain_ops = tuple(
        replace(op, attrs=tuple((k, v) for k, v in op.attrs if k not in ("view", "strides")))
        if op.kind == "input"
        else op
        for op in graph.body.ops
    )
    k_n = (64, 96)
    plain_args = tuple(replace(t, shape=k_n) if t.shape == (96, 64) else t for t in graph.body.args)
    plain_body = Graph(plain_args, plain_ops, graph.body.outputs, graph.body.loop_end)
    plain = replace(graph, body=plain_body)
    args = tuple(replace(t, shape=k_n) if t.shape == (96, 64) else t for t in after.args)
    ops = list(after.ops)
    ops[j] = plain
    contiguous = Graph(args, tuple(ops), after.outputs)
    assert program_cost(after, SM_90).seconds > program_cost(contiguous, SM_90).seconds


def test_the_report_holds_the_normalized_search(tmp_path: Path) -> None:
    import json

    from mirage.passes.superoptimize.module_pass import SuperoptimizePass
    from mirage.tools.registry import make_context

    module = parse_module(LINEAR_BIAS)
    SuperoptimizePass(time_budget=10, workers=1, report=str(tmp_path)).apply(make_context(), module)
    (function,) = json.loads((tmp_path / "report.json").read_text())["functions"]
    (segment,) = function["segments"]
    assert segment["used"] and segment["inputs"] == 3
    assert function["totals"]["explored"] > 0
    assert function["outcome"] == "replaced"


LONE_LINEAR = """
func.func @linear(%x: tensor<64x256xf16>, %w: tensor<512x256xf16>) -> tensor<64x512xf16> {
  %0 = kernel.transpose %w permutation [1, 0] : tensor<512x256xf16> -> tensor<256x512xf16>
  %1 = kernel.matmul %x, %0 : tensor<64x256xf16>, tensor<256x512xf16> -> tensor<64x512xf16>
  func.return %1 : tensor<64x512xf16>
}
"""


def test_the_normalized_search_must_beat_the_program_not_the_normalized_program() -> None:
    from mirage.passes.superoptimize.cost import program_cost

    program = _graph(LONE_LINEAR)
    norm = normalize(program)
    assert norm is not None
    # without the weight's transpose kernel the normalized program is one matmul: cheaper
    # than any launch that beats the program with it
    assert program_cost(norm.program, SM_90).seconds < program_cost(program, SM_90).seconds / 1.5
    result = search(program, time_budget=20, seed_with_program=False)  # the enumeration's own
    assert result.baseline == program_cost(program, SM_90).seconds
    assert result.ranked
    best = result.ranked[0]
    # the bar is the program's own cost, its transpose kernel included
    assert best.seconds < result.baseline
    assert _kinds(best.graph) == ["graph"]
    _same(program, best.graph)


def test_a_plain_op_reading_a_view_is_restored_as_a_launch_that_reads_it_in_place() -> None:
    from mirage.passes.superoptimize.cost import program_cost

    program = _graph(LONE_LINEAR)
    norm = normalize(program)
    assert norm is not None
    assert _kinds(norm.program) == ["matmul"]
    restored = norm.restore(norm.program, SM_90)
    assert _kinds(restored) == ["graph"]  # no transpose kernel over the weight
    (graph,) = restored.ops
    assert graph.body is not None
    assert graph.ints_attr("grid") != (1, 1, 1)  # parallelized
    viewed = [op for op in graph.body.ops if op.kind == "input" and op.viewed]
    assert [op.layout((512, 256)) for op in viewed] == [((256, 512), (1, 256))]
    assert program_cost(restored, SM_90).seconds < program_cost(program, SM_90).seconds
    _same(program, restored)


OVERFLOWING = """
func.func @scaled(%x: tensor<32x64xf16>) -> tensor<64x32xf16> {
  %0 = kernel.transpose %x permutation [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %c = kernel.constant 100000.0 : tensor<1x1xf16>
  %1 = kernel.mul %0, %c : tensor<64x32xf16>, tensor<1x1xf16> -> tensor<64x32xf16>
  %d = kernel.constant 0.00001 : tensor<1x1xf16>
  %2 = kernel.mul %1, %d : tensor<64x32xf16>, tensor<1x1xf16> -> tensor<64x32xf16>
  func.return %2 : tensor<64x32xf16>
}
"""


def test_a_program_not_finite_in_storage_sets_no_bar_for_its_normalized_search() -> None:
    import math

    from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
    from mirage.passes.superoptimize.module_pass import PrunerFactory
    from mirage.passes.superoptimize.search import Search, SearchOptions

    program = _graph(OVERFLOWING)
    assert normalize(program) is not None
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    assert verifier.storage_check(program) is not None  # x * 1e5 overflows f16
    options = SearchOptions(time_budget=10, workers=1, target=SM_90, keep=1)
    search = Search(program, options, PrunerFactory(None), verifier)
    result = search.run()
    assert result.baseline == math.inf
    assert search.bar == math.inf  # no margin taken off an infinite bar (it stays one)
    assert any("not finite in f16/bf16 storage" in r for r in result.remarks)


GAINED_NORM_LINEAR = """
func.func @f(%x: tensor<16x4096xf16>, %g: tensor<4096xf16>, %w: tensor<256x4096xf16>) -> tensor<16x256xf16> {
  %g2 = kernel.reshape %g : tensor<4096xf16> -> tensor<1x4096xf16>
  %n = kernel.rms_norm %x affine(%g2 : tensor<1x4096xf16>) eps 1.0e-05 : tensor<16x4096xf16> -> tensor<16x4096xf16>
  %t = kernel.transpose %w permutation [1, 0] : tensor<256x4096xf16> -> tensor<4096x256xf16>
  %y = kernel.matmul %n, %t : tensor<16x4096xf16>, tensor<4096x256xf16> -> tensor<16x256xf16>
  func.return %y : tensor<16x256xf16>
}
"""  # noqa: E501


def test_an_rms_norm_with_its_gain_and_a_linear_fuse_into_one_launch_over_the_rows() -> None:
    # F.rms_norm(x, (k,), g) @ w.T: rows too long for one tile; the launch walks them in a
    # loop, applying the gain to x's tiles before the contraction and dividing by the norm
    # after the loop
    # (the model may rank the norm's own kernel and the linear's launch above it, and a
    # norm kernel feeding a linear kernel: the fused launch is among the three verified
    # candidates kept, which all beat the program)
    program = _graph(GAINED_NORM_LINEAR)
    result = search(program, time_budget=30, keep=3)
    fused = [r.graph for r in result.ranked if _launches(r.graph) == 1]
    assert fused and all(r.seconds < result.baseline for r in result.ranked)
    (graph,) = [op for op in fused[0].ops if op.kind == "graph"]
    assert graph.body is not None and graph.int_attr("forloop_range") > 1
    # with the thread-level bodies of fused elementwise chains
    kinds = {op.kind for op in graph.body.ops}
    kinds |= {t.kind for op in graph.body.ops if op.body is not None for t in op.body.ops}
    # the norm after the loop: its accumulator, or its row sums of squares accumulated
    # beside the product (`algebra.py`)
    statistics = "accum_rms_last" in kinds or {"square", "reduce_sum", "sqrt"} <= kinds
    assert statistics and "mul" in kinds
    _same(program, fused[0])


def test_the_normalized_search_keeps_more_than_the_program_asks_for() -> None:
    # ranked without the program's layout ops, its candidates are ranked again once
    # restored onto them (a view of a transposed weight changes what each costs): the
    # inner search keeps several, the search itself the one asked for
    from mirage.dialects.hardware import SM_90
    from mirage.passes.equivalence.verifier import Verifier
    from mirage.passes.superoptimize.module_pass import PrunerFactory
    from mirage.passes.superoptimize.search import INNER_KEEP, Search, SearchOptions
    from mirage.passes.superoptimize.search_record import SearchRecord

    program = _graph(GAINED_NORM_LINEAR)
    record = SearchRecord("gained")
    options = SearchOptions(time_budget=30.0, workers=1, target=SM_90, keep=1)
    result = Search(program, options, PrunerFactory(None), Verifier(program), record=record).run()
    assert len(result.ranked) == 1
    (inner,) = [s.record for s in record.segments if "[normalized]" in s.record.name]
    # every candidate it verified, up to INNER_KEEP, not only the one asked for
    verified = [c for c in inner.candidates.values() if c.equivalent]
    assert len(inner.ranked) == min(len(verified), INNER_KEEP) >= 1


@pytest.mark.parametrize(("m", "n"), [(16, 512), (64, 768)])
def test_a_launch_reading_a_transposed_weight_retiles_to_other_shapes(m: int, n: int) -> None:
    # what a shape family does with a restored linear: new extents, the view carried over
    # (the same view for the same weight, the same permutation for another weight's shape)
    from mirage.passes.equivalence.verifier import Verifier
    from mirage.passes.superoptimize.family import retile

    norm = normalize(_graph(LONE_LINEAR))
    assert norm is not None
    restored = norm.restore(norm.program, SM_90)
    new = _graph(
        LONE_LINEAR.replace("64x", f"{m}x").replace("512", str(n)).replace("x512x", f"x{n}x")
    )
    tiled = retile(restored, new, SM_90)
    assert tiled is not None
    (graph,) = tiled.ops
    assert graph.body is not None
    viewed = [op for op in graph.body.ops if op.kind == "input" and op.viewed]
    assert [op.layout((n, 256)) for op in viewed] == [((256, n), (1, 256))]
    assert Verifier(new).verify(tiled).equivalent


LINEAR_CHAIN = """
func.func @chain(%x: tensor<64x256xf16>, %w: tensor<512x256xf16>,
                 %v: tensor<256x512xf16>) -> tensor<64x256xf16> {
  %0 = kernel.transpose %w permutation [1, 0] : tensor<512x256xf16> -> tensor<256x512xf16>
  %1 = kernel.matmul %x, %0 : tensor<64x256xf16>, tensor<256x512xf16> -> tensor<64x512xf16>
  %2 = kernel.transpose %v permutation [1, 0] : tensor<256x512xf16> -> tensor<512x256xf16>
  %3 = kernel.matmul %1, %2 : tensor<64x512xf16>, tensor<512x256xf16> -> tensor<64x256xf16>
  func.return %3 : tensor<64x256xf16>
}
"""


def test_with_nothing_found_the_result_still_reads_the_weights_in_place() -> None:
    # block graphs too small for any kernel: the normalized program itself, restored, is
    # the candidate that beats the program (no transpose kernel over either weight)
    program = _graph(LINEAR_CHAIN)
    result = search(program, time_budget=10, seed_with_program=False, max_block_ops=2)
    assert result.ranked
    best = result.ranked[0]
    assert "transpose" not in _kinds(best.graph)
    assert best.seconds < result.baseline
    _same(program, best.graph)


CUBED = """
func.func @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c = kernel.pow_scalar %x, 3.0 : tensor<8x64xf32> -> tensor<8x64xf32>
  %y = kernel.mul_scalar %c, 0.044715 : tensor<8x64xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""


def test_an_integral_power_becomes_products_the_verifier_proves_exactly() -> None:
    from mirage.passes.equivalence.verifier import Verifier

    program = _graph(CUBED)
    norm = normalize(program)
    assert norm is not None
    assert _kinds(norm.program) == ["square", "mul", "mul_scalar"]
    restored = norm.restore(norm.program, SM_90)
    _same(program, restored)
    verdict = Verifier(program).verify(restored)
    assert verdict.equivalent and not verdict.unsound_ops  # x ** 3 is exact in the fields


QK_NORM = """
func.func @f(%q: tensor<4x64x16xf32>, %k: tensor<4x64x16xf32>, %v: tensor<4x64x16xf32>, %g: tensor<1x1x16xf32>) -> tensor<4x64x16xf32> {
  %nq = kernel.rms_norm %q eps 1.0e-06 : tensor<4x64x16xf32> -> tensor<4x64x16xf32>
  %nk = kernel.rms_norm %k affine(%g : tensor<1x1x16xf32>) eps 1.0e-06 : tensor<4x64x16xf32> -> tensor<4x64x16xf32>
  %kt = kernel.transpose %nk permutation [0, 2, 1] : tensor<4x64x16xf32> -> tensor<4x16x64xf32>
  %s = kernel.matmul %nq, %kt : tensor<4x64x16xf32>, tensor<4x16x64xf32> -> tensor<4x64x64xf32>
  %m = kernel.reduce_max %s dim 2 : tensor<4x64x64xf32> -> tensor<4x64x1xf32>
  %z = kernel.sub %s, %m : tensor<4x64x64xf32>, tensor<4x64x1xf32> -> tensor<4x64x64xf32>
  %e = kernel.exp %z : tensor<4x64x64xf32> -> tensor<4x64x64xf32>
  %d = kernel.reduce_sum %e dim 2 : tensor<4x64x64xf32> -> tensor<4x64x1xf32>
  %p = kernel.div %e, %d : tensor<4x64x64xf32>, tensor<4x64x1xf32> -> tensor<4x64x64xf32>
  %o = kernel.matmul %p, %v : tensor<4x64x64xf32>, tensor<4x64x16xf32> -> tensor<4x64x16xf32>
  func.return %o : tensor<4x64x16xf32>
}
"""  # noqa: E501


def test_a_transpose_of_normed_keys_moves_to_the_keys_and_the_attention_fuses() -> None:
    program = _graph(QK_NORM)
    norm = normalize(program)
    assert norm is not None
    kinds = _kinds(norm.program)
    assert "transpose" not in kinds
    # the keys' norm, now over their dim 1, written out as its reduction
    assert kinds.count("rms_norm") == 1 and "sqrt" in kinds
    _online_fuses_to_one_graph(program, norm)


def test_repeated_kv_heads_become_a_batch_broadcast_of_the_grouped_heads() -> None:
    # 2 KV heads, each shared by 3 query heads: the attention runs on (batch, kv, group)
    # batch dims, the keys and values broadcast along the group dim, read once per group
    program = _graph(_repeat_kv(b=2, kv=2, g=3, s=32, d=8))
    norm = normalize(program)
    assert norm is not None
    assert _kinds(norm.program) == [
        "matmul", "mul_scalar", "reduce_max", "sub", "exp", "reduce_sum", "div", "matmul"
    ]  # fmt: skip
    q, k, v = norm.program.args
    assert q.shape == (2, 2, 3, 32, 8)
    assert k.shape == (2, 2, 1, 8, 32) and v.shape == (2, 2, 1, 32, 8)
    _online_fuses_to_one_graph(program, norm)


def test_batch_dims_grouped_apart_are_split_to_their_common_refinement() -> None:
    from mirage.passes.superoptimize.normalize import _common_refinement  # pyright: ignore[reportPrivateUsage]

    assert _common_refinement((2, 32), (2, 8, 4)) == (2, 8, 4)
    assert _common_refinement((6, 4), (2, 12)) == (2, 3, 4)
    assert _common_refinement((64,), (2, 32)) == (2, 32)
    assert _common_refinement((2, 3), (5,)) is None


def _online_fuses_to_one_graph(program: Graph, norm: Normalized) -> None:
    """The normalized program and its online form, restored, compute the program; the
    online form is one graph op beside reshapes."""
    from mirage.passes.superoptimize.online import online_structure
    from mirage.passes.superoptimize.seed import parallelized

    _same(program, norm.restore(norm.program, SM_90))
    structure = online_structure(norm.program)
    assert structure is not None
    fused = parallelized(norm.program, structure, SM_90)
    assert fused is not None
    restored = norm.restore(fused, SM_90)
    assert [op.kind for op in restored.ops if op.kind != "reshape"] == ["graph"]
    _same(program, restored)
