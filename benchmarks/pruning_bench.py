"""Pruning by abstract expressions: how fast a query is decided, and how much it prunes.

    python benchmarks/pruning_bench.py [--workers 2] [--json out.json]

1. A plain enumeration of block graphs, op by op. (The search of `passes/superoptimize` was
   not finished when this was written; this enumerator stands in for it.) One
   graph-defined op with the paper's launch for the program (rmsnorm_linear: blocks own
   columns of W, the loop walks K; gqa: blocks own a head's row block, the loop walks the
   keys); its input iterators first; then any op of a generic alphabet (exp, square, sqrt,
   add, mul, div, matmul, reduce_sum over the last dim, rms_norm; accum_sum and the three
   last-dim accumulators) on values whose shapes fit, in the reference search's canonical
   order (each op's (operands, kind) above the previous op's), ops after the loop once an
   accumulator exists, and an output saver to finish; block ops counted with the input
   iterators and the output saver. With pruning, a prefix is grown only if the value it
   adds passes the check; without, every prefix is grown. Both walks report the prefixes
   made, those that fail the check (a value that is not a subexpression of the program's),
   and the finished graphs whose expression is A_eq-equivalent to the program's: the same
   with and without pruning (Theorem 1 in practice).
2. The queries the pruned walks ask (rmsnorm_linear up to 7 block ops, gqa up to 10: the
   sizes at which each finds its μGraph), decided in a fresh process, uncached, by each
   engine: median, 90th percentile and maximum time per query, and unknown answers.
3. The same queries asked again (answers in memory), and in a third process that reads the
   answers from the cache file written by the second.
4. Theorem 1 at the benchmark shapes: every prefix of every μGraph of benchmarks/ugraphs
   survives its program's pruner.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mirage.dialects import shapes
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.pruning import AbstractExprs, ExprBuilder, Pruner, canonical, parse_term
from mirage.passes.pruning.terms import Term, Var

R = shapes.REPLICATE
HERE = Path(__file__).resolve().parent

UNARY = ("exp", "square", "sqrt")
BINARY = ("add", "mul", "div")
ACCUMULATORS = ("accum_sum", "accum_sum_last", "accum_mean_last", "accum_rms_last")
KIND_RANK = {
    k: i
    for i, k in enumerate(
        (*UNARY, *BINARY, "matmul", "reduce_sum", "rms_norm", *ACCUMULATORS, "output")
    )
}
Key = tuple[tuple[int, ...], int]


def t(*shape: int, dtype: str = "f16") -> TensorType:
    return TensorType(tuple(shape), dtype)


# --- the programs (docs/MEASURING.md) ------------------------------------------------------------


def rmsnorm_linear(rows: int, k: int = 4096, n: int = 6144) -> Graph:
    x, w = t(rows, k), t(k, n)
    return Graph(
        (x, w),
        (make_op("rms_norm", (0,), (x,)), make_op("matmul", (2, 1), (t(rows, n),))),
        (3,),
    )


def gqa(heads: int, rows: int = 256, d: int = 64, keys: int = 4096) -> Graph:
    q, k, v = t(heads, rows, d), t(heads, d, keys), t(heads, keys, d)
    scores = t(heads, rows, keys, dtype="f32")
    ops = (
        make_op("matmul", (0, 1), (scores,)),
        make_op("exp", (3,), (scores,)),
        make_op("reduce_sum", (4,), (t(heads, rows, 1, dtype="f32"),), dim=2, size=1),
        make_op("div", (4, 5), (t(heads, rows, keys),)),
        make_op("matmul", (6, 2), (t(heads, rows, d),)),
    )
    return Graph((q, k, v), ops, (7,))


def gated_mlp(rows: int = 8, k: int = 4096, n: int = 4096) -> Graph:
    x, w = t(rows, k), t(k, n)
    h = t(rows, n)
    ops = (
        make_op("matmul", (0, 1), (h,)),
        make_op("silu", (3,), (h,)),
        make_op("matmul", (0, 2), (h,)),
        make_op("mul", (4, 5), (h,)),
    )
    return Graph((x, w, w), ops, (6,))


def lora(rows: int = 16, k: int = 256, n: int = 4096, r: int = 16) -> Graph:
    x, w, a, b = t(rows, k), t(k, n), t(k, r), t(r, n)
    ops = (
        make_op("matmul", (0, 1), (t(rows, n),)),
        make_op("matmul", (0, 2), (t(rows, r),)),
        make_op("matmul", (5, 3), (t(rows, n),)),
        make_op("add", (4, 6), (t(rows, n),)),
    )
    return Graph((x, w, a, b), ops, (7,))


@dataclass(frozen=True)
class Launch:
    grid: tuple[int, int, int]
    loops: int
    inputs: tuple[tuple[int, tuple[int, int, int], int], ...]
    """(kernel argument, imap, forloop dim) of each input iterator."""
    omap: tuple[int, int, int]


UNPRUNED_MAX_OPS = {"rmsnorm_linear": 7, "gqa": 7}
"""The unpruned walks: gqa at 8 block ops ran more than 30 minutes (at 10, where the
pruned walk finds its μGraph, it is out of reach)."""

WALKS: dict[str, tuple[Graph, Launch, int]] = {
    "rmsnorm_linear": (
        rmsnorm_linear(2),
        Launch((64, 1, 1), 64, ((0, (R, R, R), 1), (1, (1, R, R), 0)), (1, R, R)),
        7,
    ),
    "gqa": (
        gqa(2),
        Launch(
            (2, 16, 1), 64, ((0, (0, 1, R), R), (1, (0, R, R), 2), (2, (0, R, R), 1)), (0, 1, R)
        ),
        10,
    ),
}


# --- the enumeration ----------------------------------------------------------------------


@dataclass
class WalkStats:
    prefixes: int = 0
    """Prefixes made (each op appended to a grown prefix)."""
    failing: int = 0
    """Prefixes with a value that is not a subexpression of the program's."""
    grown: int = 0
    """Prefixes whose children were made."""
    finished: int = 0
    equivalent: set[str] = field(default_factory=set[str])
    """Finished graphs with an expression A_eq-equivalent to the program's (their ops)."""
    seconds: float = 0.0
    queries: list[Term] = field(default_factory=list[Term])
    """Distinct expressions asked about, in the order first asked."""

    def merge(self, other: WalkStats) -> None:
        self.prefixes += other.prefixes
        self.failing += other.failing
        self.grown += other.grown
        self.finished += other.finished
        self.equivalent |= other.equivalent
        self.seconds = max(self.seconds, other.seconds)


class Enumerator:
    def __init__(self, program: Graph, launch: Launch, max_ops: int, pruner: Pruner):
        self.program = program
        self.launch = launch
        self.max_ops = max_ops
        self.pruner = pruner
        self.target = canonical(AbstractExprs.of(program).outputs[0])
        self.out_type = program.output_types[0]
        parts = [1] * len(self.out_type.shape)
        for g, d in enumerate(launch.omap):
            if d != R:
                parts[d] *= launch.grid[g]
        self.out_tile = tuple(n // p for n, p in zip(self.out_type.shape, parts, strict=True))
        self.n_args = len(program.args)

    def walk(
        self, prune: bool, share: tuple[int, int] = (0, 1), collect: bool = False
    ) -> WalkStats:
        """Grow every prefix (or, with `prune`, only those that pass the check); `share`
        (k, n) takes the k-th of n slices of the first op's choices."""
        stats = WalkStats()
        self._seen: set[Term] = set()
        self._collect = collect
        builder = ExprBuilder(
            [Var(f"arg{i}") for i in range(self.n_args)],
            self.program.args,
            grid=self.launch.grid,
            forloop_range=self.launch.loops,
        )
        ops: list[Op] = []
        self.shapes = list(builder.shapes)
        for arg, imap, fdim in self.launch.inputs:
            full = self.program.args[arg].shape
            tile = shapes.tile_shape(full, imap, fdim, self.launch.grid, self.launch.loops)
            op = make_op("input", (arg,), (t(*tile),), imap=imap, forloop_dim=fdim)
            builder.push(op)
            ops.append(op)
            self.shapes.append(tile)
        start = time.perf_counter()
        self._grow(builder, ops, None, None, prune, False, stats, share)
        stats.seconds = time.perf_counter() - start
        return stats

    def _grow(
        self,
        builder: ExprBuilder,
        ops: list[Op],
        last: Key | None,
        loop_end: int | None,
        prune: bool,
        failed: bool,
        stats: WalkStats,
        share: tuple[int, int] = (0, 1),
    ) -> None:
        if len(ops) >= self.max_ops:
            return
        stats.grown += 1
        for index, (op, key) in enumerate(list(self._candidates(ops, last, loop_end))):
            if index % share[1] != share[0]:
                continue
            closes = (
                loop_end is None
                and not op.kind.startswith("accum_")
                and any(
                    v >= self.n_args and ops[v - self.n_args].kind.startswith("accum_")
                    for v in op.operands
                )
            )
            ops.append(op)
            self.shapes.append(op.results[0].shape)
            stats.prefixes += 1
            fails = failed
            if not failed:
                # Below a failing prefix every prefix fails: no expressions are needed.
                (term,) = builder.push(op)
                if self._collect and term not in self._seen:
                    self._seen.add(term)
                    stats.queries.append(term)
                fails = not self.pruner.keep_term(term)
                if op.kind == "output" and canonical(term) is self.target:
                    stats.equivalent.add(" ".join(f"{o.kind}{list(o.operands)}" for o in ops))
            if fails:
                stats.failing += 1
            if op.kind == "output":
                stats.finished += 1
            elif not (prune and fails):
                end = loop_end if loop_end is not None else (len(ops) - 1 if closes else None)
                self._grow(builder, ops, key, end, prune, fails, stats)
            ops.pop()
            self.shapes.pop()
            if not failed:
                builder.pop()

    def _candidates(
        self, ops: list[Op], last: Key | None, loop_end: int | None
    ) -> Iterator[tuple[Op, Key]]:
        first = self.n_args
        accumulators = [first + i for i, o in enumerate(ops) if o.kind.startswith("accum_")]
        if loop_end is None:
            in_loop = [first + i for i, o in enumerate(ops) if not o.kind.startswith("accum_")]
            yield from self._compute(in_loop, last)
            for v in in_loop:
                shape = self.shapes[v]
                for kind in ACCUMULATORS:
                    out = shape if kind == "accum_sum" else shapes.last_dim_to_one(shape)
                    yield from _ordered(make_op(kind, (v,), (t(*out, dtype="f32"),)), last)
            after = accumulators
        else:
            after = accumulators + [first + i for i in range(loop_end, len(ops))]
        # Ops after the loop read accumulators and each other (the first one closes it).
        yield from self._compute(after, last)
        for v in after:
            if self.shapes[v] == self.out_tile:
                op = make_op("output", (v,), (self.out_type,), omap=self.launch.omap)
                yield from _ordered(op, last)

    def _compute(self, values: list[int], last: Key | None) -> Iterator[tuple[Op, Key]]:
        sh = self.shapes
        for a in values:
            f32 = t(*sh[a], dtype="f32")
            for kind in UNARY:
                yield from _ordered(make_op(kind, (a,), (f32,)), last)
            yield from _ordered(make_op("rms_norm", (a,), (f32,)), last)
            if sh[a][-1] > 1:
                out = shapes.last_dim_to_one(sh[a])
                op = make_op("reduce_sum", (a,), (t(*out, dtype="f32"),), dim=len(out) - 1, size=1)
                yield from _ordered(op, last)
            for b in values:
                try:
                    out = t(*shapes.broadcast(sh[a], sh[b]), dtype="f32")
                except shapes.ShapeError:
                    pass
                else:
                    for kind in BINARY if a <= b else ("div",):
                        yield from _ordered(make_op(kind, (a, b), (out,)), last)
                try:
                    mm = t(*shapes.matmul(sh[a], sh[b]), dtype="f32")
                except shapes.ShapeError:
                    continue
                yield from _ordered(make_op("matmul", (a, b), (mm,)), last)


def _ordered(op: Op, last: Key | None) -> Iterator[tuple[Op, Key]]:
    """The reference search's canonical order: each op's (operands, kind) above the last."""
    key = (op.operands, KIND_RANK[op.kind])
    if last is None or key > last:
        yield op, key


def _walk_share(args: tuple[str, int, bool, int, int]) -> WalkStats:
    name, max_ops, prune, k, n = args
    program, launch, _ = WALKS[name]
    return Enumerator(program, launch, max_ops, Pruner(program, engine="python")).walk(
        prune, (k, n)
    )


def walk_in_processes(name: str, max_ops: int, prune: bool, workers: int) -> WalkStats:
    """A walk split over `workers` processes (by the first op's choice)."""
    total = WalkStats()
    start = time.perf_counter()
    shares = [(name, max_ops, prune, k, workers) for k in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for part in pool.map(_walk_share, shares):
            total.merge(part)
    total.seconds = time.perf_counter() - start
    return total


# --- query times --------------------------------------------------------------------------


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_queries(
    name: str, engine: str, queries: list[str], cache: str | None
) -> dict[str, object]:
    """Run in a fresh process: each query decided once (or read from `cache`), then asked
    again from memory."""
    program, _, _ = WALKS[name]
    start = time.perf_counter()
    pruner = Pruner(program, engine=engine, cache=cache)
    load = time.perf_counter() - start
    terms = [parse_term(q) for q in queries]
    first: list[float] = []
    decided: list[float] = []
    by_via: dict[str, list[float]] = {}
    for term in terms:
        before = dict(pruner.stats.via)
        t0 = time.perf_counter()
        pruner.keep_term(term)
        elapsed = time.perf_counter() - t0
        first.append(elapsed)
        for via, count in pruner.stats.via.items():
            if count > before.get(via, 0):
                decided.append(elapsed)
                by_via.setdefault(via, []).append(elapsed)
    again: list[float] = []
    repeat = 200
    for term in terms:
        t0 = time.perf_counter()
        for _ in range(repeat):
            pruner.keep_term(term)
        again.append((time.perf_counter() - t0) / repeat)
    s = pruner.stats
    return {
        "queries": len(terms),
        "decided": s.decided,
        "via": dict(s.via),
        "unknown": s.unknown,
        "disk_hits": s.disk_hits,
        "pruned": s.pruned,
        "cache_entries_loaded": pruner.cache.loaded,
        "load_ms": load * 1e3,
        "first_ms": _summary([x * 1e3 for x in first]),
        "decided_ms": _summary([x * 1e3 for x in decided]) if decided else None,
        "decided_ms_by_step": {
            via: _summary([x * 1e3 for x in times]) for via, times in sorted(by_via.items())
        },
        "again_us": _summary([x * 1e6 for x in again]),
    }


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "p90": _percentile(values, 0.9),
        "max": max(values),
        "total": sum(values),
    }


def _subprocess(name: str, engine: str, queries: list[str], cache: str | None) -> dict[str, object]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"name": name, "engine": engine, "queries": queries, "cache": cache}, f)
    try:
        out = subprocess.run(
            [sys.executable, __file__, "--time-queries", f.name],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        os.unlink(f.name)
    return json.loads(out.stdout)


# --- Theorem 1 at the benchmark shapes -------------------------------------------------------


def benchmark_ugraphs() -> dict[str, object]:
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.registry import make_context

    programs = {
        "rmsnorm_linear_b1": rmsnorm_linear(2),
        "rmsnorm_linear_b8": rmsnorm_linear(16),
        "gqa_b1": gqa(2),
        "gqa_b8": gqa(16),
        "gated_mlp": gated_mlp(),
        "lora": lora(),
    }
    result: dict[str, object] = {}
    for name, program in programs.items():
        path = HERE / "ugraphs" / f"{name}.mlir"
        if not path.exists():
            continue
        module = Parser(make_context(), path.read_text()).parse_module()
        (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
        ugraph = graph_from_func(func)
        pruner = Pruner(program)
        prefixes = list(_prefixes(ugraph))
        kept = sum(pruner.keep(p) for p in prefixes)
        same = [canonical(x) for x in AbstractExprs.of(ugraph).outputs] == [
            canonical(x) for x in AbstractExprs.of(program).outputs
        ]
        result[name] = {"prefixes": len(prefixes), "kept": kept, "equivalent": same}
    return result


def _prefixes(graph: Graph) -> Iterator[Graph]:
    for count in range(1, len(graph.ops) + 1):
        op = graph.ops[count - 1]
        if op.body is None:
            yield dataclasses.replace(graph, ops=graph.ops[:count], outputs=())
            continue
        for j in range(len(op.body.ops) + 1):
            body = dataclasses.replace(
                op.body,
                ops=op.body.ops[:j],
                outputs=op.body.outputs if j == len(op.body.ops) else (),
                loop_end=min(op.body.loop_end, j),
            )
            grown = dataclasses.replace(op, body=body)
            yield dataclasses.replace(graph, ops=(*graph.ops[: count - 1], grown), outputs=())


# --- main ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--skip-unpruned", action="store_true")
    parser.add_argument("--time-queries", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_queries:
        spec = json.loads(args.time_queries.read_text())
        out = time_queries(spec["name"], spec["engine"], spec["queries"], spec["cache"])
        print(json.dumps(out))
        return

    report: dict[str, object] = {}
    for name, (program, launch, max_ops) in WALKS.items():
        pruner = Pruner(program)
        walk = Enumerator(program, launch, max_ops, pruner).walk(prune=True, collect=True)
        entry: dict[str, object] = {
            "max_block_ops": max_ops,
            "pruned_walk": _walk_dict(walk),
        }
        print(f"{name}: pruned walk {_walk_dict(walk)}", flush=True)
        queries = [str(q) for q in walk.queries]
        with tempfile.TemporaryDirectory() as tmp:
            cache = str(Path(tmp) / "answers.log")
            for engine in ("z3", "python"):
                entry[f"uncached_{engine}"] = _subprocess(
                    name, engine, queries, cache if engine == "z3" else None
                )
                print(f"{name}: {engine} {entry[f'uncached_{engine}']}", flush=True)
            entry["from_disk"] = _subprocess(name, "z3", queries, cache)
            print(f"{name}: from disk {entry['from_disk']}", flush=True)
        if not args.skip_unpruned:
            depth = UNPRUNED_MAX_OPS[name]
            both = {p: walk_in_processes(name, depth, p, args.workers) for p in (True, False)}
            entry["unpruned_max_block_ops"] = depth
            entry["compared_walks"] = {
                "pruned": _walk_dict(both[True]),
                "unpruned": _walk_dict(both[False]),
                "same_equivalent_graphs": both[True].equivalent == both[False].equivalent,
            }
            print(f"{name}: walks at {depth} block ops {entry['compared_walks']}", flush=True)
        report[name] = entry
    report["theorem1_benchmark_ugraphs"] = benchmark_ugraphs()
    print(f"benchmark μGraphs: {report['theorem1_benchmark_ugraphs']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=sorted))


def _walk_dict(s: WalkStats) -> dict[str, object]:
    return {
        "prefixes": s.prefixes,
        "failing": s.failing,
        "failing_fraction": round(s.failing / max(1, s.prefixes), 4),
        "grown": s.grown,
        "finished": s.finished,
        "equivalent": sorted(s.equivalent),
        "seconds": round(s.seconds, 2),
    }


if __name__ == "__main__":
    main()
