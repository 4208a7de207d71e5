"""Row-separable programs with shared weights (`rows.py`): which programs and candidates
compute each row from that row and the weights, the programs cut down to their first rows,
and the verifier testing such candidates on one row (verdicts unchanged, wrong candidates
still caught, counterexamples reproduced on the programs as they are)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import parse_module
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.equivalence.batch import first_slice, separable_batch
from mirage.passes.equivalence.rows import SHARED, first_rows, row_separable
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions


def _t(*shape: int) -> TensorType:
    return TensorType(shape, "f32")


def _kernel(args: tuple[TensorType, ...], *ops: Op) -> Graph:
    return Graph(args, ops, (len(args) + len(ops) - 1,))


X, W = _t(6, 8), _t(8, 5)


@pytest.mark.parametrize(
    ("args", "op", "batched"),
    [
        ((X, W), make_op("matmul", [0, 1], [_t(6, 5)]), {0}),  # x @ W: W shared
        ((W, _t(5, 6)), make_op("matmul", [0, 1], [_t(8, 6)]), {0}),
        ((X, _t(1, 8)), make_op("matmul", [1, 0], [_t(1, 8)]), None),  # rows summed over
        ((X, _t(1, 8)), make_op("add", [0, 1], [X]), {0}),  # a broadcast gain or bias
        ((X, _t(6, 8)), make_op("add", [0, 1], [X]), {0, 1}),
        ((X,), make_op("reduce_sum", [0], [_t(6, 1)], dim=1, size=1), {0}),
        ((X,), make_op("reduce_sum", [0], [_t(1, 8)], dim=0, size=1), None),
        ((X, _t(1, 8)), make_op("rms_norm", [0, 1], [X]), {0}),
        ((X,), make_op("transpose", [0], [_t(8, 6)], permutation=(1, 0)), None),
        ((X,), make_op("no_such_kind", [0], [X]), None),
    ],
)
def test_kernel_ops(args: tuple[TensorType, ...], op: Op, batched: set[int] | None) -> None:
    rows = row_separable(_kernel(args, op))
    assert (rows and set(rows.batched)) == batched


DATA = Path(__file__).parent / "data"
LINEAR = (DATA / "rows_linear.mlir").read_text()
FUSED = (DATA / "rows_fused.mlir.in").read_text()


def _graph(text: str) -> Graph:
    (func,) = parse_module(text).ops
    return graph_from_func(func)  # type: ignore[arg-type]


def _fused(rows_cut: bool = True, op: str = "gelu") -> Graph:
    """The linear layer as one launch: grid x over the 48 columns, grid y over the rows
    (4 tiles of 8) or none (each block all 32 rows)."""
    subs = (
        {"GRIDX": "3", "GRIDY": "4", "ROWS": "8", "XMAP": "0", "WMAP": "1"}
        if rows_cut
        else {"GRIDX": "3", "GRIDY": "1", "ROWS": "32", "XMAP": "-1", "WMAP": "1"}
    )
    text = FUSED.replace("OP", op)
    for k, v in subs.items():
        text = text.replace(k, v)
    return _graph(text)


def _random(graph: Graph, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, size=t.shape) for t in graph.args]


@pytest.mark.parametrize("rows_cut", [True, False])
def test_a_fused_linear_separates_into_rows(rows_cut: bool) -> None:
    reference, candidate = _graph(LINEAR), _fused(rows_cut)
    ref_rows = row_separable(reference)
    assert ref_rows is not None and ref_rows.batched == {0} and ref_rows.batch == 32
    rows = row_separable(candidate, ref_rows.batched)
    assert rows is not None
    (states,) = rows.states
    body = candidate.ops[-1].body
    assert body is not None
    assert states[: len(body.args)] == (0, SHARED, SHARED)  # x cut along dim 0
    # cut down to 3 rows, the launch computes the first 3 rows of the whole one
    for graph, cut in ((reference, ref_rows), (candidate, rows)):
        small = first_rows(graph, cut, 3)
        assert small.args[0].shape == (3, 64) and small.args[1].shape == (48, 64)
        inputs = _random(graph, 1)
        whole = evaluate(graph, inputs, FloatDomain(np.float64))[0]
        part = evaluate(small, [inputs[0][:3], *inputs[1:]], FloatDomain(np.float64))[0]
        np.testing.assert_allclose(np.asarray(part), np.asarray(whole)[:3], rtol=1e-12)


def test_a_block_graph_that_mixes_rows_is_not_separable() -> None:
    # a reduction over the rows of a block's tile: rows no longer computed on their own
    text = FUSED.replace(
        "%g = block.OP %y : tensor<ROWSx16xf32> -> tensor<ROWSx16xf32>",
        "%q = block.reduce_sum %y dim 0 size 1 : tensor<ROWSx16xf32> -> tensor<1x16xf32>\n"
        "    %g = block.add %y, %q : tensor<ROWSx16xf32>, tensor<1x16xf32> -> tensor<ROWSx16xf32>",
    )
    for k, v in {"GRIDX": "3", "GRIDY": "4", "ROWS": "8", "XMAP": "0", "WMAP": "1"}.items():
        text = text.replace(k, v)
    assert row_separable(_graph(text), frozenset({0})) is None


def _options() -> VerifierOptions:
    # the programs here are small: row cutting is asked for from any size
    return VerifierOptions(slice_elements=1)


@pytest.mark.parametrize("rows_cut", [True, False])
def test_the_verifier_tests_one_row(rows_cut: bool) -> None:
    verdict = Verifier(_graph(LINEAR), _options()).verify(_fused(rows_cut))
    assert verdict.equivalent, verdict
    assert verdict.rows == 1 and verdict.sliced
    assert "of the first 1 rows" in str(verdict)
    # the floor of tests for gelu's stand-in rule is counted in whole tests: no credit
    # for the rows, which share the weights
    assert verdict.tests == VerifierOptions().unsound_tests


def test_the_floor_for_stand_in_rules_draws_the_shared_weight_once() -> None:
    # gelu has a stand-in rule: the floor of 40 tests; past those the error bound counts,
    # the tests of the first row draw the weight once and the row for each test
    verifier = Verifier(_graph(LINEAR), _options())
    verdict = verifier.verify(_fused())
    assert verdict.equivalent and verdict.tests == VerifierOptions().unsound_tests
    (part,) = verifier.fingerprint._first_rows.values()  # pyright: ignore[reportPrivateUsage]
    assert part.shared == {1, 2}  # weight and bias; the row of x is drawn for each test
    assert 0 < len(part.floor_tests) < verdict.tests
    a, b = (part.drawn(t)[1] for t in part.floor_tests[:2])
    assert a[1] is b[1]
    assert not np.array_equal(a[0].re, b[0].re)
    # the fresh tests draw everything
    c, d = (part.drawn(t)[1] for t in part.tests[:2])
    assert not np.array_equal(c[1].re, d[1].re)


def test_a_wrong_candidate_is_caught_and_reproduced_on_the_whole_programs() -> None:
    reference = _graph(LINEAR)
    wrong = _fused(op="exp")
    verdict = Verifier(reference, _options()).verify(wrong)
    assert not verdict.equivalent and verdict.counterexample is not None
    # found again on the programs as they are: its index is in the whole output
    assert verdict.rows == 0 and not verdict.sliced


def test_large_references_only() -> None:
    # below slice_elements the programs are tested as they are
    verdict = Verifier(_graph(LINEAR)).verify(_fused())
    assert verdict.equivalent and verdict.rows == 0


ATTENTION = (DATA / "rows_attention.mlir").read_text()
ONLINE = (DATA / "rows_attention_online.mlir.in").read_text()


def _online(scale: str = "0.35", strides: str = "[384, 1, 8]") -> Graph:
    return _graph(ONLINE.replace("SCALE", scale).replace("[384, 1, 8]", strides))


def test_a_view_within_each_batch_slice_keeps_a_launch_separable() -> None:
    # K read transposed through a view: slice i of the view is slice i of K
    assert separable_batch(_online()) == 4
    # a view whose dim 0 is not K's own mixes the heads (a block sees several)
    assert separable_batch(_online(strides="[8, 1, 32]")) is None


def test_one_head_of_attention_separates_into_its_query_rows() -> None:
    reference, candidate = _graph(ATTENTION), _online()
    for graph in (reference, candidate):
        one = first_slice(graph)
        rows = row_separable(one)
        assert rows is not None and rows.dim == 1 and rows.batch == 32
        assert rows.batched == {0}  # K and V shared by every query row
        cut = first_rows(one, rows, 3)
        assert cut.args[0].shape == (1, 3, 8) and cut.args[1].shape == (1, 48, 8)
        inputs = _random(graph, 2)
        whole = np.asarray(evaluate(graph, inputs, FloatDomain(np.float64))[0])
        head = [inputs[0][:1, :3], inputs[1][:1], inputs[2][:1]]
        part = np.asarray(evaluate(cut, head, FloatDomain(np.float64))[0])
        np.testing.assert_allclose(part, whole[:1, :3], rtol=1e-12)


def test_the_verifier_tests_one_query_row_of_one_head() -> None:
    verdict = Verifier(_graph(ATTENTION), _options()).verify(_online())
    assert verdict.equivalent, verdict
    assert verdict.rows == 1 and verdict.sliced and verdict.batch == 4
    assert "of the first 1 rows of one batch slice" in str(verdict)
    wrong = Verifier(_graph(ATTENTION), _options()).verify(_online(scale="0.3"))
    assert not wrong.equivalent and wrong.counterexample is not None


def test_blocks_holding_several_batch_elements_are_tested_on_one() -> None:
    reference = _graph((DATA / "rows_decode.mlir").read_text())
    candidate = _graph((DATA / "rows_decode_split.mlir").read_text())
    # 4 heads per block: not separable slice by slice, but by rows with every argument cut
    assert separable_batch(reference) == 64 and separable_batch(candidate) is None
    rows = row_separable(candidate, frozenset({0, 1, 2}))
    assert rows is not None and rows.dim == 0
    verdict = Verifier(reference, _options()).verify(candidate)
    assert verdict.equivalent, verdict
    assert verdict.rows == 1 and "of the first 1 rows" in str(verdict)


def test_a_row_local_view_is_cut_with_its_rows() -> None:
    # every argument cut along the heads; K read through its transposed view
    candidate = _online()
    rows = row_separable(candidate, frozenset({0, 1, 2}))
    assert rows is not None and rows.dim == 0
    cut = first_rows(candidate, rows, 2)
    inputs = _random(candidate, 3)
    whole = np.asarray(evaluate(candidate, inputs, FloatDomain(np.float64))[0])
    part = np.asarray(evaluate(cut, [x[:2] for x in inputs], FloatDomain(np.float64))[0])
    np.testing.assert_allclose(part, whole[:2], rtol=1e-12)
    # a view whose dim 0 is not the tensor's own reads other heads' rows
    assert row_separable(_online(strides="[8, 1, 32]"), frozenset({0, 1, 2})) is None


def _nested(graph: Graph) -> Graph:
    """`graph` cut to its first row as long as it separates (as the verifier cuts it)."""
    rows = row_separable(graph)
    while rows is not None:
        graph = first_rows(graph, rows, 1)
        rows = row_separable(graph)
    return graph


@pytest.mark.parametrize(
    ("reference", "candidate", "q_row", "k_whole"),
    [
        # batch and heads merged by reshapes (T5): batch, then head, then query row
        ("rows_t5_attention.mlir", "rows_t5_attention_online.mlir", (1, 1, 1, 8), (1, 1, 32, 8)),
        # heads split by view and transpose (GPT-2): batch, then query row across the heads
        ("rows_heads.mlir", "rows_heads_online.mlir", (1, 1, 64), (1, 16, 64)),
    ],
)
def test_rows_move_through_reshapes_and_transposes(
    reference: str, candidate: str, q_row: tuple[int, ...], k_whole: tuple[int, ...]
) -> None:
    ref, cand = _graph((DATA / reference).read_text()), _graph((DATA / candidate).read_text())
    assert separable_batch(ref) is None  # not slice by slice: its reshapes change dim 0
    for graph in (ref, cand):
        rows = row_separable(graph)
        assert rows is not None and rows.dim == 0 and rows.batched == {0, 1, 2}
        one = _nested(graph)
        assert one.args[0].shape == q_row and one.args[1].shape == k_whole
        # the first row of the cut program is the first row of the whole one
        inputs = _random(graph, 4)
        whole = np.asarray(evaluate(graph, inputs, FloatDomain(np.float64))[0])
        cut = [
            x[tuple(slice(0, n) for n in t.shape)] for x, t in zip(inputs, one.args, strict=True)
        ]
        part = np.asarray(evaluate(one, cut, FloatDomain(np.float64))[0])
        np.testing.assert_allclose(part, whole[tuple(slice(0, n) for n in part.shape)], rtol=1e-12)
    verdict = Verifier(ref, _options()).verify(cand)
    assert verdict.equivalent and verdict.rows == 1, verdict


def test_a_head_split_candidate_that_mixes_heads_is_caught() -> None:
    ref = _graph((DATA / "rows_heads.mlir").read_text())
    # K's heads read in the wrong order: the view swaps head stride and dim stride
    text = (DATA / "rows_heads_online.mlir").read_text()
    wrong = text.replace(
        "view [2, 4, 16, 16] strides [1024, 16, 1, 64]",
        "view [2, 4, 16, 16] strides [1024, 1, 4, 64]",
        1,
    )
    assert wrong != text
    verdict = Verifier(ref, _options()).verify(_graph(wrong))
    assert not verdict.equivalent and verdict.counterexample is not None


def _gqa(tiled: bool = False) -> tuple[Graph, Graph]:
    """Grouped-query attention as exported (3 query heads per KV head) and its one launch
    found through the normalization (the KV heads a broadcast batch dim)."""
    from superoptimize.so_helpers import repeat_kv

    from mirage.dialects.hardware import SM_90
    from mirage.passes.superoptimize.normalize import normalize
    from mirage.passes.superoptimize.online import online_structure
    from mirage.passes.superoptimize.seed import parallelized

    program = _graph(repeat_kv(b=2, kv=2, g=3, s=32, d=8, tiled=tiled))
    norm = normalize(program)
    assert norm is not None
    structure = online_structure(norm.program)
    assert structure is not None
    fused = parallelized(norm.program, structure, SM_90)
    assert fused is not None
    return program, norm.restore(fused, SM_90)


def test_the_rows_of_grouped_heads_lie_past_them() -> None:
    # one batch element (1, 6 query heads, 32 queries, 8): the heads do not separate (a KV
    # head serves 3 of them), the queries do, the heads before them in every row
    program, _ = _gqa()
    rows = row_separable(program)
    assert rows is not None and rows.dim == 0
    one = first_rows(program, rows, 1)
    again = row_separable(one)
    assert again is not None and (again.dim, again.batch, again.lead) == (2, 32, (1, 6))
    assert again.batched == {0}  # the queries; K and V shared by every row


def test_grouped_query_attention_is_verified_on_one_query_row() -> None:
    program, candidate = _gqa()
    verifier = Verifier(program, _options())
    verdict = verifier.verify(candidate)
    assert verdict.equivalent and verdict.rows == 1, verdict
    part = next(iter(verifier.fingerprint._first_rows.values()))  # pyright: ignore[reportPrivateUsage]
    (deeper,) = part._first_rows.values()  # pyright: ignore[reportPrivateUsage]
    q = deeper.graph.args[0]
    assert q.shape == (1, 6, 1, 8)  # one query of every head of one batch element


def test_a_launch_that_pairs_the_heads_otherwise_is_caught_on_one_query_row() -> None:
    # the KV heads repeated as a whole (head h reads h % 2, not h // 3): another program
    program, _ = _gqa()
    _, wrong = _gqa(tiled=True)
    verdict = Verifier(program, _options()).verify(wrong)
    assert not verdict.equivalent and verdict.counterexample is not None
