"""Large programs searched at a small member of their shape family (`family.proxy_member`):
what the small member's search finds is carried back to the program's shapes and verified
there before it is taken."""

from __future__ import annotations

from superoptimize.so_helpers import benchmark_program, build, only_func

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.family import program_elements, proxy_member
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions

ROWS, K, N = 16, 2048, 256


def _norm_linear(b: KernelBuilder) -> None:
    x, w = b.input((ROWS, K), "f16"), b.input((K, N), "f16")
    b.output(b.matmul(b.rms_norm(x), w))


def test_the_small_member_keeps_small_extents_and_the_order_of_large_ones() -> None:
    program = build(_norm_linear)
    small = proxy_member(program)
    assert small is not None
    (x, w) = small.args
    # 16 stays; 256 < 2048 become 64 < 96, in that order: distinct extents stay distinct
    assert x.shape == (16, 96) and w.shape == (96, 64)
    assert small.output_types[0].shape == (16, 64)
    assert [op.kind for op in small.ops] == [op.kind for op in program.ops]
    assert program_elements(small) < program_elements(program) / 50
    assert proxy_member(small) is None  # its own small member: none smaller


def test_extents_up_to_sixteen_and_unit_dims_stay() -> None:
    program = build(lambda b: b.output(b.exp(b.input((1, 16, 4096), "f32"))))
    small = proxy_member(program)
    assert small is not None and small.args[0].shape == (1, 16, 64)
    assert proxy_member(build(lambda b: b.output(b.exp(b.input((8, 16), "f32"))))) is None


def test_a_program_whose_ops_are_built_for_its_shapes_has_no_small_member() -> None:
    program = build(lambda b: b.output(b.reshape(b.input((64, 64), "f32"), (4096,))))
    assert proxy_member(program) is None


def _search(proxy_elements: int) -> tuple[Search, object]:
    program = build(_norm_linear)
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    options = SearchOptions(
        time_budget=20.0, workers=1, target=SM_90, keep=1, proxy_elements=proxy_elements
    )
    search = Search(program, options, PrunerFactory(None), verifier)
    return search, search.run()


def test_a_large_program_is_searched_at_its_small_member_and_verified_at_its_own_shapes() -> None:
    search, result = _search(proxy_elements=1)
    program = search.program
    assert any("small member of its shape family" in r for r in result.remarks)  # type: ignore[attr-defined]
    (best,) = result.ranked  # type: ignore[attr-defined]
    assert best.graph.args == program.args
    assert len(best.graph.ops) == 1 and best.graph.ops[0].kind == "graph"
    # about what the search at the program's own shapes finds: the small member's rows fit
    # one pass, so forms that only a loop has (the norm's statistics accumulated over it,
    # accum_rms_last) are not met there, and its structure is carried back as it is
    _, own = _search(proxy_elements=0)
    (mine,) = own.ranked  # type: ignore[attr-defined]
    assert len(mine.graph.ops) == 1 and mine.graph.ops[0].kind == "graph"
    assert best.graph.ops[0].int_attr("forloop_range") == mine.graph.ops[0].int_attr(
        "forloop_range"
    )
    assert best.seconds <= 1.05 * mine.seconds
    # verified at the program's own shapes, by the search and again here
    assert "equivalent" in best.verdict
    assert Verifier(program).verify(best.graph).equivalent
    # the small member's search is a segment of its own in the report
    assert search.record.segments and "[small member]" in search.record.segments[0].record.name


def test_below_the_limit_the_program_is_searched_at_its_own_shapes() -> None:
    _, result = _search(proxy_elements=0)
    assert not any("small member" in r for r in result.remarks)  # type: ignore[attr-defined]


def test_a_structure_found_without_a_loop_walks_a_long_contraction_at_large_shapes() -> None:
    from mirage.passes.superoptimize.family import retile

    # (a norm's row must stay whole in its block: there the structure does not carry)
    def silu_linear(k: int) -> object:
        def f(b: KernelBuilder) -> None:
            x, w = b.input((ROWS, k), "f32"), b.input((k, 64), "f32")
            b.output(b.matmul(b.silu(x), w))

        return build(f)

    small = silu_linear(96)
    verifier = Verifier(small, VerifierOptions(stability=SEARCH_OPTIONS))
    options = SearchOptions(time_budget=10.0, workers=1, target=SM_90, keep=3, proxy_elements=0)
    result = Search(small, options, PrunerFactory(None), verifier).run()
    unlooped = [
        r.graph
        for r in result.ranked
        if any(op.kind == "graph" and op.int_attr("forloop_range") == 1 for op in r.graph.ops)
    ]
    assert unlooped
    large = silu_linear(65536)  # a row of x alone is 256 KiB: no block holds a whole one
    carried = retile(unlooped[0], large, SM_90)  # type: ignore[arg-type]
    assert carried is not None
    assert any(op.kind == "graph" and op.int_attr("forloop_range") > 1 for op in carried.ops)
    assert Verifier(large).verify(carried).equivalent  # type: ignore[arg-type]


def test_a_small_members_candidate_that_does_not_carry_back_is_not_found() -> None:
    # the whole SwiGLU MLP in one kernel is the cheapest at small shapes, and needs every
    # block to hold all of the hidden dim: at the program's shapes it does not exist
    def mlp(hidden: int, inner: int) -> object:
        def f(b: KernelBuilder) -> None:
            x = b.input((16, hidden), "f16")
            wg, wu = b.input((hidden, inner), "f16"), b.input((hidden, inner), "f16")
            wd = b.input((inner, hidden), "f16")
            b.output(b.matmul(b.mul(b.silu(b.matmul(x, wg)), b.matmul(x, wu)), wd))

        return build(f)

    small, large = mlp(64, 96), mlp(4096, 11008)
    verifier = Verifier(small, VerifierOptions(stability=SEARCH_OPTIONS))  # type: ignore[arg-type]
    options = SearchOptions(time_budget=30.0, workers=1, target=SM_90, keep=8, proxy_elements=0)
    free = Search(small, options, PrunerFactory(None), verifier).run()  # type: ignore[arg-type]
    assert any(len(r.graph.ops) == 1 for r in free.ranked)
    carried = Search(small, options, PrunerFactory(None), verifier, carry=large).run()  # type: ignore[arg-type]
    assert carried.ranked
    from mirage.passes.superoptimize.family import retile

    for r in carried.ranked:
        assert retile(r.graph, large, SM_90) is not None  # type: ignore[arg-type]


def test_attention_searched_at_its_small_member_still_splits_its_keys() -> None:
    """A split-KV pair does not carry back from the small member (its first kernel's key
    split is no pattern of the layout rules): it is built at the program's own shapes
    beside the carried-back candidates, and wins there for few rows over many keys."""
    shapes = ((1, 8, 8), (1, 8, 16384), (1, 16384, 8))
    program = graph_from_func(only_func(benchmark_program("gqa", shapes)))
    verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
    options = SearchOptions(
        time_budget=30.0,
        workers=1,
        target=SM_90,
        keep=3,
        proxy_elements=1,
        max_kernel_ops=2,
        max_block_ops=10,
    )
    result = Search(program, options, PrunerFactory(None), verifier).run()
    assert any("small member of its shape family" in r for r in result.remarks)
    best = result.ranked[0].graph
    assert [op.kind for op in best.ops] == ["graph", "graph"]
    assert max(r.shape[-1] for r in best.ops[0].results) > 8  # partial results per key slice
    assert Verifier(program).verify(best).equivalent
