"""Layouts of block values: which grid dims and loop cut them, and what stays partial."""

from __future__ import annotations

import pytest

from mirage.passes.superoptimize.partitions import (
    GRID_X,
    GRID_Y,
    LOOP,
    Layout,
    Meaningless,
    accumulate,
    compute_layout,
    input_layout,
    omap_choices,
)


def test_matmul_over_the_loop_is_partial_and_the_sum_completes_it() -> None:
    x = input_layout(2, (-1, -1, -1), 1)  # X (m, k): the loop walks k
    w = input_layout(2, (1, -1, -1), 0)  # W (k, n): grid x splits n, the loop walks k
    mm = compute_layout("matmul", {}, [(x, (16, 64)), (w, (64, 48))])
    assert mm.dims == (frozenset(), frozenset({GRID_X}))
    assert mm.partial == frozenset({(LOOP, "sum")})
    acc = accumulate("accum_sum", mm)
    assert acc.layout.partial == frozenset() and not acc.loop_invariant_input
    assert omap_choices(acc.layout, (4, 1, 1)) == [(1, -1, -1)]


def test_contraction_cut_differently_is_meaningless() -> None:
    x = input_layout(2, (-1, -1, -1), 1)
    w = input_layout(2, (0, -1, -1), -1)  # k split by the grid on one side only
    with pytest.raises(Meaningless):
        compute_layout("matmul", {}, [(x, (16, 64)), (w, (64, 48))])


def test_nonlinear_op_of_a_partial_sum_is_meaningless() -> None:
    partial = Layout((frozenset(), frozenset()), frozenset({(LOOP, "sum")}))
    with pytest.raises(Meaningless):
        compute_layout("exp", {}, [(partial, (4, 4))])
    assert compute_layout("mul_scalar", {"scalar": 2.0}, [(partial, (4, 4))]) == partial


@pytest.mark.parametrize("form", ["add_scalar", "sub_scalar", "pow_scalar"])
def test_an_affine_immediate_form_takes_complete_values_only(form: str) -> None:
    # (p1 + c) + (p2 + c) is not (p1 + p2) + c; exp(-m) x + c keeps no factor exp(-m)
    complete = input_layout(2, (0, -1, -1), -1)
    assert compute_layout(form, {"scalar": 2.0}, [(complete, (4, 4))]) == complete
    partial = Layout((frozenset(), frozenset()), frozenset({(LOOP, "sum")}))
    with pytest.raises(Meaningless):
        compute_layout(form, {"scalar": 2.0}, [(partial, (4, 4))])
    scaled = Layout((frozenset(), frozenset()), stabilizer=frozenset({(LOOP, "scaled")}))
    with pytest.raises(Meaningless):
        compute_layout(form, {"scalar": 2.0}, [(scaled, (4, 4))])


def test_division_by_a_constant_passes_partials_and_the_softmax_factor() -> None:
    partial = Layout((frozenset(), frozenset()), frozenset({(LOOP, "sum")}))
    assert compute_layout("div_scalar", {"scalar": 2.0}, [(partial, (4, 4))]) == partial
    scaled = Layout((frozenset(), frozenset()), stabilizer=frozenset({(LOOP, "scaled")}))
    assert compute_layout("div_scalar", {"scalar": 2.0}, [(scaled, (4, 4))]) == scaled


def test_elementwise_of_tiles_of_different_rows_is_meaningless() -> None:
    a = input_layout(2, (0, -1, -1), -1)
    b = input_layout(2, (-1, 0, -1), -1)
    with pytest.raises(Meaningless):
        compute_layout("add", {}, [(a, (4, 8)), (b, (4, 8))])
    # a per-row scalar broadcasts over a tile of the same rows
    row = Layout((frozenset({GRID_X}), frozenset()))
    out = compute_layout("div", {}, [(a, (4, 8)), (row, (4, 1))])
    assert out.dims == (frozenset({GRID_X}), frozenset())


def test_split_k_leaves_partials_that_the_omap_lays_side_by_side() -> None:
    q = input_layout(3, (0, -1, -1), -1)
    k = input_layout(3, (0, 2, -1), 2)  # keys split over grid y and the loop
    s = compute_layout("matmul", {}, [(q, (1, 8, 4)), (k, (1, 4, 4))])
    e = compute_layout("exp", {}, [(s, (1, 8, 4))])
    z = accumulate("accum_sum_last", e).layout
    assert z.partial == frozenset({(GRID_Y, "sum")})
    assert omap_choices(z, (2, 2, 1)) == [(0, 2, -1)]


def test_accumulators() -> None:
    sliced = input_layout(2, (-1, -1, -1), 1)
    assert accumulate("accum_rms_last", sliced).layout.dims == (frozenset(), frozenset())
    with pytest.raises(Meaningless):  # summing loop slices of a dim
        accumulate("accum_sum", sliced)
    other = input_layout(2, (-1, -1, -1), 0)
    with pytest.raises(Meaningless):
        accumulate("accum_rms_last", other)
    invariant = input_layout(2, (0, -1, -1), -1)
    assert accumulate("accum_sum", invariant).loop_invariant_input
    with pytest.raises(Meaningless):  # every block along x writing the same tile
        omap_choices(Layout((frozenset(), frozenset())), (4, 1, 1))


def test_reducing_loop_slices_of_side_by_side_partials_leaves_a_sum_over_the_loop() -> None:
    """Summing split-KV partials (laid side by side in dim 2) one slice per iteration:
    each iteration's tile reduced to the partials' width is one addend."""
    num = input_layout(3, (0, 1, -1), 2)
    red = compute_layout("reduce_sum", {"dim": 2, "size": 64}, [(num, (1, 16, 64))])
    assert red.partial == frozenset({(LOOP, "sum")}) and red.dims[2] == frozenset()
    assert accumulate("accum_sum", red).layout.partial == frozenset()
