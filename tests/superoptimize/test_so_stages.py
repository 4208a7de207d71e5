"""Contraction stages (`stages.py`): a chain of matmuls with elementwise and row work
between them becomes one launch per stage, each stage's prologue and epilogue fused with
its matmuls, as an expert writes an MLP or attention followed by its projection."""

from __future__ import annotations

from superoptimize.so_helpers import assert_same_values, build

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.passes.superoptimize.search_record import SearchRecord
from mirage.passes.superoptimize.stages import op_stages, stages


def _gated_mlp(rows: int, d: int, f: int, norm: bool = False, residual: bool = False) -> Graph:
    def make(b: KernelBuilder) -> None:
        x = b.input((rows, d), "f16")
        wg, wu, wd = b.input((d, f), "f16"), b.input((d, f), "f16"), b.input((f, d), "f16")
        h = b.rms_norm(x) if norm else x
        gate = b.silu(b.matmul(h, wg))
        y = b.matmul(b.mul(gate, b.matmul(h, wu)), wd)
        b.output(b.add(y, x) if residual else y)

    return build(make)


def _attention_projection(b: KernelBuilder) -> None:
    q, k, v = b.input((4, 64, 32), "f16"), b.input((4, 32, 64), "f16"), b.input((4, 64, 32), "f16")
    w = b.input((4, 32, 32), "f16")
    s = b.matmul(q, k)
    e = b.exp(b.sub(s, b.reduce_max(s, 2)))
    o = b.matmul(b.div(e, b.reduce_sum(e, 2)), v)
    b.output(b.matmul(o, w))


def _launches(graph: Graph) -> int:
    return sum(1 for op in graph.ops if op.kind != "retype")


def test_a_gated_mlp_has_two_stages_with_the_gate_product_in_the_first() -> None:
    program = _gated_mlp(16, 64, 96)
    kinds = [op.kind for op in program.ops]
    assert list(zip(kinds, op_stages(program), strict=True)) == [
        ("matmul", 1),
        ("silu", 1),
        ("matmul", 1),
        ("mul", 1),
        ("matmul", 2),
    ]


def test_a_norm_before_the_first_matmul_is_its_prologue_and_a_residual_add_an_epilogue() -> None:
    program = _gated_mlp(16, 64, 96, norm=True, residual=True)
    stage = dict(zip([op.kind for op in program.ops], op_stages(program), strict=False))
    assert stage["rms_norm"] == 1 and stage["add"] == 2


def test_attention_stays_in_one_stage_and_its_projection_is_the_next() -> None:
    program = build(_attention_projection)
    assert op_stages(program) == [1, 1, 1, 1, 1, 1, 1, 2]


def test_a_layout_op_between_stages_is_a_segment_of_its_own() -> None:
    # heads merged by a transpose between the attention and its output projection
    def make(b: KernelBuilder) -> None:
        q, k = b.input((4, 64, 32), "f16"), b.input((4, 32, 64), "f16")
        v, w = b.input((4, 64, 32), "f16"), b.input((128, 96), "f16")
        s = b.matmul(q, k)
        e = b.exp(b.sub(s, b.reduce_max(s, 2)))
        o = b.matmul(b.div(e, b.reduce_sum(e, 2)), v)
        merged = b.reshape(b.transpose(o, (1, 0, 2)), (64, 128))
        b.output(b.matmul(merged, w))

    program = build(make)
    cut = stages(program)
    assert cut is not None
    ordered, segments = cut
    kinds = [[op.kind for op in ordered.ops[s.start : s.stop]] for s in segments]
    assert kinds[1:] == [["transpose", "reshape"], ["matmul"]]
    assert kinds[0][-1] == "matmul" and "exp" in kinds[0]


def test_a_program_of_one_stage_is_not_cut() -> None:
    def make(b: KernelBuilder) -> None:
        b.output(b.matmul(b.rms_norm(b.input((16, 64))), b.input((64, 96))))

    program = build(make)
    assert stages(program) is None


def test_stages_keep_the_op_order_valid_where_ops_of_two_stages_interleave() -> None:
    # the down projection's residual input is normalized after the first matmul in the
    # program's order; the stages' order puts that norm first, with its reader
    def make(b: KernelBuilder) -> None:
        x, r = b.input((16, 64), "f16"), b.input((16, 96), "f16")
        w1, w2 = b.input((64, 96), "f16"), b.input((96, 64), "f16")
        h = b.relu(b.matmul(x, w1))
        y = b.matmul(b.add(h, b.silu(r)), w2)
        b.output(y)

    program = build(make)
    cut = stages(program)
    assert cut is not None
    ordered, segments = cut
    assert [s.stop - s.start for s in segments] == [4, 1]
    assert_same_values(program, ordered)


def _search(program: Graph, budget: float) -> tuple[SearchRecord, list[Graph]]:
    record = SearchRecord("stages")
    options = SearchOptions(time_budget=budget, workers=1, target=SM_90, keep=1)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    result = Search(program, options, PrunerFactory(None), verifier, record=record).run()
    return record, [r.graph for r in result.ranked]


def test_the_search_keeps_one_launch_per_stage_for_a_gated_mlp() -> None:
    # shapes no benchmark uses; the whole program fits no block, its stages each do
    program = _gated_mlp(32, 256, 384, norm=True, residual=True)
    record, ranked = _search(program, 20.0)
    # by stages, with the norm as written or distributed over the gate and up matmuls
    staged = [c for c in record.candidates.values() if "stages" in c.source]
    assert (2, True) in [(c.kernels, c.equivalent) for c in staged]
    (best,) = ranked
    assert _launches(best) == 2 and best.ops[0].body is not None
    # the norm in the first launch, as written or as its row sums beside the product
    kinds = {op.kind for op in best.ops[0].body.ops}
    assert "matmul" in kinds and ("rms_norm" in kinds or "reduce_sum" in kinds)
    assert_same_values(program, best)


def test_the_stages_of_a_gated_mlp_put_the_gate_product_in_the_first_launch() -> None:
    from mirage.passes.superoptimize.partition import compose, subprogram
    from mirage.passes.superoptimize.seed import fused_structure, parallelized

    program = _gated_mlp(64, 512, 768)
    cut = stages(program)
    assert cut is not None
    ordered, segments = cut
    parts: list[tuple[object, Graph]] = []
    for segment in segments:
        sub = subprogram(ordered, segment)
        structure = fused_structure(sub)
        assert structure is not None
        graph = parallelized(sub, structure, SM_90)
        assert graph is not None
        parts.append((segment, graph))
    composed = compose(ordered, parts)  # type: ignore[arg-type]
    first, second = composed.ops
    assert first.body is not None and second.body is not None
    assert {op.kind for op in first.body.ops} >= {"silu", "mul", "matmul"}
    assert len(first.results) == 1  # the product alone goes to the down projection
    assert [op.kind for op in second.body.ops].count("matmul") == 1
    assert_same_values(program, composed)


def test_attention_with_its_projection_becomes_an_online_kernel_and_the_projection() -> None:
    program = build(_attention_projection)
    record, ranked = _search(program, 20.0)
    staged = [c for c in record.candidates.values() if c.source.startswith("stages")]
    assert staged and all(c.kernels == 2 for c in staged)
    (best,) = ranked
    assert _launches(best) <= 2
    assert_same_values(program, best)
