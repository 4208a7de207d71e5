"""Measuring the cost model against the lowering: many tilings of the benchmark kernels,
each estimated by `passes/superoptimize/cost.py` and timed on the GPU.

    python benchmarks/calibrate_cost.py --build DIR [--per-structure 24]    # CPU
    python benchmarks/calibrate_cost.py --build --pairs DIR [--per-structure 16]  # CPU
    python3 benchmarks/calibrate_cost.py --time DIR [--json out.json]       # GPU machine
    python benchmarks/calibrate_cost.py --compare out.json [more.json ...]  # CPU

`--build` takes every graph-defined op of the μGraphs in `benchmarks/found/` and
`benchmarks/ugraphs/`, enumerates the parallelizations of its structure that fit the target
(all patterns and extents, as the search does, with whole-tensor outputs), picks up to
`--per-structure` of them spread evenly over the model's ranking (the cheapest and the
most expensive included), and lowers each as a program of one kernel (DIR/NAME.json, with
the model's estimate and the kernel's figures in DIR/NAME.meta.json). `--time` times each
by the method of docs/MEASURING.md and prints model and measured µs side by side, with the rank
correlation per structure. `--compare` re-estimates every timed tiling with the current
cost model (the tilings are found again by structure, grid, block and loop range) and prints,
per structure, the measured time of the model's pick against the best measured tiling, and
their geometric mean: how well the model in the tree chooses. Use `--only ugraphs_` there:
the found μGraphs change with each search, so their old timings need not match the
structures in benchmarks/found now. The timings of 2026-11-29 are
in `benchmarks/data/calibration_*.json`.

`--build --pairs` builds whole split-KV pairs of the attention programs instead
(`PAIR_PROGRAMS`; as two launches, and the model's cheapest half also joined into one launch
of clusters), each with its IR in its meta file, so that `--compare` prices the very pair
that was timed (joined and two-launch forms ranked apart).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def _structures() -> list[tuple[str, Any, list[Any]]]:
    """(name, graph op, operand types) of every graph-defined op of the μGraphs."""
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.dialects.ugraph.graph import Op
    from mirage.tools.registry import make_context

    ctx = make_context()
    out: list[tuple[str, Any, list[Any]]] = []
    for folder in ("found", "ugraphs"):
        for path in sorted((HERE / folder).glob("*.mlir")):
            module = Parser(ctx, path.read_text()).parse_module()
            for func in module.ops:
                if not isinstance(func, FuncOp) or func.sym_name.data == "program":
                    continue
                graph = graph_from_func(func)
                for k, (op, _) in enumerate(graph.result_ids()):
                    if op.kind == "graph":
                        types = [graph.type_of(v) for v in op.operands]
                        # a kernel of its own: its operands are its program's arguments
                        alone = Op(op.kind, tuple(range(len(types))), op.results, op.attrs, op.body)
                        out.append((f"{folder}_{path.stem}_k{k}", alone, types))
    return out


def _variants(op: Any, types: list[Any], target: Any) -> list[Any]:
    """Every parallelization of the op's structure that fits, whole-tensor outputs only
    where the op itself has them (a split kernel keeps its partial pattern)."""
    from mirage.passes.superoptimize import parallelize as par

    body = op.body
    out: dict[str, Any] = {}
    for pattern in par.patterns(body):
        options: list[list[int]] = []
        for p in range(4):
            used = pattern.loop_used if p == par.LOOP else pattern.grid_used[p]
            if not used:
                options.append([1])
                continue
            dims = par._cut_extents(body, pattern, p)  # pyright: ignore[reportPrivateUsage]
            options.append(par._options(dims, False, p == par.LOOP))  # pyright: ignore[reportPrivateUsage]
        for gx, gy, gz, loops in itertools.product(*options):
            if gx * gy * gz > par.MAX_BLOCKS:
                continue
            for block in par.BLOCK_SIZES:
                found = par._priced(op, pattern, types, (gx, gy, gz), loops, block, target)  # pyright: ignore[reportPrivateUsage]
                if found is None or found.op.results != op.results:
                    continue
                out.setdefault(repr(found.op), found)
    return sorted(out.values(), key=lambda p: p.seconds)


def build(directory: Path, per_structure: int, only: str | None = None) -> None:
    from mirage.dialects.hardware import SM_90
    from mirage.dialects.ugraph.graph import Graph
    from mirage.dialects.ugraph.to_ir import func_from_graph
    from mirage.lowering.ptx.compile import compile_function
    from mirage.passes.superoptimize.cost import graph_op_cost
    from mirage.passes.superoptimize.lowered import lowered_facts

    directory.mkdir(parents=True, exist_ok=True)
    seen: set[str] = set()
    for name, op, types in _structures():
        if only and only not in name:
            continue
        variants = [op, *(v.op for v in _variants(op, types, SM_90))]
        if len(variants) > per_structure:
            step = (len(variants) - 1) / (per_structure - 1)
            picked = [
                variants[0],
                *(variants[1 + round(i * step)] for i in range(per_structure - 1)),
            ]
            variants = list(dict.fromkeys(picked))
        built = 0
        for i, v in enumerate(variants):
            if repr(v) in seen:
                continue
            seen.add(repr(v))
            n = len(types)
            graph = Graph(tuple(types), (v,), tuple(range(n, n + len(v.results))))
            try:
                program = compile_function(func_from_graph("f", graph), "sm_90a")
            except Exception as e:  # a tiling the lowering does not take: reported, skipped
                print(f"skip {name} #{i}: {type(e).__name__}: {str(e)[:120]}", file=sys.stderr)
                continue
            cost = graph_op_cost(v, list(types), SM_90, lowered=lowered_facts(v, SM_90))
            stem = f"{name}_v{i:02d}"
            (directory / f"{stem}.json").write_text(program.to_json())
            meta = {
                "structure": name,
                "as_found": i == 0,
                "op_key": _op_key(v),
                "model_us": cost.seconds * 1e6,
                "grid": list(v.ints_attr("grid")),
                "block": list(v.ints_attr("block")),
                "loops": v.int_attr("forloop_range"),
                "dram_bytes": cost.dram_bytes,
                "flops": cost.flops,
            }
            (directory / f"{stem}.meta.json").write_text(json.dumps(meta))
            built += 1
        print(f"{name}: {built} variants", file=sys.stderr)


PAIR_PROGRAMS = ("gqa_b1", "gqa_b8", "qknorm_b1", "qknorm_b8")
"""The programs of benchmarks/programs whose split-KV pairs `--pairs` builds."""


def _pair_structures() -> list[tuple[str, list[tuple[float, Any]]]]:
    """(name, every split-KV pair of the program with its modelled seconds, cheapest first)
    of each of PAIR_PROGRAMS, x and y grid axes swapped counted once."""
    from mirage.dialects.hardware import SM_90
    from mirage.passes.superoptimize.online_split import online_split_pairs

    out: list[tuple[str, list[tuple[float, Any]]]] = []
    for name in PAIR_PROGRAMS:
        program = _only_graph((HERE / "programs" / f"{name}.mlir").read_text())
        pairs = online_split_pairs(program, SM_90, firsts_combined=1 << 30)
        seen: set[Any] = set()
        kept: list[tuple[float, Any]] = []
        for seconds, pair in pairs:
            sig = tuple(_tiling(op) for op in pair.ops if op.body is not None)
            if sig not in seen:
                seen.add(sig)
                kept.append((seconds, pair))
        out.append((f"pairs_{name}", kept))
    return out


def _only_graph(module_text: str) -> Any:
    """The graph of the one function of a module's text."""
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.registry import make_context

    module = Parser(make_context(), module_text).parse_module()
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return graph_from_func(func)


def _tiling(op: Any) -> tuple[Any, ...]:
    """A graph op's tiling up to the order of its grid axes."""
    tiles = tuple(o.results[0].shape for o in op.body.ops if o.kind == "input")
    grid = tuple(sorted(op.ints_attr("grid")))
    return (grid, op.ints_attr("block")[0], op.int_attr("forloop_range"), tiles)


def build_pairs(directory: Path, per_structure: int, only: str | None = None) -> None:
    """Whole split-KV pairs, each lowered as its program (two launches, and the best half
    also joined into one launch where `cluster_join` allows): the cheapest half of
    `per_structure` by the model and the rest spread evenly over the ranking."""
    from mirage.dialects.hardware import SM_90
    from mirage.dialects.ugraph.to_ir import func_from_graph
    from mirage.lowering.ptx.compile import compile_function
    from mirage.passes.superoptimize.cost import program_cost

    directory.mkdir(parents=True, exist_ok=True)
    for name, pairs in _pair_structures():
        if only and only not in name:
            continue
        best = per_structure // 2
        rest = pairs[best:]
        step = max(1, len(rest) // max(1, per_structure - best))
        picked = [*pairs[:best], *rest[::step][: per_structure - best]]
        built = 0
        for i, (_, pair) in enumerate(picked):
            function = func_from_graph("f", pair)
            first, second = [op for op in pair.ops if op.body is not None]
            for clusters in (False, True) if i < best else (False,):
                try:
                    program = compile_function(function, "sm_90a", clusters=clusters)
                except Exception as e:  # a pair the lowering does not take: reported, skipped
                    print(f"skip {name} #{i}: {type(e).__name__}: {str(e)[:120]}", file=sys.stderr)
                    continue
                joined = len(program.launches) == 1
                seconds = program_cost(pair, SM_90, clusters=clusters).seconds
                stem = f"{name}_v{i:02d}{'_joined' if clusters else ''}"
                (directory / f"{stem}.json").write_text(program.to_json())
                meta = {
                    "structure": name,
                    "op_key": _op_key(pair),
                    "joined": joined,
                    "model_us": seconds * 1e6,
                    "grid": list(first.ints_attr("grid")),
                    "block": list(first.ints_attr("block")),
                    "loops": first.int_attr("forloop_range"),
                    "tiles": [list(t) for t in _tiling(first)[3]],
                    "second_grid": list(second.ints_attr("grid")),
                    "second_block": list(second.ints_attr("block")),
                    "ir": str(function),
                }
                (directory / f"{stem}.meta.json").write_text(json.dumps(meta))
                built += 1
        print(f"{name}: {built} programs", file=sys.stderr)


def _op_key(op: Any) -> str:
    """Names one tiling exactly (grid, block and loop range alone do not: several
    patterns share them)."""
    import hashlib

    return hashlib.sha1(repr(op).encode()).hexdigest()[:16]


def _spearman(a: list[float], b: list[float]) -> float:
    def ranks(x: list[float]) -> list[float]:
        order = sorted(range(len(x)), key=lambda i: x[i])
        r = [0.0] * len(x)
        for rank, i in enumerate(order):
            r[i] = float(rank)
        return r

    ra, rb = ranks(a), ranks(b)
    n = len(a)
    if n < 3:
        return float("nan")
    d2 = sum((x - y) ** 2 for x, y in zip(ra, rb, strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


def time_all(directory: Path, out: Path | None) -> None:
    from mirage.lowering.runtime.loader import load
    from mirage.lowering.runtime.program import CompiledProgram
    from mirage.lowering.runtime.timing import TimingMethod, time_program

    rows: list[dict[str, Any]] = []
    method = TimingMethod(warmup=3, samples=15)
    for path in sorted(directory.glob("*.meta.json")):
        stem = path.name.removesuffix(".meta.json")
        meta = json.loads(path.read_text())
        program = CompiledProgram.from_json((directory / f"{stem}.json").read_text())
        try:
            meta["measured_us"] = time_program(load(program), method).median_us
        except Exception as e:  # report and go on
            meta["error"] = f"{type(e).__name__}: {str(e)[:160]}"
        meta["name"] = stem
        rows.append(meta)
        print(
            f"{stem:44s} model {meta['model_us']:8.2f}  measured "
            f"{meta.get('measured_us', float('nan')):8.2f}  grid {meta['grid']} "
            f"block {meta['block'][0]} loops {meta['loops']}",
            flush=True,
        )
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if "measured_us" in r:
            by.setdefault(r["structure"], []).append(r)
    for name, rs in by.items():
        rho = _spearman([r["model_us"] for r in rs], [r["measured_us"] for r in rs])
        best_model = min(rs, key=lambda r: r["model_us"])
        best = min(rs, key=lambda r: r["measured_us"])
        print(
            f"{name:36s} n={len(rs):3d} spearman {rho:5.2f}  model's pick "
            f"{best_model['measured_us']:8.2f} us  best measured {best['measured_us']:8.2f} us"
        )
    if out is not None:
        out.write_text(json.dumps(rows, indent=1))


def compare(files: list[Path], only: str | None = None) -> None:
    import math

    from mirage.dialects.hardware import SM_90
    from mirage.passes.superoptimize.cost import graph_op_cost, program_cost
    from mirage.passes.superoptimize.lowered import lowered_facts

    def key(structure: str, grid: Any, block: int, loops: int) -> tuple[Any, ...]:
        return (structure, tuple(grid), block, loops)

    rows = [r for path in files for r in json.loads(path.read_text())]
    timed = {r["structure"] for r in rows}
    # Timings with an op_key name their tiling exactly; older ones by grid, block and loop
    # range, which several patterns may share (the first such tiling is taken).
    ops: dict[Any, tuple[Any, list[Any]]] = {}
    for name, op, types in _structures():
        if (only and only not in name) or name not in timed:
            continue
        for v in [op, *(p.op for p in _variants(op, types, SM_90))]:
            k = key(name, v.ints_attr("grid"), v.ints_attr("block")[0], v.int_attr("forloop_range"))
            ops.setdefault(k, (v, types))
            ops.setdefault((name, _op_key(v)), (v, types))
    pairs: dict[Any, Any] = {}
    if any(r["structure"].startswith("pairs_") and "ir" not in r for r in rows):
        for name, found in _pair_structures():
            if not only or only in name:
                pairs.update(((name, _op_key(pair)), pair) for _, pair in found)
    points: dict[Any, tuple[str, float, float]] = {}
    for r in rows:  # later files replace earlier timings of the same tiling
        if r["structure"].startswith("pairs_"):
            if only and only not in r["structure"]:
                continue
            # the pair's own text where the file keeps it (the combine a pair gets depends
            # on the model that built it), else found again by its key
            if "ir" in r:
                pair = _only_graph(f"builtin.module {{\n{r['ir']}\n}}")
            else:
                pair = pairs.get((r["structure"], r["op_key"]))
            if pair is not None and "measured_us" in r:
                seconds = program_cost(pair, SM_90, clusters=r["joined"]).seconds
                structure = r["structure"] + (" joined" if r["joined"] else "")
                point = (structure, seconds * 1e6, r["measured_us"])
                points[(r["structure"], r["name"])] = point
            continue
        if "op_key" in r:
            k: Any = (r["structure"], r["op_key"])
        else:
            k = key(r["structure"], r["grid"], r["block"][0], r["loops"])
        if k in ops and "measured_us" in r:
            v, types = ops[k]
            lowered = lowered_facts(v, SM_90)
            model = graph_op_cost(v, list(types), SM_90, lowered=lowered).seconds * 1e6
            points[k] = (r["structure"], model, r["measured_us"])
    regrets: list[float] = []
    for structure in sorted({p[0] for p in points.values()}):
        same = [p for p in points.values() if p[0] == structure]
        # tilings the model ties with its pick: the search may return any of them
        low = min(p[1] for p in same)
        pick = max((p for p in same if p[1] <= low * (1 + 1e-9)), key=lambda p: p[2])
        best = min(same, key=lambda p: p[2])
        regrets.append(pick[2] / best[2])
        print(
            f"{structure:32s} n={len(same):3d}  pick: model {pick[1]:8.2f} measured "
            f"{pick[2]:8.2f} us  best measured {best[2]:8.2f} us  ({pick[2] / best[2]:.2f}x)"
        )
    mean = math.exp(sum(math.log(r) for r in regrets) / len(regrets))
    print(
        f"{len(points)} tilings: the model's pick is {mean:.3f}x the best (geometric mean), "
        f"{max(regrets):.2f}x at worst"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", type=Path, nargs="+", help="DIR (--build, --time) or JSON files")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--build", action="store_true")
    mode.add_argument("--time", action="store_true")
    mode.add_argument("--compare", action="store_true")
    ap.add_argument("--pairs", action="store_true", help="--build: whole split-KV pairs")
    ap.add_argument("--per-structure", type=int, default=24)
    ap.add_argument("--only", default=None, help="structures whose name contains this")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.compare:
        compare(args.paths, args.only)
    elif args.build and args.pairs:
        build_pairs(args.paths[0], args.per_structure, args.only)
    elif args.build:
        build(args.paths[0], args.per_structure, args.only)
    else:
        time_all(args.paths[0], args.json)


if __name__ == "__main__":
    main()
