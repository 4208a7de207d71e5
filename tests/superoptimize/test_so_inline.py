"""Tile-local producer kernels inlined into the kernels that read them (`inline.py`): the
qknorm μGraph of the Mirage paper normalizes the Q and K tiles inside the attention
kernel; producers whose work a consumer's tile cannot do stay where they are."""

from __future__ import annotations

from pathlib import Path

from superoptimize.so_helpers import benchmark_program, build, only_func
from xdsl.parser import Parser

from mirage.dialects import shapes
from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90, target_for
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.optimize.plan import plan_graph_op
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.explore import Found, UnitResult
from mirage.passes.superoptimize.fusion import fuse_program
from mirage.passes.superoptimize.inline import inline_producers, producer_recipe
from mirage.passes.superoptimize.lowered import lowered_facts, lowering_arch
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions
from mirage.tools.registry import make_context

QKNORM_SHAPES = ((2, 32, 16), (2, 16, 128), (2, 128, 16))

# The norms kernel writes normalized Q and K; the attention kernel reads them back.
QKNORM_TWO_KERNELS = (Path(__file__).parent / "data" / "qknorm_two_kernels.mlir").read_text()

FUSED_SCALE = """
%6 = thread.fuse(%4) : (tensor<1x1x64xf32>) -> tensor<1x1x64xf32> {
^bb0(%s: f32):
  %m = thread.mul_scalar %s, 6.250000e-02 : f32
  %r = thread.sqrt %m : f32
  thread.yield %r : f32
}
"""
"""The norms kernel's `mul_scalar` and `sqrt` of K's sum of squares as one thread-level
chain."""

NORM_OPS = {"rms_norm", "square", "reduce_sum", "mul_scalar", "sqrt", "div"}


def _parse(text: str) -> Graph:
    return graph_from_func(only_func(Parser(make_context(), text).parse_module()))


def _qknorm_program() -> Graph:
    return graph_from_func(only_func(benchmark_program("qknorm", QKNORM_SHAPES)))


def _with_fused_scale(text: str) -> str:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "block.mul_scalar %4" in line)
    assert "block.sqrt %5" in lines[at + 1]
    return "\n".join([*lines[:at], *FUSED_SCALE.strip().splitlines(), *lines[at + 2 :]])


def _body_kinds(graph: Graph, kernel: int) -> list[str]:
    body = graph.ops[kernel].body
    assert body is not None
    return [op.kind for op in body.ops]


def _thread_kinds(graph: Graph, kernel: int) -> set[str]:
    """Block op kinds of a kernel, with the kinds inside its thread-level chains."""
    body = graph.ops[kernel].body
    assert body is not None
    kinds = {op.kind for op in body.ops}
    for op in body.ops:
        if op.body is not None:
            kinds |= {o.kind for o in op.body.ops}
    return kinds


def test_qknorm_norms_move_into_the_attention_kernel() -> None:
    program = _qknorm_program()
    verifier = Verifier(program)
    two = _parse(QKNORM_TWO_KERNELS)
    assert verifier.verify(two).equivalent

    one = inline_producers(two)
    assert one is not None
    assert len(one.ops) == len(two.ops) - 1
    assert verifier.verify(one).equivalent
    assert set(_body_kinds(one, 0)) >= NORM_OPS
    # the attention kernel now loads Q, K and V, not the normalized tensors
    assert sorted(one.ops[0].operands) == [0, 1, 2]
    # nothing left to inline
    assert inline_producers(one) is None


def test_the_inlined_norms_keep_the_matmul_on_tensor_cores() -> None:
    one = inline_producers(_parse(QKNORM_TWO_KERNELS))
    assert one is not None
    op = one.ops[0]
    body = op.body
    assert body is not None
    norm = next(o for o in body.ops if o.kind == "rms_norm")
    assert norm.results[0].dtype == "f16"  # as the attention kernel read it
    plan = plan_graph_op(
        body,
        op.ints_attr("grid"),
        op.ints_attr("block"),
        op.int_attr("forloop_range"),
        target_for(lowering_arch(SM_90)),
    )
    assert plan.matmuls and all(mm.tensor_core for mm in plan.matmuls.values())
    assert lowered_facts(op, SM_90) is not None


def test_the_search_verifies_the_inlined_form_of_what_it_finds() -> None:
    program = _qknorm_program()
    options = SearchOptions(time_budget=10.0, workers=1, target=SM_90)
    search = Search(program, options, PrunerFactory(None), Verifier(program))
    two = fuse_program(_parse(QKNORM_TWO_KERNELS))
    found = Found(program_cost(two, SM_90).seconds, repr(two), two)
    search._take(UnitResult((), [found], {}, True))  # pyright: ignore[reportPrivateUsage]
    one = [f for f in search.found.values() if len(f.graph.ops) == 1]
    assert len(one) == 1
    # the cost model ranks it; whichever way, it is verified like any candidate
    ranked = search._finish_verification()  # pyright: ignore[reportPrivateUsage]
    assert one[0] in ranked and search.verified[one[0].text]


def test_fused_bodies_are_inlined_too() -> None:
    # Candidates reach the inliner with their elementwise chains fused (thread.fuse).
    two = _parse(_with_fused_scale(QKNORM_TWO_KERNELS))
    assert "fuse" in _body_kinds(two, 0)
    one = inline_producers(two)
    assert one is not None and len(one.ops) == 1
    assert NORM_OPS - {"mul_scalar", "sqrt"} <= set(_body_kinds(one, 0))
    assert {"mul_scalar", "sqrt"} <= _thread_kinds(one, 0)
    assert Verifier(_qknorm_program()).verify(one).equivalent
    assert lowered_facts(fuse_program(one).ops[0], SM_90) is not None


# --- small programs over X: 2x32x64 ------------------------------------------------------

X = (2, 32, 64)
ROWS = (0, 1, -1)
"""grid x cuts the batch, grid y the rows: a tile holds whole rows."""
COLUMNS = (0, 2, -1)
"""grid y cuts the last dim: a tile holds half rows."""


def _type(shape: tuple[int, ...], dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def _kernel(
    result: str,
    kind: str,
    operands: list[str],
    imap: tuple[int, int, int],
    loops: int = 1,
    accumulator: str = "accum_sum",
) -> str:
    """`result` = `kind` of the X-shaped f16 `operands`, each block on its tile (grid 2x2,
    tiles cut by `imap`, saved with the same map), through `accumulator`."""
    grid = (2, 2, 1)
    tile = shapes.tile_shape(X, imap, -1, grid, loops)
    full, piece, acc = _type(X, "f16"), _type(tile, "f16"), _type(tile, "f32")
    args = ", ".join(f"%a{i}: {full}" for i in range(len(operands)))
    lines = [
        f"%{result} = kernel.graph({', '.join(operands)}) grid [2, 2, 1] block [128, 1, 1] "
        f"forloop {loops} : ({', '.join([full] * len(operands))}) -> {full} {{",
        f"^bb0({args}):",
        f"  %acc = block.for_loop : {acc} {{",
    ]
    imap_text = ", ".join(map(str, imap))
    for i in range(len(operands)):
        lines.append(f"    %t{i} = block.input %a{i} imap [{imap_text}] : {full} -> {piece}")
    tiles = ", ".join(f"%t{i}" for i in range(len(operands)))
    lines += [
        f"    %c = block.{kind} {tiles} : {', '.join([piece] * len(operands))} -> {acc}",
        f"    %r = block.{accumulator} %c : {acc} -> {acc}",
        f"    block.yield %r : {acc}",
        "  }",
        f"  %out = block.output %acc omap [{imap_text}] : {acc} -> {full}",
        f"  block.return %out : {full}",
        "}",
    ]
    return "\n".join(lines)


def _graph(kernels: list[str], outputs: list[str]) -> Graph:
    full = _type(X, "f16")
    return _parse(
        "\n".join(
            [
                f"func.func @ugraph(%x: {full}) -> ({', '.join([full] * len(outputs))}) {{",
                *kernels,
                f"func.return {', '.join(f'%{o}' for o in outputs)} : "
                f"{', '.join([full] * len(outputs))}",
                "}",
            ]
        )
    )


def _norm_then_exp(b: KernelBuilder) -> None:
    b.output(b.exp(b.rms_norm(b.input(X, "f16", "x"))))


def test_a_consumer_tile_that_holds_whole_rows_takes_the_norm() -> None:
    program = build(_norm_then_exp)
    graph = _graph(
        [_kernel("y", "rms_norm", ["%x"], ROWS), _kernel("z", "exp", ["%y"], ROWS)], ["z"]
    )
    assert Verifier(program).verify(graph).equivalent
    inlined = inline_producers(graph)
    assert inlined is not None and len(inlined.ops) == 1
    assert _body_kinds(inlined, 0) == ["input", "rms_norm", "exp", "accum_sum", "output"]
    assert Verifier(program).verify(inlined).equivalent


def test_a_consumer_tile_that_splits_the_normalized_dim_is_left_alone() -> None:
    program = build(_norm_then_exp)
    graph = _graph(
        [_kernel("y", "rms_norm", ["%x"], ROWS), _kernel("z", "exp", ["%y"], COLUMNS)], ["z"]
    )
    assert Verifier(program).verify(graph).equivalent
    assert producer_recipe(graph, 0, 0) is not None  # the norm itself is tile-local
    assert inline_producers(graph) is None


def test_a_producer_whose_own_tile_splits_the_normalized_dim_is_not_a_recipe() -> None:
    # Each block normalizes half rows: not the program, and nothing a consumer may copy.
    graph = _graph(
        [_kernel("y", "rms_norm", ["%x"], COLUMNS), _kernel("z", "exp", ["%y"], ROWS)], ["z"]
    )
    assert not Verifier(build(_norm_then_exp)).verify(graph).equivalent
    assert producer_recipe(graph, 0, 0) is None
    assert inline_producers(graph) is None


def test_a_producer_with_a_loop_of_several_iterations_is_left_alone() -> None:
    # The max over two iterations of one loop-invariant tile is that tile: still the
    # program, but only one-iteration producers are inlined.
    program = build(_norm_then_exp)
    graph = _graph(
        [
            _kernel("y", "rms_norm", ["%x"], ROWS, loops=2, accumulator="accum_max"),
            _kernel("z", "exp", ["%y"], ROWS),
        ],
        ["z"],
    )
    assert Verifier(program).verify(graph).equivalent
    assert inline_producers(graph) is None
    one_iteration = _graph(
        [
            _kernel("y", "rms_norm", ["%x"], ROWS, accumulator="accum_max"),
            _kernel("z", "exp", ["%y"], ROWS),
        ],
        ["z"],
    )
    assert inline_producers(one_iteration) is not None


def test_a_producer_that_another_kernel_still_reads_is_kept() -> None:
    def program_fn(b: KernelBuilder) -> None:
        y = b.rms_norm(b.input(X, "f16", "x"))
        b.output(b.add(b.exp(y), y))

    program = build(program_fn)
    graph = _graph(
        [
            _kernel("y", "rms_norm", ["%x"], ROWS),
            _kernel("e", "exp", ["%y"], ROWS),
            # reads y in half rows: the norm cannot move in here
            _kernel("z", "add", ["%e", "%y"], COLUMNS),
        ],
        ["z"],
    )
    assert Verifier(program).verify(graph).equivalent
    inlined = inline_producers(graph)
    assert inlined is not None
    assert [op.kind for op in inlined.ops] == ["graph"] * 3
    assert _body_kinds(inlined, 0) == _body_kinds(graph, 0)  # the norm kernel stays
    assert inlined.ops[1].operands == (0,)  # the exp kernel loads x and normalizes it
    assert "rms_norm" in _body_kinds(inlined, 1)
    assert inlined.ops[2].operands == (2, 1)  # the add kernel still loads y
    assert Verifier(program).verify(inlined).equivalent


def test_a_producer_whose_result_is_a_program_output_is_kept() -> None:
    def program_fn(b: KernelBuilder) -> None:
        y = b.rms_norm(b.input(X, "f16", "x"))
        b.output(y, b.exp(y))

    program = build(program_fn)
    graph = _graph(
        [_kernel("y", "rms_norm", ["%x"], ROWS), _kernel("z", "exp", ["%y"], ROWS)],
        ["y", "z"],
    )
    assert Verifier(program).verify(graph).equivalent
    inlined = inline_producers(graph)
    assert inlined is not None and len(inlined.ops) == 2
    assert inlined.ops[1].operands == (0,)
    assert Verifier(program).verify(inlined).equivalent


def test_a_producer_of_several_inputs_gives_each_its_own_iterator() -> None:
    def program_fn(b: KernelBuilder) -> None:
        x, w = b.input(X, "f16", "x"), b.input(X, "f16", "w")
        b.output(b.exp(b.add(x, w)))

    full = _type(X, "f16")
    graph = _parse(
        "\n".join(
            [
                f"func.func @ugraph(%x: {full}, %w: {full}) -> {full} {{",
                _kernel("y", "add", ["%x", "%w"], ROWS),
                _kernel("z", "exp", ["%y"], COLUMNS),
                f"func.return %z : {full}",
                "}",
            ]
        )
    )
    inlined = inline_producers(graph)
    assert inlined is not None and len(inlined.ops) == 1
    assert inlined.ops[0].operands == (0, 1)
    assert _body_kinds(inlined, 0) == ["input", "input", "add", "exp", "accum_sum", "output"]
    assert Verifier(build(program_fn)).verify(inlined).equivalent
