"""Batch-separable programs: which programs compute every slice of dim 0 on its own, and
the verifier counting each slice as a test of the floor for stand-in rules (and only that)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import get_func, parse_module
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.equivalence.batch import separable_batch
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions


def _t(*shape: int) -> TensorType:
    return TensorType(shape, "f32")


X = _t(4, 8)


def _kernel(args: tuple[TensorType, ...], *ops: Op) -> Graph:
    """A kernel graph whose output is its last op's result."""
    return Graph(args, ops, (len(args) + len(ops) - 1,))


# --- kernel-level ops -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "op", "batch"),
    [
        ((X, X), make_op("mul", [0, 1], [X]), 4),
        ((X, _t(1, 8)), make_op("mul", [0, 1], [X]), None),  # a shared (broadcast) operand
        ((_t(1, 8),), make_op("exp", [0], [_t(1, 8)]), None),  # batch 1: nothing to gain
        ((_t(8),), make_op("exp", [0], [_t(8)]), 8),
        ((X,), make_op("mul_scalar", [0], [X], scalar=0.5), 4),
        ((X,), make_op("reduce_sum", [0], [_t(4, 1)], dim=1, size=1), 4),
        ((X,), make_op("reduce_max", [0], [_t(4, 2)], dim=1, size=2), 4),
        ((X,), make_op("reduce_sum", [0], [_t(1, 8)], dim=0, size=1), None),
        ((X,), make_op("reduce_sum", [0], [X], dim=0, size=4), None),  # conservative
        ((X,), make_op("rms_norm", [0], [X]), 4),
        ((_t(4),), make_op("rms_norm", [0], [_t(4)]), None),  # normalizes over dim 0
        ((X, X), make_op("concat", [0, 1], [_t(4, 16)], dim=1), 4),
        ((X, X), make_op("concat", [0, 1], [_t(8, 8)], dim=0), None),
        ((_t(4, 2, 3), _t(4, 3, 5)), make_op("matmul", [0, 1], [_t(4, 2, 5)]), 4),
        ((_t(4, 4), _t(4, 4)), make_op("matmul", [0, 1], [_t(4, 4)]), None),  # rows, not batch
        ((_t(4, 2, 3),), make_op("transpose", [0], [_t(4, 3, 2)], permutation=(0, 2, 1)), 4),
        ((_t(4, 4),), make_op("transpose", [0], [_t(4, 4)], permutation=(1, 0)), None),
        ((X,), make_op("reshape", [0], [_t(4, 2, 4)]), 4),
        ((X,), make_op("reshape", [0], [_t(8, 4)]), None),
        ((), make_op("constant", [], [X], value=1.0), None),
        ((X,), make_op("no_such_kind", [0], [X]), None),
    ],
)
def test_kernel_ops(args: tuple[TensorType, ...], op: Op, batch: int | None) -> None:
    assert separable_batch(_kernel(args, op)) == batch


def test_every_value_needs_the_batch_extent() -> None:
    # A constant shared by every slice, added after the fact: not separable (conservative).
    const = make_op("constant", [], [_t(1, 8)], value=2.0)
    assert separable_batch(_kernel((X,), const, make_op("add", [0, 1], [X]))) is None
    # A reduction over dim 0 mixed back into every slice.
    total = make_op("reduce_sum", [0], [_t(1, 8)], dim=0, size=1)
    assert separable_batch(_kernel((X,), total, make_op("add", [0, 1], [X]))) is None
    assert separable_batch(_kernel((X,), make_op("exp", [0], [X]), make_op("sqrt", [1], [X]))) == 4


# --- graph-defined ops ------------------------------------------------------------------


def _launch(
    arg: TensorType,
    out: TensorType,
    grid: tuple[int, int, int],
    loops: int,
    imap: tuple[int, ...],
    forloop_dim: int,
    tile: TensorType,
    omap: tuple[int, ...],
    post: tuple[Op, ...] = (),
) -> Graph:
    """x -> one launch: input iterator, accum_sum over the loop, `post` ops after the loop
    (on value 2 onwards), an output saver."""
    ops = (
        make_op("input", [0], [tile], imap=imap, forloop_dim=forloop_dim),  # 1
        make_op("accum_sum", [1], [tile]),  # 2
        *post,
    )
    last = 2 + len(post)
    saver = make_op("output", [last], [out], omap=omap)
    body = Graph((arg,), (*ops, saver), (last + 1,), loop_end=2)
    launch = make_op("graph", [0], [out], body, grid=grid, block=(128, 1, 1), forloop_range=loops)
    return _kernel((arg,), launch)


def test_launch_with_one_block_per_batch_element() -> None:
    # Grid x cuts dim 0, grid y dim 1 of the output, the loop walks dim 1 of the input.
    graph = _launch(X, X, (4, 2, 1), 2, (0, -1, -1), 1, _t(1, 4), (0, 1, -1))
    assert separable_batch(graph) == 4


def _mixing_tail(tile: TensorType, twice: TensorType) -> tuple[Op, ...]:
    """After the loop: the block's tile summed over dim 0 and copied twice along dim 0."""
    row = _t(1, *tile.shape[1:])
    return (
        make_op("reduce_sum", [2], [row], dim=0, size=1),  # 3
        make_op("concat", [3, 3], [twice], dim=0),  # 4
    )


def test_launch_that_loops_over_the_batch() -> None:
    # Two blocks, each accumulating two batch elements over the loop: out[2b] = out[2b+1]
    # = x[2b] + x[2b+1].
    post = (make_op("concat", [2, 2], [_t(2, 8)], dim=0),)
    graph = _launch(X, X, (2, 1, 1), 2, (0, -1, -1), 0, _t(1, 8), (0, -1, -1), post)
    assert separable_batch(graph) is None


def test_launch_whose_blocks_hold_several_batch_elements() -> None:
    graph = _launch(
        X, X, (2, 1, 1), 1, (0, -1, -1), -1, _t(2, 8), (0, -1, -1), _mixing_tail(_t(2, 8), _t(2, 8))
    )
    assert separable_batch(graph) is None


def test_launch_that_gives_every_block_the_whole_batch() -> None:
    graph = _launch(
        X, X, (4, 1, 1), 1, (-1, -1, -1), -1, X, (0, -1, -1), _mixing_tail(X, _t(1, 8))[:1]
    )
    assert separable_batch(graph) is None


def test_launch_cutting_dim_0_by_two_grid_dims() -> None:
    # Each block still gets one batch element (element 2x + y), but the rule wants dim 0
    # cut by exactly one grid dim (conservative).
    graph = _launch(X, X, (2, 2, 1), 1, (0, 0, -1), -1, _t(1, 8), (0, 0, -1))
    assert separable_batch(graph) is None


def test_launch_that_transposes_through_its_maps() -> None:
    # Block (x, y) reads element [x, y] and writes it to [y, x].
    sq = _t(4, 4)
    graph = _launch(sq, sq, (4, 4, 1), 1, (0, 1, -1), -1, _t(1, 1), (1, 0, -1))
    assert separable_batch(graph) is None


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "batch"),
    [("qknorm_b1", 2), ("qknorm_b8", 16), ("ntrans_b8", 64), ("gated_mlp", None), ("lora", None)],
)
def test_found_benchmarks(name: str, batch: int | None) -> None:
    module = parse_module((ROOT / "benchmarks" / "found" / f"{name}.mlir").read_text())
    for func in ("program", "ugraph"):
        assert separable_batch(graph_from_func(get_func(module, func))) == batch


# --- the verifier -----------------------------------------------------------------------

NO_FLOATS = VerifierOptions(stability=None)


def _relu_mul(y: TensorType = X) -> Graph:
    """relu(x) * y: relu has only a stand-in rule."""
    return _kernel((X, y), make_op("relu", [0], [X]), make_op("mul", [2, 1], [X]))


def test_separable_pair_counts_batch_slices_toward_the_unsound_floor() -> None:
    program = _relu_mul()
    candidate = _kernel((X, X), make_op("relu", [0], [X]), make_op("mul", [1, 2], [X]))
    verdict = Verifier(program, NO_FLOATS).verify(candidate)
    assert verdict.equivalent and not verdict.sound
    assert verdict.bound.tests_for(1e-12) < 10  # the floor decides the count
    assert (verdict.tests, verdict.batch, verdict.slices) == (10, 4, 40)  # ceil(40 / 4)
    assert "10 random tests (40 batch slices) in" in str(verdict)


def test_unsound_floor_is_whole_tests_unless_both_are_separable() -> None:
    # A shared (broadcast) second argument: the slices' inputs are not independent.
    shared = _relu_mul(_t(1, 8))
    verdict = Verifier(shared, NO_FLOATS).verify(shared)
    assert (verdict.tests, verdict.batch) == (40, 1)
    assert "batch slices" not in str(verdict)
    # An equivalent candidate that is not separable (transposes there and back).
    program = _relu_mul()
    xt = _t(8, 4)
    there_and_back = _kernel(
        (X, X),
        make_op("transpose", [0], [xt], permutation=(1, 0)),
        make_op("transpose", [2], [X], permutation=(1, 0)),
        make_op("relu", [3], [X]),
        make_op("mul", [4, 1], [X]),
    )
    assert separable_batch(there_and_back) is None
    verdict = Verifier(program, NO_FLOATS).verify(there_and_back)
    assert verdict.equivalent and (verdict.tests, verdict.batch) == (40, 1)


def test_sound_programs_keep_the_bound_count() -> None:
    program = _kernel((X, X), make_op("mul", [0, 1], [X]), make_op("exp", [2], [X]))
    verdict = Verifier(program, NO_FLOATS).verify(program)
    assert verdict.sound and verdict.batch == 4
    assert verdict.tests == verdict.bound.tests_for(1e-12)


def test_candidates_that_mix_batch_slices_are_rejected() -> None:
    program = _relu_mul()
    verifier = Verifier(program, NO_FLOATS)
    swapped = _kernel(  # relu(x with slices 1 and 2 swapped) * y
        (X, X),
        make_op("reshape", [0], [_t(2, 2, 8)]),  # 2
        make_op("transpose", [2], [_t(2, 2, 8)], permutation=(1, 0, 2)),
        make_op("reshape", [3], [X]),
        make_op("relu", [4], [X]),
        make_op("mul", [5, 1], [X]),
    )
    row = _t(1, 8)
    mixed = _kernel(  # relu(x) * y + sum of x over the batch
        (X, X),
        make_op("relu", [0], [X]),
        make_op("mul", [2, 1], [X]),
        make_op("reduce_sum", [0], [row], dim=0, size=1),
        make_op("add", [3, 4], [X]),
    )
    for candidate in (swapped, mixed):
        assert separable_batch(candidate) is None
        verdict = verifier.verify(candidate)
        assert not verdict.equivalent and verdict.counterexample is not None


def test_candidate_launch_that_moves_batch_elements_is_rejected() -> None:
    sq = _t(4, 4)
    program = _kernel((sq,), make_op("relu", [0], [sq]))
    transposing = _launch(sq, sq, (4, 4, 1), 1, (0, 1, -1), -1, _t(1, 1), (1, 0, -1))
    candidate = Graph(transposing.args, (*transposing.ops, make_op("relu", [1], [sq])), (2,))
    assert separable_batch(program) == 4 and separable_batch(candidate) is None
    verdict = Verifier(program, NO_FLOATS).verify(candidate)
    assert not verdict.equivalent and verdict.counterexample is not None
    # The same launch with matching maps is the identity: equivalent, in ceil(40 / 4) tests.
    identity = _launch(sq, sq, (4, 4, 1), 1, (0, 1, -1), -1, _t(1, 1), (0, 1, -1))
    candidate = Graph(identity.args, (*identity.ops, make_op("relu", [1], [sq])), (2,))
    verdict = Verifier(program, NO_FLOATS).verify(candidate)
    assert verdict.equivalent and (verdict.tests, verdict.batch) == (10, 4)
