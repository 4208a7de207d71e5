"""Search time and result of the superoptimize search on the benchmark programs.

    python benchmarks/search_bench.py [names...] [--workers 2] [--budget 600]
        [--max-block-ops 11] [--max-kernel-ops 2] [--no-seed] [--no-pruning] [--write]

For each program of `benchmarks/programs/` (default: all of them) it runs the search as the
`superoptimize` pass does (same defaults) and prints one row: wall time, whether the search
space was explored completely, states explored and pruned (by abstract expressions),
candidates, the best verified μGraph's kernels and its time by the cost model next to the
program's. With `--write`, the best μGraph goes to `benchmarks/found/<name>.mlir` beside the
program (functions @program and @ugraph), which the lit tests check for equivalence.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.passes.equivalence.verifier import SEARCH_OPTIONS, Verifier, VerifierOptions
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.interfaces import no_pruning
from mirage.passes.superoptimize.module_pass import SEARCH_TARGETS, PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions, SearchResult
from mirage.tools.registry import make_context

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
FOUND = HERE / "found"


def load(name: str) -> Graph:
    module = Parser(make_context(), (PROGRAMS / f"{name}.mlir").read_text()).parse_module()
    funcs = [op for op in module.ops if isinstance(op, FuncOp)]
    return graph_from_func(funcs[0])


def describe(graph: Graph) -> str:
    parts: list[str] = []
    for op in graph.ops:
        if op.kind == "graph":
            grid = "x".join(str(g) for g in op.ints_attr("grid"))
            parts.append(f"graph[grid {grid}, loop {op.int_attr('forloop_range')}]")
        else:
            parts.append(op.kind)
    return " + ".join(parts)


def write(name: str, program: Graph, result: SearchResult, options: SearchOptions) -> None:
    best = result.ranked[0]
    assert options.target is not None
    modelled = program_cost(program, options.target).seconds
    module = ModuleOp([func_from_graph("program", program), func_from_graph("ugraph", best.graph)])
    header = (
        f"// {name}: the best μGraph the search found (benchmarks/search_bench.py --write)\n"
        f"// target {options.target.name if options.target else ''}, max-kernel-ops "
        f"{options.max_kernel_ops}, max-block-ops {options.max_block_ops}, seed {options.seed}\n"
        f"// cost model: {best.seconds * 1e6:.2f} us (the program: {modelled * 1e6:.2f} us"
        f"{'' if result.baseline < math.inf else ', not finite in f16 storage'})"
        f"\n// {best.verdict}\n"
    )
    FOUND.mkdir(exist_ok=True)
    (FOUND / f"{name}.mlir").write_text(header + str(module) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=600.0)
    parser.add_argument("--max-block-ops", type=int, default=11)
    parser.add_argument("--max-kernel-ops", type=int, default=2)
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--no-seed", action="store_true")
    parser.add_argument(
        "--no-pruning", action="store_true", help="keep every prefix (no abstract expressions)"
    )
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = args.names or sorted(p.stem for p in PROGRAMS.glob("*.mlir"))
    rows: list[dict[str, object]] = []
    for name in names:
        program = load(name)
        options = SearchOptions(
            time_budget=args.budget,
            max_kernel_ops=args.max_kernel_ops,
            max_block_ops=args.max_block_ops,
            workers=args.workers,
            target=SEARCH_TARGETS[args.target],
            seed_with_program=not args.no_seed,
        )
        start = time.time()
        pruner = no_pruning if args.no_pruning else PrunerFactory(None)
        verifier = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS))
        result = Search(program, options, pruner, verifier).run()
        wall = time.time() - start
        best = result.ranked[0] if result.ranked else None
        row: dict[str, object] = {
            "name": name,
            "pruning": not args.no_pruning,
            "seeded": not args.no_seed,
            "seconds": round(wall, 1),
            "complete": result.complete,
            "explored": result.stats.get("explored", 0),
            "pruned": result.stats.get("pruned", 0),
            "candidates": result.stats.get("candidates", 0),
            "best_us": round(best.seconds * 1e6, 2) if best else None,
            "program_us": round(program_cost(program, options.target).seconds * 1e6, 2),
            "program_finite_f16": result.baseline < math.inf,
            "ugraph": describe(best.graph) if best else "-",
        }
        rows.append(row)
        sys.stdout.write(
            f"{name:18s} {wall:7.1f}s complete={result.complete!s:5s} "
            f"explored={row['explored']} pruned={row['pruned']} candidates={row['candidates']} "
            f"best={row['best_us']} us program={row['program_us']} us  {row['ugraph']}\n"
        )
        sys.stdout.flush()
        if args.write and best is not None:
            write(name, program, result, options)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
