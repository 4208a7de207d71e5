"""cp.async against TMA loads for the same μGraphs, beside the copy bandwidth of the run.

    python3 benchmarks/tma_gpu.py [--samples N] [--no-graph] [--case NAME ...]

Each case is built twice (`loads=cp-async` and `loads=tma`, sm_90a), checked against the
float64 evaluation of its μGraph on fresh random inputs with outputs poisoned, and timed by
the method of docs/MEASURING.md. The table gives the median µs of each, the bytes a call
moves (inputs and outputs), the bandwidth that makes, and its share of the device-to-device
copy bandwidth measured in the same run. A case whose TMA build falls back to cp.async (its
tiles do not suit tensor maps) says so. Needs one sm_90 GPU (an NVIDIA H200 for the
figures in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.func import FuncOp

sys.path.insert(0, str(Path(__file__).parent))

from harness import (
    check_case,
    floor_us,
    load_function,
    measure_copy_bandwidth,
    measure_program,
    program_bytes,
)

from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime import TimingMethod, load

ROOT = Path(__file__).parent.parent
UGRAPHS = ROOT / "benchmarks" / "ugraphs"
FOUND = ROOT / "benchmarks" / "found"
TMA_DATA = ROOT / "tests" / "lowering" / "data" / "tma.mlir"


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    function: str


CASES = (
    Case("weight_stream 16x4096 @ 4096x8192", TMA_DATA, "stream"),
    Case("weight_stream, 64x128 W tiles", TMA_DATA, "stream_wide"),
    Case("rmsnorm_linear b1", UGRAPHS / "rmsnorm_linear_b1.mlir", "ugraph"),
    Case("rmsnorm_linear b8", UGRAPHS / "rmsnorm_linear_b8.mlir", "ugraph"),
    Case("gated_mlp", UGRAPHS / "gated_mlp.mlir", "ugraph"),
    Case("rmsnorm_linear b1, found (512x48 W tiles)", FOUND / "rmsnorm_linear_b1.mlir", "ugraph"),
    Case("rmsnorm_linear b8, found (512x48 W tiles)", FOUND / "rmsnorm_linear_b8.mlir", "ugraph"),
    Case("gated_mlp, found (two 512x32 W tiles)", FOUND / "gated_mlp.mlir", "ugraph"),
)


def _function(case: Case) -> FuncOp:
    return load_function(case.path, case.function)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tma_gpu.py", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--no-graph", action="store_true", help="time plain calls, not graph replays")
    ap.add_argument("--case", action="append", default=[], help="a case name (default: all)")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if not args.case or c.name in args.case]
    if not cases:
        print(f"error: no case named {', '.join(args.case)}", file=sys.stderr)
        return 1
    method = TimingMethod(samples=args.samples, graph=not args.no_graph)
    bandwidth = measure_copy_bandwidth()
    print(f"device-to-device copy bandwidth measured here: {bandwidth / 1e12:.2f} TB/s")
    print()
    columns = ["case", "loads", "median µs", "MB moved", "TB/s", "of copy bandwidth"]
    columns += ["floor µs", "max rel. err"]
    print("| " + " | ".join(columns) + " |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for i, case in enumerate(cases):
        for loads in ("cp-async", "tma"):
            program = compile_function(_function(case), "sm_90a", loads=loads)
            used = "tma" if any(k.tensor_maps for k in program.launches) else "cp-async"
            label = loads if used == loads else f"{loads} (fell back to {used})"
            err = check_case(program, case, seed=100 + i)
            timing = measure_program(load(program), method)
            nbytes = program_bytes(program)
            us = timing.median_us
            achieved = nbytes / (us * 1e-6)
            print(
                f"| {case.name} | {label} | {us:.2f} | {nbytes / 1e6:.1f} | "
                f"{achieved / 1e12:.2f} | {100 * achieved / bandwidth:.0f} % | "
                f"{floor_us(nbytes, bandwidth):.2f} | {err:.1e} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
