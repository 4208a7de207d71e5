"""mma.sync against wgmma matmuls for the same μGraphs, beside PyTorch in the same run.

    python3 benchmarks/wgmma_gpu.py [--samples N] [--no-graph] [--no-compile] [--case NAME ...]

Each case is built twice (`matmuls=mma-sync` and `matmuls=wgmma`, both with `loads=tma`,
sm_90a), checked against the float64 evaluation of its μGraph on fresh random inputs with
outputs poisoned, and timed by the method of docs/MEASURING.md; PyTorch runs the same
product (eager, and torch.compile unless --no-compile) on the same shapes in f16. The table
gives the median µs of each, the speed-up of wgmma over mma.sync, and the loads and
matmuls each build really used (a strategy that the tiles or the target cannot run falls
back, and the row says so). Needs one sm_90 GPU (an NVIDIA H200 for the figures in
benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.func import FuncOp

sys.path.insert(0, str(Path(__file__).parent))

from harness import (
    BenchCase,
    check_case,
    load_function,
    measure_program,
    measure_torch,
    torch_case_args,
)

from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime import CompiledProgram, TimingMethod, load

ROOT = Path(__file__).parent.parent
FOUND = ROOT / "benchmarks" / "found"
DATA = ROOT / "tests" / "lowering" / "data"


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    function: str
    torch: BenchCase | None = None
    """The PyTorch program of the benchmark; None: a plain product of the μGraph's two
    inputs."""


CASES = (
    Case("weight_stream 16x4096 @ 4096x8192", DATA / "tma.mlir", "stream"),
    Case("matmul 128x1024 @ 1024x512", DATA / "wgmma.mlir", "plain"),
    Case("matmul 256x512 @ 512x384, 2 warpgroups", DATA / "wgmma.mlir", "two_groups"),
    Case("matmul 24x768 @ 768x1536", DATA / "wgmma.mlir", "skinny"),
    Case(
        "rmsnorm_linear b1",
        FOUND / "rmsnorm_linear_b1.mlir",
        "ugraph",
        BenchCase.parse("rmsnorm_linear:b1"),
    ),
    Case(
        "rmsnorm_linear b8",
        FOUND / "rmsnorm_linear_b8.mlir",
        "ugraph",
        BenchCase.parse("rmsnorm_linear:b8"),
    ),
    Case("gqa b1", FOUND / "gqa_b1.mlir", "ugraph", BenchCase.parse("gqa:b1")),
    Case("gqa b8", FOUND / "gqa_b8.mlir", "ugraph", BenchCase.parse("gqa:b8")),
    Case("qknorm b8", FOUND / "qknorm_b8.mlir", "ugraph", BenchCase.parse("qknorm:b8")),
)


def used(program: CompiledProgram) -> str:
    """The loads and matmuls the built program really runs, read from its PTX."""
    loads = "tma" if any(k.tensor_maps for k in program.launches) else "cp-async"
    if "wgmma.mma_async" in program.ptx:
        matmuls = "wgmma"
    elif "mma.sync.aligned" in program.ptx:
        matmuls = "mma-sync"
    else:
        matmuls = "fma"
    return f"{loads}, {matmuls}"


def torch_us(case: Case, method: TimingMethod, compiled: bool) -> float:
    """PyTorch's median µs for the case's product, in f16."""
    import torch

    if case.torch is not None:
        fn: Callable[..., Any] = case.torch.function()
        args = torch_case_args(case.torch)
    else:
        graph = graph_from_func(_function(case))
        args = [torch.rand(t.shape, device="cuda", dtype=torch.float16) * 2 - 1 for t in graph.args]
        fn = torch.matmul
    return measure_torch(fn, args, method, compile=compiled).median_us


def _function(case: Case) -> FuncOp:
    return load_function(case.path, case.function)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="wgmma_gpu.py", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--no-graph", action="store_true", help="time plain calls, not graph replays")
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    ap.add_argument("--case", action="append", default=[], help="a case name (default: all)")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if not args.case or c.name in args.case]
    if not cases:
        print(f"error: no case named {', '.join(args.case)}", file=sys.stderr)
        return 1
    method = TimingMethod(samples=args.samples, graph=not args.no_graph)
    columns = ["case", "mma-sync µs", "wgmma µs", "wgmma speed-up", "eager µs"]
    if not args.no_compile:
        columns.append("torch.compile µs")
    columns += ["mma-sync build", "wgmma build", "max rel. err"]
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    for i, case in enumerate(cases):
        times: dict[str, float] = {}
        builds: dict[str, str] = {}
        err = 0.0
        for matmuls in ("mma-sync", "wgmma"):
            program = compile_function(_function(case), "sm_90a", loads="tma", matmuls=matmuls)
            builds[matmuls] = used(program)
            err = max(err, check_case(program, case, seed=200 + i))
            times[matmuls] = measure_program(load(program), method).median_us
        row = [
            case.name,
            f"{times['mma-sync']:.2f}",
            f"{times['wgmma']:.2f}",
            f"{times['mma-sync'] / times['wgmma']:.2f}x",
            f"{torch_us(case, method, False):.2f}",
        ]
        if not args.no_compile:
            row.append(f"{torch_us(case, method, True):.2f}")
        row += [builds["mma-sync"], builds["wgmma"], f"{err:.1e}"]
        print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
