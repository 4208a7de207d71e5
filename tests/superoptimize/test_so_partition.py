"""Long programs cut into segments: where the cuts fall, and that the pieces put back
together compute the program."""

from __future__ import annotations

import itertools

from superoptimize.so_helpers import (
    benchmark_program,
    build,
    equal_in_float64,
    only_func,
    search,
)

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.superoptimize.partition import compose, segments, subprogram


def _qknorm_small():  # type: ignore[no-untyped-def]
    shapes = ((2, 16, 64), (2, 64, 512), (2, 512, 64))
    return graph_from_func(only_func(benchmark_program("qknorm", shapes)))


def test_short_programs_are_not_cut() -> None:
    program = build(lambda b: b.output(b.exp(b.input((8, 8)))))
    assert segments(program) is None


def test_qknorm_is_cut_between_the_norms_and_the_attention() -> None:
    program = _qknorm_small()
    assert len(program.ops) == 11
    cut = segments(program)
    assert cut is not None
    assert [(s.start, s.stop) for s in cut] == [(0, 6), (6, 11)]
    first, second = cut
    # the norms read Q and K and hand both normalized tensors on
    assert first.inputs == (0, 1)
    assert [program.type_of(v).shape for v in first.outputs] == [(2, 16, 64), (2, 64, 512)]
    # the attention reads them and V
    assert set(second.inputs) == {*first.outputs, 2}
    assert second.outputs == program.outputs


def test_segments_hold_at_most_the_maximum_and_cover_the_program_in_order() -> None:
    def chain(b: KernelBuilder) -> None:
        x = b.input((8, 64))
        for _ in range(10):
            x = b.exp(x)
        b.output(x)

    program = build(chain)
    for most in (2, 3, 4, 6):
        cut = segments(program, most)
        assert cut is not None
        assert cut[0].start == 0 and cut[-1].stop == len(program.ops)
        assert all(a.stop == b.start for a, b in itertools.pairwise(cut))
        assert all(0 < s.stop - s.start <= most for s in cut)
        # a chain crosses each cut with one tensor: as few segments as the maximum allows
        assert len(cut) == -(-len(program.ops) // most)


def test_the_subprograms_put_back_together_compute_the_program() -> None:
    program = _qknorm_small()
    cut = segments(program, 4)
    assert cut is not None and len(cut) >= 3
    parts = [(s, subprogram(program, s)) for s in cut]
    for _, sub in parts:
        assert len(sub.ops) <= 4
    whole = compose(program, parts)
    assert whole.output_types == program.output_types
    assert equal_in_float64(program, whole)
    assert whole == program  # nothing replaced: the same ops in the same order


def _transposed_attention(b: KernelBuilder) -> None:
    """Attention whose keys arrive as (keys, d) and are transposed first, as torch's
    k.transpose(-1, -2) imports."""
    q, k, v = b.input((2, 16, 32)), b.input((2, 64, 32)), b.input((2, 64, 32))
    e = b.exp(b.matmul(q, b.transpose(k, (0, 2, 1))))
    b.output(b.matmul(b.div(e, b.reduce_sum(e, 2)), v))


def test_segments_are_cut_where_searchability_changes() -> None:
    program = build(_transposed_attention)
    assert program.ops[0].kind == "transpose"
    cut = segments(program)  # six ops: short, but the transpose is cut off
    assert cut is not None
    assert [(s.start, s.stop) for s in cut] == [(0, 1), (1, 6)]
    # a long program too: no segment mixes the transpose with searchable ops
    for most in (2, 3, 4):
        cut = segments(program, most)
        assert cut is not None
        assert cut[0].stop == 1


def test_a_segment_of_ops_the_search_cannot_generate_is_left_with_a_remark() -> None:
    program = build(_transposed_attention)
    # the program as it is (normalization would read the keys transposed in place: below)
    result = search(program, max_kernel_ops=1, max_block_ops=9, time_budget=60.0, normalize=False)
    assert any("(transpose) not searched" in r for r in result.remarks), result.remarks
    assert result.ranked
    best = result.ranked[0].graph
    # the transpose stays; the attention after it is one kernel
    assert [op.kind for op in best.ops] == ["transpose", "graph"]
    assert equal_in_float64(program, best)


def test_a_transposed_input_is_read_in_place_by_the_kernel_after_normalization() -> None:
    program = build(_transposed_attention)
    result = search(program, max_kernel_ops=1, max_block_ops=9, time_budget=60.0)
    assert result.ranked
    best = result.ranked[0].graph
    assert [op.kind for op in best.ops] == ["graph"]
    body = best.ops[0].body
    assert body is not None
    assert any(op.kind == "input" and op.viewed for op in body.ops)
    assert equal_in_float64(program, best)


def test_a_program_of_layout_ops_only_is_not_searched() -> None:
    def transpose(b: KernelBuilder) -> None:
        b.output(b.transpose(b.input((8, 16)), (1, 0)))

    program = build(transpose)
    result = search(program)
    assert not result.ranked and result.complete
    assert result.remarks and "not searched" in result.remarks[0]
