"""Hand-made μGraphs of the benchmark programs, as the Mirage paper's figures describe them,
at any shape and tiling (the .mlir files beside this script are its output at the benchmark
shapes: `python benchmarks/ugraphs/generate.py` rewrites them).

- rmsnorm_linear: one kernel; blocks own `nt` columns of W; the loop walks K; the
  normalization is deferred past the matmul (accumulate X W and mean(X^2), divide once).
  The split-K form cuts K over grid y too and adds a small kernel that sums the splits.
- gated_mlp: one kernel; both products accumulate side by side; silu(a) * b after the loop
  (or split-K, as above).
- lora: one kernel; X W + (X A) B with the low-rank product recomputed by every block.
- gqa: split-KV, two kernels: each (head, row block, split) block accumulates exp(Q K_s) V_s
  and the row sums of exp(Q K_s); the second kernel sums the splits and divides.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mirage.dialects.shapes import REPLICATE as R
from mirage.dialects.shapes import saved_shape, tile_shape
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op


class Block:
    """A block graph under construction (values: the launch's tensors, then op results)."""

    def __init__(self, args: list[TensorType], grid: tuple[int, int, int], loops: int):
        self.args = args
        self.grid = grid
        self.loops = loops
        self.ops: list[Op] = []
        self.types = list(args)
        self.loop_end = -1

    def _add(
        self,
        kind: str,
        operands: list[int],
        result: TensorType,
        body: Graph | None = None,
        **attrs: object,
    ) -> int:
        self.ops.append(make_op(kind, operands, [result], body, **attrs))  # type: ignore[arg-type]
        self.types.append(result)
        return len(self.types) - 1

    def input(self, arg: int, imap: tuple[int, int, int], fdim: int = R) -> int:
        ty = self.args[arg]
        tile = tile_shape(ty.shape, imap, fdim, self.grid, self.loops)
        return self._add("input", [arg], TensorType(tile, ty.dtype), imap=imap, forloop_dim=fdim)

    def matmul(self, a: int, b: int, dtype: str = "f32") -> int:
        sa, sb = self.types[a].shape, self.types[b].shape
        return self._add("matmul", [a, b], TensorType((*sa[:-1], sb[-1]), dtype))

    def unary(self, kind: str, x: int, dtype: str = "f32") -> int:
        return self._add(kind, [x], TensorType(self.types[x].shape, dtype))

    def binary(self, kind: str, x: int, y: int, dtype: str = "f32") -> int:
        sx, sy = self.types[x].shape, self.types[y].shape
        return self._add(
            kind, [x, y], TensorType(tuple(max(a, b) for a, b in zip(sx, sy, strict=True)), dtype)
        )

    def reduce(self, kind: str, x: int, dim: int, size: int = 1) -> int:
        s = list(self.types[x].shape)
        s[dim] = size
        return self._add(kind, [x], TensorType(tuple(s), "f32"), dim=dim, size=size)

    def accum(self, kind: str, x: int) -> int:
        s = self.types[x].shape
        if kind in ("accum_sum_last", "accum_mean_last", "accum_rms_last"):
            s = (*s[:-1], 1)
        return self._add(kind, [x], TensorType(s, "f32"))

    def end_loop(self) -> None:
        self.loop_end = len(self.ops)

    def output(self, x: int, omap: tuple[int, int, int], dtype: str) -> int:
        full = saved_shape(self.types[x].shape, omap, self.grid)
        return self._add("output", [x], TensorType(full, dtype), omap=omap)

    def op(self, operands: tuple[int, ...], outputs: list[int], block: int = 128) -> Op:
        body = Graph(tuple(self.args), tuple(self.ops), tuple(outputs), self.loop_end)
        return make_op(
            "graph",
            operands,
            [self.types[o] for o in outputs],
            body,
            grid=self.grid,
            block=(block, 1, 1),
            forloop_range=self.loops,
        )


def _program(args: list[TensorType], ops: list[Op], outputs: list[int]) -> Graph:
    return Graph(tuple(args), tuple(ops), tuple(outputs))


def rmsnorm_linear(
    rows: int, k: int, n: int, nt: int = 48, kt: int = 64, dtype: str = "f16", threads: int = 128
) -> Graph:
    x, w = TensorType((rows, k), dtype), TensorType((k, n), dtype)
    g = Block([x, w], (n // nt, 1, 1), k // kt)
    xt = g.input(0, (R, R, R), 1)
    wt = g.input(1, (1, R, R), 0)
    xw = g.accum("accum_sum", g.matmul(xt, wt))
    ms = g.accum("accum_mean_last", g.unary("square", xt))
    g.end_loop()
    y = g.binary("mul", xw, g.unary("rsqrt", ms))
    out = g.output(y, (1, R, R), dtype)
    return _program([x, w], [g.op((0, 1), [out], threads)], [2])


def gated_mlp(
    rows: int, k: int, n: int, nt: int = 32, kt: int = 64, dtype: str = "f16", threads: int = 128
) -> Graph:
    x = TensorType((rows, k), dtype)
    w = TensorType((k, n), dtype)
    g = Block([x, w, w], (n // nt, 1, 1), k // kt)
    xt = g.input(0, (R, R, R), 1)
    w1 = g.input(1, (1, R, R), 0)
    w2 = g.input(2, (1, R, R), 0)
    a1 = g.accum("accum_sum", g.matmul(xt, w1))
    a2 = g.accum("accum_sum", g.matmul(xt, w2))
    g.end_loop()
    y = g.binary("mul", g.unary("silu", a1), a2)
    out = g.output(y, (1, R, R), dtype)
    return _program([x, w, w], [g.op((0, 1, 2), [out], threads)], [3])


def lora(
    rows: int, k: int, n: int, r: int, nt: int = 32, dtype: str = "f16", threads: int = 128
) -> Graph:
    x, w = TensorType((rows, k), dtype), TensorType((k, n), dtype)
    a, b = TensorType((k, r), dtype), TensorType((r, n), dtype)
    g = Block([x, w, a, b], (n // nt, 1, 1), 1)
    xt = g.input(0, (R, R, R))
    wt = g.input(1, (1, R, R))
    at = g.input(2, (R, R, R))
    bt = g.input(3, (1, R, R))
    xw = g.matmul(xt, wt)
    xa = g.matmul(xt, at, dtype)
    xab = g.matmul(xa, bt)
    acc = g.accum("accum_sum", g.binary("add", xw, xab))
    g.end_loop()
    out = g.output(acc, (1, R, R), dtype)
    return _program([x, w, a, b], [g.op((0, 1, 2, 3), [out], threads)], [4])


def gqa(
    heads: int,
    n: int,
    d: int,
    kv: int,
    mparts: int = 4,
    splits: int = 16,
    kt: int = 64,
    rows2: int = 4,
    dtype: str = "f16",
    threads: int = 128,
    partial: str = "f32",
) -> Graph:
    q = TensorType((heads, n, d), dtype)
    kk = TensorType((heads, d, kv), dtype)
    v = TensorType((heads, kv, d), dtype)
    g = Block([q, kk, v], (heads, mparts, splits), kv // splits // kt)
    qt = g.input(0, (0, 1, R))
    ktile = g.input(1, (0, R, 2), 2)
    vt = g.input(2, (0, R, 1), 1)
    e = g.unary("exp", g.matmul(qt, ktile), dtype)
    o = g.accum("accum_sum", g.matmul(e, vt))
    z = g.accum("accum_sum_last", e)
    g.end_loop()
    num = g.output(o, (0, 1, 2), partial)
    den = g.output(z, (0, 1, 2), partial)
    k1 = g.op((0, 1, 2), [num, den], threads)
    numt, dent = k1.results
    g2 = Block([numt, dent], (heads, n // rows2, 1), 1)
    nt_ = g2.input(0, (0, 1, R))
    dt_ = g2.input(1, (0, 1, R))
    sn = g2.accum("accum_sum", g2.reduce("reduce_sum", nt_, 2, d))
    sd = g2.accum("accum_sum", g2.reduce("reduce_sum", dt_, 2, 1))
    g2.end_loop()
    out = g2.output(g2.binary("div", sn, sd), (0, 1, R), dtype)
    k2 = g2.op((3, 4), [out])
    return _program([q, kk, v], [k1, k2], [5])


def rmsnorm_linear_splitk(
    rows: int,
    k: int,
    n: int,
    nt: int = 128,
    ksplit: int = 4,
    kt: int = 64,
    nt2: int = 64,
    dtype: str = "f16",
    threads: int = 128,
) -> Graph:
    """Two kernels: blocks of (column tile, K split) write partial products and partial
    sums of squares; the second kernel adds the splits and normalizes."""
    x, w = TensorType((rows, k), dtype), TensorType((k, n), dtype)
    g = Block([x, w], (n // nt, ksplit, 1), k // ksplit // kt)
    xt = g.input(0, (R, 1, R), 1)
    wt = g.input(1, (1, 0, R), 0)
    xw = g.accum("accum_sum", g.matmul(xt, wt))
    ss = g.accum("accum_sum_last", g.unary("square", xt))
    g.end_loop()
    p1 = g.output(xw, (1, 0, R), "f32")
    p2 = g.output(ss, (1, 0, R), "f32")
    k1 = g.op((0, 1), [p1, p2], threads)
    pt, st = k1.results
    g2 = Block([pt, st], (n // nt2, 1, 1), 1)
    a = g2.input(0, (1, R, R))
    c = g2.input(1, (R, R, R))
    sa = g2.accum("accum_sum", g2.reduce("reduce_sum", a, 0, rows))
    sc = g2.accum("accum_sum", g2.reduce("reduce_sum", g2.reduce("reduce_sum", c, 0, rows), 1))
    g2.end_loop()
    mean = g2._add("mul_scalar", [sc], TensorType((rows, 1), "f32"), scalar=1.0 / (k * (n // nt)))
    y = g2.binary("mul", sa, g2.unary("rsqrt", mean))
    out = g2.output(y, (1, R, R), dtype)
    k2 = g2.op((2, 3), [out])
    return _program([x, w], [k1, k2], [4])


def gated_mlp_splitk(
    rows: int,
    k: int,
    n: int,
    nt: int = 128,
    ksplit: int = 4,
    kt: int = 64,
    nt2: int = 64,
    dtype: str = "f16",
    threads: int = 128,
) -> Graph:
    x = TensorType((rows, k), dtype)
    w = TensorType((k, n), dtype)
    g = Block([x, w, w], (n // nt, ksplit, 1), k // ksplit // kt)
    xt = g.input(0, (R, 1, R), 1)
    w1 = g.input(1, (1, 0, R), 0)
    w2 = g.input(2, (1, 0, R), 0)
    a1 = g.accum("accum_sum", g.matmul(xt, w1))
    a2 = g.accum("accum_sum", g.matmul(xt, w2))
    g.end_loop()
    p1 = g.output(a1, (1, 0, R), "f32")
    p2 = g.output(a2, (1, 0, R), "f32")
    k1 = g.op((0, 1, 2), [p1, p2], threads)
    t1, t2 = k1.results
    g2 = Block([t1, t2], (n // nt2, 1, 1), 1)
    s1 = g2.accum("accum_sum", g2.reduce("reduce_sum", g2.input(0, (1, R, R)), 0, rows))
    s2 = g2.accum("accum_sum", g2.reduce("reduce_sum", g2.input(1, (1, R, R)), 0, rows))
    g2.end_loop()
    out = g2.output(g2.binary("mul", g2.unary("silu", s1), s2), (1, R, R), dtype)
    k2 = g2.op((3, 4), [out])
    return _program([x, w, w], [k1, k2], [5])


BENCHMARKS: dict[str, Graph] = {
    # the tilings that measured fastest on one NVIDIA H200 (benchmarks/RESULTS.md)
    "rmsnorm_linear_b1": rmsnorm_linear(2, 4096, 6144, nt=64, kt=64),
    "rmsnorm_linear_b8": rmsnorm_linear_splitk(16, 4096, 6144, nt=128, ksplit=2, threads=256),
    "gated_mlp": gated_mlp_splitk(8, 4096, 4096, nt=64, ksplit=2, threads=256),
    "lora": lora(16, 256, 4096, 16, nt=64),
    "gqa_b1": gqa(2, 256, 64, 4096, mparts=4, splits=16),
    "gqa_b8": gqa(16, 256, 64, 4096, mparts=2, splits=8, threads=256),
}


def to_mlir(name: str, graph: Graph) -> str:
    from mirage.dialects.ugraph.to_ir import func_from_graph

    return str(func_from_graph(name, graph))


def main() -> None:
    here = Path(__file__).parent
    for name, graph in BENCHMARKS.items():
        text = f"// {name}: generated by generate.py (see its docstring)\n" + to_mlir(
            "ugraph", graph
        )
        (here / f"{name}.mlir").write_text(text + "\n")
        print(f"wrote {name}.mlir", file=sys.stderr)


if __name__ == "__main__":
    main()
