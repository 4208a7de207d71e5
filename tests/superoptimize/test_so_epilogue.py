"""Linear layers with a bias: the seed adds the bias after the loop, read once per block,
so that the loop may walk the contraction; the search then finds one launch with a loop
over k where a kernel without one does not fit."""

from __future__ import annotations

from superoptimize.so_helpers import equal_in_float64, search

from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.graph import Graph, TensorType, make_op
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.superoptimize.parallelize import parallelizations
from mirage.passes.superoptimize.seed import epilogue_ops, fused_structure


def _linear_bias(m: int, k: int, n: int, dtype: str = "f16") -> Graph:
    x, w, b = TensorType((m, k), dtype), TensorType((k, n), dtype), TensorType((1, n), dtype)
    y = TensorType((m, n), dtype)
    ops = (make_op("matmul", [0, 1], [y]), make_op("add", [3, 2], [y]))
    return Graph((x, w, b), ops, (4,))


def test_the_seed_adds_the_bias_after_the_loop() -> None:
    program = _linear_bias(8, 64, 32, "f32")
    assert epilogue_ops(program) == {1}
    op = fused_structure(program)
    assert op is not None and op.body is not None
    body = op.body
    kinds = [o.kind for o in body.ops]
    assert kinds == ["input", "input", "matmul", "accum_sum", "input", "add", "output"]
    assert body.loop_end == 4
    bias = body.ops[4]
    assert bias.operands == (2,) and bias.int_attr("forloop_dim") == -1
    whole = fused_structure(program, epilogue=False)
    assert whole is not None and whole.body is not None
    assert [o.kind for o in whole.body.ops][-3:] == ["add", "accum_sum", "output"]


def test_what_feeds_the_loop_or_reads_a_loop_input_stays_in_it() -> None:
    t = TensorType((8, 8), "f32")
    # exp(x @ w) @ v: the exp feeds a contraction, which runs in the loop
    chain = Graph(
        (t, t, t),
        (
            make_op("matmul", [0, 1], [t]),
            make_op("exp", [3], [t]),
            make_op("matmul", [4, 2], [t]),
        ),
        (5,),
    )
    assert epilogue_ops(chain) == frozenset()
    # (x @ w) + x: x is read in the loop already
    residual = Graph((t, t), (make_op("matmul", [0, 1], [t]), make_op("add", [2, 0], [t])), (3,))
    assert epilogue_ops(residual) == frozenset()
    # exp(b) + x @ w: exp(b) reads no contraction, but what reads it runs after the loop
    bias = Graph(
        (t, t, t),
        (
            make_op("exp", [2], [t]),
            make_op("matmul", [0, 1], [t]),
            make_op("add", [4, 3], [t]),
        ),
        (5,),
    )
    assert epilogue_ops(bias) == {0, 2}
    op = fused_structure(bias)
    assert op is not None and op.body is not None
    assert [o.kind for o in op.body.ops[op.body.loop_end :]] == ["input", "exp", "add", "output"]
    func_from_graph("f", Graph(bias.args, (op,), (3,))).verify()
    # exp(b) alone, an output of its own: it gains nothing after the loop
    apart = Graph(
        (t, t, t),
        (make_op("exp", [2], [t]), make_op("matmul", [0, 1], [t])),
        (3, 4),
    )
    assert epilogue_ops(apart) == frozenset()


def test_the_seed_parallelizes_with_a_loop_over_k() -> None:
    # x 16x8192 f16 is 256 KiB: no block holds whole rows of it, so only a loop over k fits
    program = _linear_bias(16, 8192, 256)
    op = fused_structure(program)
    assert op is not None
    found = parallelizations(op, list(program.args), SM_90, partial=False)
    assert found and found[0].op.int_attr("forloop_range") > 1
    whole = fused_structure(program, epilogue=False)
    assert whole is not None
    assert not parallelizations(whole, list(program.args), SM_90, partial=False)


def _nn_linear(m: int, k: int, n: int) -> Graph:
    """x @ W.T + b as nn.Linear computes it (W n x k, b 1 x n), f16."""
    x, w, b = TensorType((m, k), "f16"), TensorType((n, k), "f16"), TensorType((1, n), "f16")
    wt, y = TensorType((k, n), "f16"), TensorType((m, n), "f16")
    ops = (
        make_op("transpose", [1], [wt], permutation=(1, 0)),
        make_op("matmul", [0, 3], [y]),
        make_op("add", [4, 2], [y]),
    )
    return Graph((x, w, b), ops, (5,))


def _one_launch_reading_after_the_loop(best: Graph) -> None:
    """One launch, a loop over k, and exactly one input read once after it (the bias)."""
    assert [o.kind for o in best.ops] == ["graph"]
    launch = best.ops[0]
    assert launch.int_attr("forloop_range") > 1
    body = launch.body
    assert body is not None
    post = body.ops[body.loop_end :]
    assert [o.kind for o in post if o.kind == "input"] == ["input"]
    assert all(o.int_attr("forloop_dim") == -1 for o in post if o.kind == "input")


def test_the_search_finds_one_launch_with_a_loop_over_k() -> None:
    # as in the test above, only a kernel with a loop over k fits; it beats the program's
    # transpose, matmul and add
    program = _nn_linear(16, 8192, 256)
    result = search(program, max_kernel_ops=1, max_block_ops=7, time_budget=60.0)
    assert result.ranked
    best = result.ranked[0].graph
    _one_launch_reading_after_the_loop(best)
    assert result.ranked[0].seconds < result.baseline
    func_from_graph("found", best).verify()
    assert equal_in_float64(program, best)


def test_the_enumeration_alone_reads_the_bias_after_the_loop() -> None:
    # relu(x @ w + b): against the program's three launches, one with the loop over k and
    # the bias read once after it is the fastest; with the bias added in the loop a block
    # must hold whole rows of x, which only a slower tiling does
    x, w, b = (TensorType(s, "f16") for s in ((16, 4096), (4096, 1024), (1, 1024)))
    y = TensorType((16, 1024), "f16")
    ops = (make_op("matmul", [0, 1], [y]), make_op("add", [3, 2], [y]), make_op("relu", [4], [y]))
    program = Graph((x, w, b), ops, (5,))
    result = search(program, max_kernel_ops=1, max_block_ops=8, seed_with_program=False)
    assert result.complete and result.ranked
    best = result.ranked[0].graph
    _one_launch_reading_after_the_loop(best)
    assert result.ranked[0].seconds < result.baseline
    func_from_graph("found", best).verify()
    assert equal_in_float64(program, best)
