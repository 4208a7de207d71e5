"""Long programs cut into segments: where the cuts fall, and that the pieces put back
together compute the program."""

from __future__ import annotations

import itertools

from superoptimize.so_helpers import benchmark_program, build, equal_in_float64, only_func

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
