"""Block- and thread-level ops inside small kernel.graphs, parsed from IR text and evaluated,
against numpy that walks every block and every loop iteration literally."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from dialect_programs import (
    POSITIVE_ONLY,
    REFERENCE,
    Array,
    Shape,
    assemble_literally,
    blocks,
    full_omap,
    ints,
    run_text,
    sample,
    tensor,
    tile_of,
)

from mirage.dialects import shapes
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.semantics import FloatDomain

Block = tuple[int, int, int]


def launch(
    args: Sequence[Shape],
    grid: Sequence[int],
    loops: int,
    loop_body: str,
    yields: Sequence[tuple[str, Shape]],
    post: str,
    outputs: Sequence[tuple[str, Shape, Sequence[int]]],
    *,
    types: dict[str, str] | None = None,
) -> str:
    """A function of one kernel.graph. Device tensors are %A0, %A1, ... in the body, the
    loop's results %acc#0, %acc#1, ...; `outputs` are (value, tile shape, omap)."""
    dtype = (types or {}).get
    arg_types = [tensor(s) for s in args]
    fulls = [shapes.saved_shape(tile, omap, grid) for _, tile, omap in outputs]
    out_types = [tensor(f, dtype("out", "f32")) for f in fulls]
    acc_types = [tensor(s, dtype(f"acc{i}", "f32")) for i, (_, s) in enumerate(yields)]
    sig = f"({', '.join(arg_types)}) -> ({', '.join(out_types)})"
    params = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
    body_args = ", ".join(f"%A{i}: {t}" for i, t in enumerate(arg_types))
    operands = ", ".join(f"%arg{i}" for i in range(len(args)))
    acc_names = ", ".join(v for v, _ in yields)
    lines = [
        f"func.func @f({params}) -> ({', '.join(out_types)}) {{",
        f"  %y:{len(outputs)} = kernel.graph({operands}) grid {ints(grid)} block [128, 1, 1] "
        f"forloop {loops} : {sig} {{",
        f"  ^bb0({body_args}):",
        f"    %acc:{len(yields)} = block.for_loop : {', '.join(acc_types)} {{",
        *("      " + line.strip() for line in loop_body.strip().splitlines()),
        f"      block.yield {acc_names} : {', '.join(acc_types)}",
        "    }",
        *("    " + line.strip() for line in post.strip().splitlines() if line.strip()),
    ]
    for i, (value, tile, omap) in enumerate(outputs):
        tile_type = tensor(tile, dtype(f"tile{i}", "f32"))
        lines.append(
            f"    %o{i} = block.output {value} omap {ints(omap)} : {tile_type} -> {out_types[i]}"
        )
    outs = ", ".join(f"%o{i}" for i in range(len(outputs)))
    results = ", ".join(f"%y#{i}" for i in range(len(outputs)))
    lines += [
        f"    block.return {outs} : {', '.join(out_types)}",
        "  }",
        f"  func.return {results} : {', '.join(out_types)}",
        "}",
    ]
    return "\n".join(lines)


def per_block(grid: Sequence[int], f: Callable[[Block], Array], omap: Sequence[int]) -> Array:
    return assemble_literally({b: f(b) for b in blocks(grid)}, omap, grid)


# --- input iterators and output savers --------------------------------------------------------

GRID = (2, 3, 2)
LOOPS = 2
ALL_IMAPS = [
    m
    for m in itertools.product([-1, 0, 1, 2], repeat=3)
    if len([d for d in m if d != -1]) == len({d for d in m if d != -1})
]


@pytest.mark.parametrize("fdim", [-1, 0, 1, 2])
@pytest.mark.parametrize("imap", ALL_IMAPS, ids=lambda m: "imap" + "_".join(map(str, m)))
def test_input_iterator(imap: tuple[int, int, int], fdim: int) -> None:
    """Every imap over a 3-D grid with every forloop dim, incl. a dim cut by grid and loop."""
    shape = (12, 12, 12)
    tile = shapes.tile_shape(shape, imap, fdim, GRID, LOOPS)
    omap = full_omap(imap, 3)
    x_t, t = tensor(shape), tensor(tile)
    text = launch(
        [shape],
        GRID,
        LOOPS,
        f"""
        %t = block.input %A0 imap {ints(imap)} forloop_dim {fdim} : {x_t} -> {t}
        %s = block.accum_sum %t : {t} -> {t}""",
        [("%s", tile)],
        "",
        [("%acc#0", tile, omap)],
    )
    x = sample(np.random.default_rng(0), shape)
    (y,) = run_text(text, [x])

    def block_sum(b: Block) -> Array:
        return sum(tile_of(x, imap, fdim, GRID, LOOPS, b, i) for i in range(LOOPS))  # type: ignore[return-value]

    np.testing.assert_allclose(y, per_block(GRID, block_sum, omap), rtol=1e-13)


@pytest.mark.parametrize(
    ("grid", "imap", "omap"),
    [
        ((2, 1, 1), (-1, -1, -1), (1, -1, -1)),  # every block saves a copy, side by side
        ((2, 1, 1), (-1, -1, -1), (0, -1, -1)),
        ((1, 2, 3), (-1, 0, -1), (-1, 0, 1)),  # grid z replicates the input, saves copies
        ((1, 2, 3), (-1, 1, 0), (-1, 0, 1)),  # saved transposed relative to the input
        ((2, 1, 1), (0, -1, -1), (0, -1, 1)),  # extent-1 grid dims may be mapped or not
        ((2, 2, 1), (1, 0, -1), (0, 1, -1)),
    ],
)
def test_output_saver(
    grid: tuple[int, int, int], imap: tuple[int, int, int], omap: tuple[int, int, int]
) -> None:
    shape = (6, 4)
    tile = shapes.tile_shape(shape, imap, -1, grid, 1)
    text = launch(
        [shape],
        grid,
        1,
        f"""
        %t = block.input %A0 imap {ints(imap)} : {tensor(shape)} -> {tensor(tile)}
        %s = block.accum_sum %t : {tensor(tile)} -> {tensor(tile)}""",
        [("%s", tile)],
        "",
        [("%acc#0", tile, omap)],
    )
    x = sample(np.random.default_rng(1), shape)
    (y,) = run_text(text, [x])
    want = per_block(grid, lambda b: tile_of(x, imap, -1, grid, 1, b, 0), omap)
    np.testing.assert_array_equal(y, want)


# --- accumulators -------------------------------------------------------------------------------

ACC_SHAPES = [(8, 16, 2, 4), (6, 9, 3, 3), (4, 8, 1, 1), (16, 32, 4, 8)]
"""(rows, columns, grid x, loop range): grid x cuts the rows, the loop walks the columns."""


def _accumulator_reference(kind: str, tiles: list[Array]) -> Array:
    stacked = np.stack(tiles)  # (iteration, rows, columns)
    if kind == "accum_sum":
        return stacked.sum(axis=0)
    if kind == "accum_max":
        return stacked.max(axis=0)
    per_row = stacked.transpose(1, 0, 2).reshape(stacked.shape[1], -1)  # rows x everything
    if kind == "accum_sum_last":
        return per_row.sum(axis=1, keepdims=True)
    if kind == "accum_mean_last":
        return per_row.mean(axis=1, keepdims=True)
    if kind == "accum_rms_last":
        return np.sqrt((per_row**2).mean(axis=1, keepdims=True))
    assert kind == "accum_rescale"
    scales = [t.max(axis=1, keepdims=True) for t in tiles]
    top = np.max(np.stack(scales), axis=0)
    return sum(t * np.exp(s - top) for t, s in zip(tiles, scales, strict=True))  # type: ignore[return-value]


@pytest.mark.parametrize("rows_cols_grid_loops", ACC_SHAPES, ids=str)
@pytest.mark.parametrize(
    "kind",
    [
        "accum_sum",
        "accum_max",
        "accum_sum_last",
        "accum_mean_last",
        "accum_rms_last",
        "accum_rescale",
    ],
)
def test_accumulator(kind: str, rows_cols_grid_loops: tuple[int, int, int, int]) -> None:
    rows, cols, gx, loops = rows_cols_grid_loops
    grid = (gx, 1, 1)
    tile = (rows // gx, cols // loops)
    result = (tile[0], 1) if kind.endswith("_last") else tile
    t, r = tensor(tile), tensor(result)
    scale = tensor((tile[0], 1))
    accumulate = (
        f"%s = block.accum_rescale %v, %m : {t}, {scale} -> {r}"
        if kind == "accum_rescale"
        else f"%s = block.{kind} %v : {t} -> {r}"
    )
    text = launch(
        [(rows, cols)],
        grid,
        loops,
        f"""
        %t = block.input %A0 imap [0, -1, -1] forloop_dim 1 : {tensor((rows, cols))} -> {t}
        %v = block.mul_scalar %t, 1.5 : {t} -> {t}
        %m = block.reduce_max %v dim 1 : {t} -> {scale}
        {accumulate}""",
        [("%s", result)],
        "",
        [("%acc#0", result, (0, -1, -1))],
    )
    x = sample(np.random.default_rng(2), (rows, cols))
    (y,) = run_text(text, [x])

    def block_value(b: Block) -> Array:
        tiles = [1.5 * tile_of(x, (0, -1, -1), 1, grid, loops, b, i) for i in range(loops)]
        return _accumulator_reference(kind, tiles)

    np.testing.assert_allclose(y, per_block(grid, block_value, (0, -1, -1)), rtol=1e-12)


def test_accumulator_kinds_cover_the_model() -> None:
    from mirage.dialects.block import ACCUMULATOR_OPS
    from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS

    tested = {p.values[0] for p in _parametrized(test_accumulator, "kind")}
    assert tested == set(ACCUMULATOR_KINDS) == {op.name.partition(".")[2] for op in ACCUMULATOR_OPS}


def _parametrized(test: Callable[..., None], name: str) -> list[pytest.ParameterSet]:
    for mark in getattr(test, "pytestmark", []):
        if mark.name == "parametrize" and mark.args[0] == name:
            return [pytest.param(v) for v in mark.args[1]]
    raise KeyError(name)


def test_loop_invariant_input_counts_every_iteration() -> None:
    shape = (4, 6)
    t, one = tensor(shape), tensor((4, 1))
    text = launch(
        [shape],
        (1, 1, 1),
        3,
        f"""
        %t = block.input %A0 imap [-1, -1, -1] : {t} -> {t}
        %s = block.accum_sum %t : {t} -> {t}
        %m = block.accum_mean_last %t : {t} -> {one}""",
        [("%s", shape), ("%m", (4, 1))],
        "",
        [("%acc#0", shape, (-1, -1, -1)), ("%acc#1", (4, 1), (-1, -1, -1))],
    )
    x = sample(np.random.default_rng(3), shape)
    s, m = run_text(text, [x])
    np.testing.assert_allclose(s, 3 * x, rtol=1e-14)
    np.testing.assert_allclose(m, x.mean(axis=1, keepdims=True), rtol=1e-13)


# --- online softmax -----------------------------------------------------------------------------


def _attention_text(s: int, n: int, d: int, dv: int, gx: int, loops: int) -> str:
    rows, keys = s // gx, n // loops
    q, kt, v = tensor((rows, d)), tensor((d, keys)), tensor((keys, dv))
    sc, col, out = tensor((rows, keys)), tensor((rows, 1)), tensor((rows, dv))
    return launch(
        [(s, d), (d, n), (n, dv)],
        (gx, 1, 1),
        loops,
        f"""
        %q = block.input %A0 imap [0, -1, -1] : {tensor((s, d))} -> {q}
        %k = block.input %A1 imap [-1, -1, -1] forloop_dim 1 : {tensor((d, n))} -> {kt}
        %v = block.input %A2 imap [-1, -1, -1] forloop_dim 0 : {tensor((n, dv))} -> {v}
        %s = block.matmul %q, %k : {q}, {kt} -> {sc}
        %m = block.reduce_max %s dim 1 : {sc} -> {col}
        %z = block.sub %s, %m : {sc}, {col} -> {sc}
        %e = block.exp %z : {sc} -> {sc}
        %num = block.matmul %e, %v : {sc}, {v} -> {out}
        %den = block.reduce_sum %e dim 1 : {sc} -> {col}
        %an = block.accum_rescale %num, %m : {out}, {col} -> {out}
        %ad = block.accum_rescale %den, %m : {col}, {col} -> {col}""",
        [("%an", (rows, dv)), ("%ad", (rows, 1))],
        f"%o = block.div %acc#0, %acc#1 : {out}, {col} -> {out}",
        [("%o", (rows, dv), (0, -1, -1))],
    )


def _softmax_weighted_sum(qm: Array, km: Array, vm: Array) -> Array:
    scores = qm @ km
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (w / w.sum(axis=1, keepdims=True)) @ vm


@pytest.mark.parametrize(
    ("s", "n", "d", "dv", "gx", "loops"),
    [(8, 16, 4, 4, 2, 4), (6, 12, 3, 5, 3, 3), (4, 8, 8, 2, 1, 1), (16, 64, 8, 8, 4, 16)],
)
def test_accum_rescale_is_softmax_weighted_sum(
    s: int, n: int, d: int, dv: int, gx: int, loops: int
) -> None:
    rng = np.random.default_rng(4)
    qm, km, vm = rng.normal(size=(s, d)) * 2, rng.normal(size=(d, n)), rng.normal(size=(n, dv))
    (y,) = run_text(_attention_text(s, n, d, dv, gx, loops), [qm, km, vm])
    np.testing.assert_allclose(y, _softmax_weighted_sum(qm, km, vm), rtol=1e-10, atol=1e-12)


def test_online_softmax_in_float32() -> None:
    rng = np.random.default_rng(5)
    qm, km, vm = rng.normal(size=(8, 4)), rng.normal(size=(4, 16)), rng.normal(size=(16, 4))
    (y,) = run_text(_attention_text(8, 16, 4, 4, 2, 4), [qm, km, vm], FloatDomain(np.float32))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, _softmax_weighted_sum(qm, km, vm), rtol=1e-4, atol=1e-5)


# --- every elementwise kind in the loop, after it, and in thread.fuse --------------------------

KINDS = list(ELEMENTWISE_KINDS)


def _two_inputs(kind: str, rng: np.random.Generator, shape: Shape) -> tuple[Array, Array]:
    positive = kind in POSITIVE_ONLY
    return sample(rng, shape, positive), sample(rng, shape, positive)


@pytest.mark.parametrize("kind", KINDS)
def test_elementwise_in_loop_and_after(kind: str) -> None:
    shape, grid, loops = (8, 12), (2, 1, 1), 3
    tile = (4, 4)
    t = tensor(tile)
    binary = ELEMENTWISE_KINDS[kind].arity == 2
    in_loop = (
        f"%k = block.{kind} %tx, %ty : {t}, {t} -> {t}"
        if binary
        else (f"%k = block.{kind} %tx : {t} -> {t}")
    )
    after = (
        f"%p = block.{kind} %acc#1, %acc#2 : {t}, {t} -> {t}"
        if binary
        else (f"%p = block.{kind} %acc#1 : {t} -> {t}")
    )
    text = launch(
        [shape, shape],
        grid,
        loops,
        f"""
        %tx = block.input %A0 imap [0, -1, -1] forloop_dim 1 : {tensor(shape)} -> {t}
        %ty = block.input %A1 imap [0, -1, -1] forloop_dim 1 : {tensor(shape)} -> {t}
        {in_loop}
        %s0 = block.accum_sum %k : {t} -> {t}
        %s1 = block.accum_sum %tx : {t} -> {t}
        %s2 = block.accum_sum %ty : {t} -> {t}""",
        [("%s0", tile), ("%s1", tile), ("%s2", tile)],
        after,
        [("%acc#0", tile, (0, -1, -1)), ("%p", tile, (0, -1, -1))],
    )
    x, y = _two_inputs(kind, np.random.default_rng(6), shape)
    got_loop, got_after = run_text(text, [x, y])
    ref = REFERENCE[kind]
    args = (lambda a, b: ref(a, b)) if binary else (lambda a, b: ref(a))

    def tiles(b: Block, src: Array) -> list[Array]:
        return [tile_of(src, (0, -1, -1), 1, grid, loops, b, i) for i in range(loops)]

    def in_loop_ref(b: Block) -> Array:
        return sum(args(p, q) for p, q in zip(tiles(b, x), tiles(b, y), strict=True))  # type: ignore[return-value]

    def after_ref(b: Block) -> Array:
        return args(sum(tiles(b, x)), sum(tiles(b, y)))

    want_loop = per_block(grid, in_loop_ref, (0, -1, -1))
    np.testing.assert_allclose(got_loop, want_loop, rtol=1e-12, atol=1e-14)
    want_after = per_block(grid, after_ref, (0, -1, -1))
    np.testing.assert_allclose(got_after, want_after, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind", KINDS)
def test_thread_fuse(kind: str) -> None:
    """A fused chain in the loop (kind, then mul_scalar) on a broadcast pair of tiles."""
    shape, grid, loops = (8, 12), (2, 1, 1), 3
    tile, row = (4, 4), (1, 4)
    t, r = tensor(tile), tensor(row)
    binary = ELEMENTWISE_KINDS[kind].arity == 2
    op = f"thread.{kind} %p, %q : f32" if binary else f"thread.{kind} %p : f32"
    text = launch(
        [shape, (2, 12)],
        grid,
        loops,
        f"""
        %tx = block.input %A0 imap [0, -1, -1] forloop_dim 1 : {tensor(shape)} -> {t}
        %ty = block.input %A1 imap [0, -1, -1] forloop_dim 1 : {tensor((2, 12))} -> {r}
        %f = thread.fuse(%tx, %ty) : ({t}, {r}) -> {t} {{
        ^bb1(%p: f32, %q: f32):
          %z = {op}
          %w = thread.mul_scalar %z, -2.0 : f32
          thread.yield %w : f32
        }}
        %s = block.accum_sum %f : {t} -> {t}""",
        [("%s", tile)],
        "",
        [("%acc#0", tile, (0, -1, -1))],
    )
    rng = np.random.default_rng(7)
    positive = kind in POSITIVE_ONLY
    x, g = sample(rng, shape, positive), sample(rng, (2, 12), positive)
    (got,) = run_text(text, [x, g])
    ref = REFERENCE[kind]

    def block_value(b: Block) -> Array:
        total = np.zeros(tile)
        for i in range(loops):
            p = tile_of(x, (0, -1, -1), 1, grid, loops, b, i)
            q = np.broadcast_to(tile_of(g, (0, -1, -1), 1, grid, loops, b, i), tile)
            total += -2.0 * (ref(p, q) if binary else ref(p))
        return total

    want = per_block(grid, block_value, (0, -1, -1))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_thread_fuse_after_loop_with_two_results() -> None:
    shape, grid, loops = (6, 8), (3, 1, 1), 2
    tile, col = (2, 4), (2, 1)
    t, c = tensor(tile), tensor(col)
    text = launch(
        [shape],
        grid,
        loops,
        f"""
        %t = block.input %A0 imap [0, -1, -1] forloop_dim 1 : {tensor(shape)} -> {t}
        %s = block.accum_sum %t : {t} -> {t}
        %n = block.accum_sum_last %t : {t} -> {c}""",
        [("%s", tile), ("%n", col)],
        f"""
        %u, %v = thread.fuse(%acc#0, %acc#1) : ({t}, {c}) -> ({t}, {t}) {{
        ^bb1(%p: f32, %q: f32):
          %d = thread.div %p, %q : f32
          %e = thread.exp %d : f32
          thread.yield %d, %e : f32, f32
        }}""",
        [("%u", tile, (0, -1, -1)), ("%v", tile, (0, -1, -1))],
    )
    x = sample(np.random.default_rng(8), shape, positive=True)
    u, v = run_text(text, [x])

    def ratio(b: Block) -> Array:
        tiles = [tile_of(x, (0, -1, -1), 1, grid, loops, b, i) for i in range(loops)]
        return sum(tiles) / sum(tl.sum(axis=1, keepdims=True) for tl in tiles)  # type: ignore[return-value]

    want = per_block(grid, ratio, (0, -1, -1))
    np.testing.assert_allclose(u, want, rtol=1e-13)
    np.testing.assert_allclose(v, np.exp(want), rtol=1e-13)


# --- matmul with batch dims, reductions, and ops after the loop -------------------------------


@pytest.mark.parametrize(
    ("batch", "m", "k", "n", "gx", "loops"), [(4, 6, 8, 4, 2, 2), (2, 3, 12, 6, 1, 3)]
)
def test_batched_matmul_reductions_and_post_loop_ops(
    batch: int, m: int, k: int, n: int, gx: int, loops: int
) -> None:
    grid = (gx, 1, 1)
    b, kk, h = batch // gx, k // loops, n // 2
    xt, wt, vt = tensor((b, m, kk)), tensor((b, kk, n)), tensor((b, n, n))
    mt, rt = tensor((b, m, n)), tensor((b, m, h))
    cat, red = tensor((b, m, n + h)), tensor((b, m // 3, n + h))
    text = launch(
        [(batch, m, k), (batch, k, n), (batch, n, n)],
        grid,
        loops,
        f"""
        %x = block.input %A0 imap [0, -1, -1] forloop_dim 2 : {tensor((batch, m, k))} -> {xt}
        %w = block.input %A1 imap [0, -1, -1] forloop_dim 1 : {tensor((batch, k, n))} -> {wt}
        %v = block.input %A2 imap [0, -1, -1] : {tensor((batch, n, n))} -> {vt}
        %mm = block.matmul %x, %w : {xt}, {wt} -> {mt}
        %rs = block.reduce_sum %mm dim 2 size {h} : {mt} -> {rt}
        %a0 = block.accum_sum %mm : {mt} -> {mt}
        %a1 = block.accum_max %rs : {rt} -> {rt}
        %a2 = block.accum_max %v : {vt} -> {vt}""",
        [("%a0", (b, m, n)), ("%a1", (b, m, h)), ("%a2", (b, n, n))],
        f"""
        %nrm = block.rms_norm %acc#0 : {mt} -> {mt}
        %c = block.concat %nrm, %acc#1 dim 2 : {mt}, {rt} -> {cat}
        %q = block.reduce_max %c dim 1 size {m // 3} : {cat} -> {red}
        %ms = block.mul_scalar %q, -1.5 : {red} -> {red}
        %pm = block.matmul %acc#0, %acc#2 : {mt}, {vt} -> {mt}""",
        [("%ms", (b, m // 3, n + h), (0, -1, -1)), ("%pm", (b, m, n), (0, -1, -1))],
    )
    rng = np.random.default_rng(9)
    xm, wm, vm = sample(rng, (batch, m, k)), sample(rng, (batch, k, n)), sample(rng, (batch, n, n))
    got_ms, got_pm = run_text(text, [xm, wm, vm])

    def reduce_to(a: Array, dim: int, size: int, fn: Callable[..., Array]) -> Array:
        picked = [np.take(a, range(j, a.shape[dim], size), axis=dim) for j in range(size)]
        return np.stack([fn(p, axis=dim) for p in picked], axis=dim)

    def block_values(blk: Block) -> tuple[Array, Array]:
        xs = [tile_of(xm, (0, -1, -1), 2, grid, loops, blk, i) for i in range(loops)]
        ws = [tile_of(wm, (0, -1, -1), 1, grid, loops, blk, i) for i in range(loops)]
        mms = [np.einsum("bik,bkj->bij", p, q) for p, q in zip(xs, ws, strict=True)]
        a0 = sum(mms)
        a1 = np.max(np.stack([reduce_to(mm, 2, h, np.sum) for mm in mms]), axis=0)
        a2 = tile_of(vm, (0, -1, -1), -1, grid, loops, blk, 0)  # the max of equal tiles
        nrm = a0 / np.sqrt((a0**2).mean(axis=2, keepdims=True))
        c = np.concatenate([nrm, a1], axis=2)
        return -1.5 * reduce_to(c, 1, m // 3, np.max), np.einsum("bik,bkj->bij", a0, a2)

    want_ms = per_block(grid, lambda blk: block_values(blk)[0], (0, -1, -1))
    want_pm = per_block(grid, lambda blk: block_values(blk)[1], (0, -1, -1))
    np.testing.assert_allclose(got_ms, want_ms, rtol=1e-12)
    np.testing.assert_allclose(got_pm, want_pm, rtol=1e-11, atol=1e-12)


# --- storage rounding inside a block graph, and graphs among kernel ops -----------------------


def test_round_to_storage_rounds_every_iteration() -> None:
    shape, loops = (4, 32), 4
    t32, t16 = tensor((4, 8)), tensor((4, 8), "f16")
    text = launch(
        [shape],
        (1, 1, 1),
        loops,
        f"""
        %t = block.input %A0 imap [-1, -1, -1] forloop_dim 1 : {tensor(shape)} -> {t32}
        %e = block.exp %t : {t32} -> {t16}
        %s = block.accum_sum %e : {t16} -> {t32}""",
        [("%s", (4, 8))],
        "",
        [("%acc#0", (4, 8), (-1, -1, -1))],
    )
    x = sample(np.random.default_rng(10), shape)
    (rounded,) = run_text(text, [x], FloatDomain(round_to_storage=True))
    (exact,) = run_text(text, [x])
    tiles = [x[:, 8 * i : 8 * (i + 1)] for i in range(loops)]
    want = sum(np.exp(tl).astype(np.float16).astype(np.float64) for tl in tiles)
    np.testing.assert_array_equal(rounded, np.asarray(want).astype(np.float32))
    np.testing.assert_allclose(exact, sum(np.exp(tl) for tl in tiles), rtol=1e-14)
    assert not np.array_equal(rounded, exact)


def test_graph_between_kernel_ops() -> None:
    text = """
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %n = kernel.rms_norm %x : tensor<8x16xf32> -> tensor<8x16xf32>
  %y = kernel.graph(%n, %w) grid [2, 1, 1] block [128, 1, 1] forloop 4
      : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
  ^bb0(%N: tensor<8x16xf32>, %W: tensor<16x4xf32>):
    %acc = block.for_loop : tensor<4x4xf32> {
      %nt = block.input %N imap [0, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<4x4xf32>
      %wt = block.input %W imap [-1, -1, -1] forloop_dim 0 : tensor<16x4xf32> -> tensor<4x4xf32>
      %m = block.matmul %nt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = block.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      block.yield %s : tensor<4x4xf32>
    }
    %o = block.output %acc omap [0, -1, -1] : tensor<4x4xf32> -> tensor<8x4xf32>
    block.return %o : tensor<8x4xf32>
  }
  %r = kernel.relu %y : tensor<8x4xf32> -> tensor<8x4xf32>
  func.return %r : tensor<8x4xf32>
}"""
    rng = np.random.default_rng(11)
    x, w = sample(rng, (8, 16)), sample(rng, (16, 4))
    (got,) = run_text(text, [x, w])
    n = x / np.sqrt((x**2).mean(axis=1, keepdims=True))
    np.testing.assert_allclose(got, np.maximum(n @ w, 0), rtol=1e-12, atol=1e-14)


def test_loop_invariant_and_varying_tiles_combine() -> None:
    """Tiles read once (no forloop dim) meet a tile that changes every iteration, in concat,
    matmul and accumulators in the loop, and in an elementwise op after it."""
    loops = 4
    w, x, v = (3, 3), (4, 12), (4, 3)
    t, sq, col, cat = tensor((4, 3)), tensor((3, 3)), tensor((4, 1)), tensor((4, 6))
    text = launch(
        [w, x, v],
        (1, 1, 1),
        loops,
        f"""
        %w = block.input %A0 imap [-1, -1, -1] : {sq} -> {sq}
        %x = block.input %A1 imap [-1, -1, -1] forloop_dim 1 : {tensor(x)} -> {t}
        %v = block.input %A2 imap [-1, -1, -1] : {t} -> {t}
        %c = block.concat %v, %x dim 1 : {t}, {t} -> {cat}
        %g = block.matmul %x, %w : {t}, {sq} -> {t}
        %s0 = block.accum_sum %c : {cat} -> {cat}
        %s1 = block.accum_max %g : {t} -> {t}
        %s2 = block.accum_sum_last %v : {t} -> {col}""",
        [("%s0", (4, 6)), ("%s1", (4, 3)), ("%s2", (4, 1))],
        f"%d = block.sub %acc#1, %acc#2 : {t}, {col} -> {t}",
        [("%acc#0", (4, 6), (-1, -1, -1)), ("%d", (4, 3), (-1, -1, -1))],
    )
    rng = np.random.default_rng(12)
    xw, xx, xv = sample(rng, w), sample(rng, x), sample(rng, v)
    c, d = run_text(text, [xw, xx, xv])
    tiles = [xx[:, 3 * i : 3 * (i + 1)] for i in range(loops)]
    want_c = sum(np.concatenate([xv, tl], axis=1) for tl in tiles)
    np.testing.assert_allclose(c, want_c, rtol=1e-13)
    products = np.stack([tl @ xw for tl in tiles])
    want_d = products.max(axis=0) - loops * xv.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(d, want_d, rtol=1e-12, atol=1e-13)
