"""Generation of block-graph structures and their parallelizations, on their own."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest
from superoptimize.so_helpers import build

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.pruning import Pruner
from mirage.passes.superoptimize.blockgen import BlockState, FinishedGraph
from mirage.passes.superoptimize.interfaces import KeepAll
from mirage.passes.superoptimize.kernelgen import (
    AddOp,
    GrowBlock,
    KernelNode,
    SearchLimits,
    SearchSpace,
    StartGraph,
)
from mirage.passes.superoptimize.op_order import KIND_ORDER
from mirage.passes.superoptimize.parallelize import instantiate, patterns
from mirage.passes.superoptimize.precision import stored_in
from mirage.passes.superoptimize.probes import divisors


def _rmsnorm_linear(b: KernelBuilder) -> None:
    x, w = b.input((4, 64)), b.input((64, 96))
    b.output(b.matmul(b.rms_norm(x), w))


def _attention(b: KernelBuilder) -> None:
    q, k, v = b.input((2, 8, 4)), b.input((2, 4, 32)), b.input((2, 32, 4))
    e = b.exp(b.matmul(q, k))
    b.output(b.matmul(b.div(e, b.reduce_sum(e, 2)), v))


def _structures(
    program: Graph, max_ops: int, final: bool, prune: bool = True
) -> list[FinishedGraph]:
    pruner = Pruner(program) if prune else KeepAll()
    space = SearchSpace(program, SearchLimits(1 if final else 2, max_ops, SM_90, 0), pruner)
    node = space.step(space.root(), StartGraph())
    assert node is not None and node.block_gen is not None
    gen = node.block_gen
    out: list[FinishedGraph] = []

    def walk(state: BlockState) -> None:
        for child in gen.children(state):
            if isinstance(child, FinishedGraph):
                out.append(child)
            else:
                walk(child)

    walk(BlockState())
    return out


def test_every_elementwise_kind_has_a_canonical_rank() -> None:
    assert set(ELEMENTWISE_KINDS) <= set(KIND_ORDER)


@pytest.mark.parametrize("program_fn", [_rmsnorm_linear, _attention])
def test_structures_are_distinct_and_verify(program_fn: Callable[[KernelBuilder], None]) -> None:
    program = build(program_fn)
    found = _structures(program, 7, final=False)
    assert found
    ops = [f.op for f in found]
    assert len(set(ops)) == len(ops), "a structure was generated twice"
    for op in ops:
        assert op.body is not None
        graph = Graph(
            program.args,
            (op,),
            tuple(range(len(program.args), len(program.args) + len(op.results))),
        )
        func_from_graph("structure", graph).verify()


def test_final_structures_give_the_output_shape() -> None:
    program = build(_rmsnorm_linear)
    found = _structures(program, 7, final=True)
    assert found
    assert all([t.shape for t in f.op.results] == [(4, 96)] for f in found)
    # The paper's Figure 3 structure is among them: accumulate X W and the rms of X.
    kinds = [sorted(o.kind for o in f.op.body.ops) for f in found if f.op.body is not None]
    assert (
        sorted(["input", "input", "matmul", "accum_sum", "accum_rms_last", "div", "output"])
        in kinds
    )


def test_canonical_order_breaks_symmetries_without_pruning() -> None:
    """Without the pruner, the generator still never makes the same structure twice."""
    program = build(_rmsnorm_linear)
    found = _structures(program, 6, final=False, prune=False)
    ops = [f.op for f in found]
    assert len(ops) > 50 and len(set(ops)) == len(ops)


def _extents(
    body: Graph, pattern_used: tuple[bool, ...], loop: bool
) -> list[tuple[int, int, int, int]]:
    """A few extents for the used partitioners: divisors (>= 2) of every cut dim."""
    del body
    choices = [[2, 4] if used else [1] for used in pattern_used] + [[2, 4] if loop else [1]]
    return [(a, b, c, d) for a, b, c, d in itertools.product(*choices)]


def _logical(op: Op, program: Graph, inputs: list[np.ndarray]) -> list[np.ndarray]:
    k = len(op.operands)
    graph = Graph(
        tuple(program.args[v] for v in op.operands),
        (Op(op.kind, tuple(range(k)), op.results, op.attrs, op.body),),
        tuple(range(k, k + len(op.results))),
    )
    return evaluate(graph, [inputs[v] for v in op.operands], FloatDomain(np.float64))


@pytest.mark.parametrize("program_fn", [_rmsnorm_linear, _attention])
def test_parallelizations_compute_what_the_structure_computes(
    program_fn: Callable[[KernelBuilder], None],
) -> None:
    """The layout rules' promise, checked literally: every parallelization (imaps,
    forloop dims, omaps, extents) of a structure evaluates to the structure's results;
    one with partial results sums back to them."""
    program = build(program_fn)
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(0.5, 1.5, size=t.shape) for t in program.args]
    found = _structures(program, 7, final=False)
    checked = partial_checked = 0
    for f in found[:: max(1, len(found) // 25)]:
        op = f.op
        body = op.body
        assert body is not None
        want = _logical(op, program, inputs)
        types = [program.args[v] for v in op.operands]
        for pattern in patterns(body)[:6]:
            for gx, gy, gz, loops in _extents(body, pattern.grid_used, pattern.loop_used)[:3]:
                new = instantiate(op, pattern, types, (gx, gy, gz), loops, (128, 1, 1))
                if new is None:
                    continue
                k = len(op.operands)
                graph = Graph(
                    tuple(types),
                    (Op("graph", tuple(range(k)), new.results, new.attrs, new.body),),
                    tuple(range(k, k + len(new.results))),
                )
                func_from_graph("p", graph).verify()
                got = evaluate(graph, [inputs[v] for v in op.operands], FloatDomain(np.float64))
                for j, (g, w) in enumerate(zip(got, want, strict=True)):
                    for d in sorted(pattern.partial_dims[j] if pattern.partial_dims else ()):
                        tile = w.shape[d]
                        g = g.reshape(
                            *g.shape[:d], g.shape[d] // tile, tile, *g.shape[d + 1 :]
                        ).sum(axis=d)
                        partial_checked += 1
                    assert np.allclose(g, w, rtol=1e-9, atol=1e-12)
                checked += 1
    assert checked > 20
    if program_fn is _attention:
        assert partial_checked > 0


def test_divisors() -> None:
    assert divisors(12) == [1, 2, 3, 4, 6, 12]


def test_parallelizations_of_a_sum_of_partials_compute_the_structure() -> None:
    """Kernel 2 of split-KV as a structure (sum the partials laid side by side, divide);
    its parallelizations include walking the partials with the loop."""
    from mirage.dialects.ugraph.graph import TensorType, make_op

    no = (-1, -1, -1)
    num, den = TensorType((2, 8, 16), "f32"), TensorType((2, 8, 4), "f32")
    red_num, red_den = TensorType((2, 8, 4), "f32"), TensorType((2, 8, 1), "f32")
    ops = (
        make_op("input", [0], [num], imap=no, forloop_dim=-1),
        make_op("input", [1], [den], imap=no, forloop_dim=-1),
        make_op("reduce_sum", [2], [red_num], dim=2, size=4),
        make_op("reduce_sum", [3], [red_den], dim=2, size=1),
        make_op("accum_sum", [4], [red_num]),
        make_op("accum_sum", [5], [red_den]),
        make_op("div", [6, 7], [red_num]),
        make_op("output", [8], [red_num], omap=no),
    )
    body = Graph((num, den), ops, (9,), 6)
    op = make_op(
        "graph", [0, 1], [red_num], body=body, grid=(1, 1, 1), block=(128, 1, 1), forloop_range=1
    )
    program = Graph((num, den), (op,), (2,))
    rng = np.random.default_rng(1)
    inputs = [rng.uniform(0.5, 1.5, size=t.shape) for t in program.args]
    want = evaluate(program, inputs, FloatDomain(np.float64))[0]
    walked = 0
    for pattern in patterns(body):
        if pattern.partial_grid:
            continue  # partial outputs are other tensors (checked above)
        for extents in _extents(body, pattern.grid_used, pattern.loop_used):
            new = instantiate(op, pattern, [num, den], extents[:3], extents[3], (128, 1, 1))
            if new is None:
                continue
            got = evaluate(Graph((num, den), (new,), (2,)), inputs, FloatDomain(np.float64))[0]
            assert np.allclose(got, want, rtol=1e-12)
            walked += pattern.fdims[0] == 2 and extents[3] == 4
    assert walked  # the loop walked the four partials, one per iteration


def _relu_mlp(b: KernelBuilder) -> None:
    x, w1, w2 = b.input((16, 64)), b.input((64, 96)), b.input((96, 64))
    b.output(b.matmul(b.relu(b.matmul(x, w1)), w2))


def _first_kernels(program: Graph, max_ops: int) -> list[AddOp]:
    """The graph ops that the search may place first when two kernels are allowed."""
    space = SearchSpace(program, SearchLimits(2, max_ops, SM_90, 0), Pruner(program))
    start = space.step(space.root(), StartGraph())
    assert start is not None
    out: list[AddOp] = []

    def walk(node: KernelNode) -> None:
        for move in space.children(node):
            if isinstance(move, AddOp):
                out.append(move)
            elif isinstance(move, GrowBlock):
                child = space.step(node, move)
                if child is not None:
                    walk(child)

    walk(start)
    return out


def test_a_first_kernel_may_write_a_whole_value_in_the_programs_storage_type() -> None:
    # relu(X W1) as the epilogue of the first kernel, the second matmul reading it: the
    # first kernel writes whole values (not only partial sums), stored in f16 as the program
    # stores its own results, so that the matmul reading them runs on tensor cores
    moves = _first_kernels(build(_relu_mlp), 6)
    epilogues = [
        m
        for m in moves
        if m.op.body is not None
        and [o.kind for o in m.op.body.ops]
        == ["input", "input", "matmul", "accum_sum", "relu", "output"]
    ]
    assert epilogues
    assert all(m.deferred for m in epilogues)
    assert all(t.dtype == "f16" for m in epilogues for t in m.op.results)


def test_row_statistics_written_for_a_later_kernel_stay_in_f32() -> None:
    # the rms of X's rows, written by the first kernel for the second to divide by, stays
    # f32 (programs keep their row sums and norms in f32); the product X W is stored in f16
    program = build(_rmsnorm_linear)
    stored = [m.op for m in _first_kernels(program, 5) if m.deferred and m.op.body is not None]
    saved: dict[str, set[str]] = {}
    for op in stored:
        assert op.body is not None
        body = op.body
        producer = body.producers()
        for out, result in zip(body.outputs, op.results, strict=True):
            saver = body.ops[producer[out]]
            kind = body.ops[producer[saver.operands[0]]].kind
            saved.setdefault(kind, set()).add(result.dtype)
        assert stored_in(op, "f16") == op  # stored already: unchanged
    assert saved["accum_rms_last"] == {"f32"}
    assert saved["accum_sum"] == {"f16"}
