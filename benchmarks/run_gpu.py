"""Time built programs and PyTorch baselines on the GPU by the method of docs/MEASURING.md.

    python3 benchmarks/run_gpu.py [--program [CASE=]FILE.json ...] [--baseline CASE ...]
        [--modes eager,compile,sdpa] [--samples N] [--no-graph] [--bandwidth] [--kernels]
        [--append benchmarks/RESULTS.md]

CASE is NAME[:TAG] of benchmarks/torch_programs.py (rmsnorm_linear:b1, gated_mlp, lora). A
program given with a case is first checked against that case's PyTorch program in float64
(fresh random inputs, outputs poisoned), then timed. Each line of the printed table is one
case, beside its floor (bytes over copy bandwidth) and the first baseline figures; a second
table puts each case on one line: floor, our fastest program, eager, torch.compile, SDPA
flash and the fastest of those over ours.

`--kernels` adds, per program, a line for each of its launches timed alone (the same method,
after one whole run has filled the intermediates it reads): the bytes of the buffers it
takes (each read or written at least once), the bandwidth that makes, and its SASS mix (the
program's cubin through cuobjdump). A case's line also gives the achieved TFLOP/s: the
PyTorch program's matmul flops over our time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import (
    DESIGN_H200,
    H200_COPY_BANDWIDTH,
    BenchCase,
    TimingMethod,
    case_bytes,
    case_flops,
    check_program,
    floor_us,
    measure_copy_bandwidth,
    measure_program,
    measure_torch,
    program_bytes,
    results_section,
    torch_case_args,
    torch_reference,
)
from sass import assemble, describe, sass_mix
from torch_programs import sdpa_args, sdpa_of

from mirage.lowering.runtime import (
    CompiledProgram,
    LoadedProgram,
    driver,
    load,
)
from mirage.lowering.runtime.errors import ArgumentError, CudaError
from mirage.lowering.runtime.program import ProgramError

MAX_REL_ERR = 1e-2


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


BASELINES = ("eager", "torch.compile", "SDPA flash")
SUMMARY_HEADER = [
    "case",
    "floor µs",
    "ours µs",
    *(f"{b} µs" for b in BASELINES),
    "ours vs best PyTorch",
]


def side_by_side(rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """One line a case, in the order the cases first appear: its floor, our fastest program
    that passed its check, each PyTorch baseline, and the fastest baseline's time over ours.
    `rows` as the main table's: case, what, floor µs, median µs, ..."""
    cases: dict[str, dict[str, str]] = {}
    for label, what, floor, median, *_ in rows:
        case = cases.setdefault(label, {"floor": floor})
        case["floor"] = case["floor"] or floor  # a failed program's line has none
        if not median:
            continue  # a program that failed its check has no time
        key = "ours" if what.startswith("ours") else what
        if key == "ours" and "ours" in case:
            median = min(case["ours"], median, key=float)
        case[key] = median
    out: list[list[str]] = []
    for label, case in cases.items():
        times = {b: float(case[b]) for b in BASELINES if b in case}
        ratio = ""
        if "ours" in case and times:
            best = min(times, key=times.__getitem__)
            ratio = f"{times[best] / float(case['ours']):.2f}x ({best})"
        cells = [case.get(k, "") for k in ("floor", "ours", *BASELINES)]
        out.append([label, *cells, ratio])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="run_gpu.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", action="append", default=[], metavar="[CASE=]FILE.json")
    ap.add_argument("--baseline", action="append", default=[], metavar="CASE")
    ap.add_argument("--modes", default="eager,compile", help="baseline modes (eager,compile,sdpa)")
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--no-graph", action="store_true", help="time plain calls, not graph replay")
    ap.add_argument("--bandwidth", action="store_true", help="measure copy bandwidth first")
    ap.add_argument("--kernels", action="store_true", help="time and describe each launch")
    ap.add_argument("--append", metavar="MD", help="append the table to this Markdown file")
    args = ap.parse_args(argv)

    method = TimingMethod(samples=args.samples, graph=not args.no_graph)
    try:
        device = driver.get_device()
    except CudaError as e:
        print(f"run_gpu.py: {e}", file=sys.stderr)
        return 1
    bandwidth = H200_COPY_BANDWIDTH
    notes: list[str] = []
    if args.bandwidth:
        bandwidth = measure_copy_bandwidth()
        notes.append(f"device-to-device copy bandwidth measured here: {bandwidth / 1e12:.2f} TB/s")

    header = ["case", "what", "floor µs", "median µs", "IQR µs", "earlier µs", "note"]
    rows: list[list[str]] = []
    kernel_header = ["case", "kernel", "grid x block, smem", "µs", "MB", "TB/s", "SASS"]
    kernel_rows: list[list[str]] = []

    for spec in args.program:
        case_text, _, path = spec.rpartition("=")
        try:
            program = CompiledProgram.load(path)
            loaded = load(program)
        except (ProgramError, CudaError) as e:
            print(f"run_gpu.py: {path}: {e}", file=sys.stderr)
            return 1
        note = loaded.image_source
        label = Path(path).stem
        if case_text:
            case = BenchCase.parse(case_text)
            label = case.label
            try:
                err = check_program(loaded, torch_reference(case))
            except (ArgumentError, CudaError) as e:
                print(f"run_gpu.py: {path}: {e}", file=sys.stderr)
                return 1
            ok = err < MAX_REL_ERR
            note += f"; rel. error {err:.1e} {'ok' if ok else 'TOO LARGE'}"
            if not ok:
                rows.append([label, "ours", "", "", "", "", note])
                continue
        t = measure_program(loaded, method)
        if case_text:
            case = BenchCase.parse(case_text)
            flops = case_flops(case)
            if flops:
                note += f"; {flops / t.median_us / 1e6:.1f} TFLOP/s"
        if args.kernels:
            kernel_rows += _kernel_rows(label, loaded, method)
        design = DESIGN_H200.get(label)
        rows.append(
            [
                label,
                f"ours ({Path(path).name})",
                f"{floor_us(program_bytes(program), bandwidth):.2f}",
                f"{t.median_us:.2f}",
                f"{t.spread_us:.2f}",
                "" if design is None else f"compile {design[2]}",
                note + f"; {t.copies} input copies",
            ]
        )

    modes = [m for m in args.modes.split(",") if m]
    for case_text in args.baseline:
        case = BenchCase.parse(case_text)
        tensors = torch_case_args(case)
        design = DESIGN_H200.get(case.label)
        for mode in modes:
            if mode == "sdpa":  # the attention cases through SDPA's FlashAttention kernel
                flash = sdpa_of(case.name)
                if flash is None:
                    continue
                t = measure_torch(flash, sdpa_args(case.name, tensors), method, compile=False)
                rows.append(
                    [
                        case.label,
                        "SDPA flash",
                        f"{floor_us(case_bytes(case), bandwidth):.2f}",
                        f"{t.median_us:.2f}",
                        f"{t.spread_us:.2f}",
                        "",
                        f"{t.copies} input copies",
                    ]
                )
                continue
            t = measure_torch(case.function(), tensors, method, compile=mode == "compile")
            ref = "" if design is None else f"{design[1 if mode == 'eager' else 2]}"
            rows.append(
                [
                    case.label,
                    "torch.compile" if mode == "compile" else "eager",
                    f"{floor_us(case_bytes(case), bandwidth):.2f}",
                    f"{t.median_us:.2f}",
                    f"{t.spread_us:.2f}",
                    ref,
                    f"{t.copies} input copies",
                ]
            )

    table = [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]
    table += ["", _row(SUMMARY_HEADER), _row(["---"] * len(SUMMARY_HEADER))]
    table += [_row(r) for r in side_by_side(rows)]
    how = (
        f"median of {method.samples} samples, "
        + (
            f"each a CUDA graph replay of >= {method.calls_per_sample} calls"
            if method.graph
            else "each one call"
        )
        + f", inputs rotated over copies spanning {method.l2_multiple:g}x L2"
    )
    print(f"measured on one {device.name}; {how}")
    for n in notes:
        print(n)
    if kernel_rows:
        table += ["", _row(kernel_header), _row(["---"] * len(kernel_header))]
        table += [_row(r) for r in kernel_rows]
    print("\n".join(table))
    if args.append:
        section = results_section(
            "run_gpu.py",
            device.name,
            sys.argv[1:] if argv is None else argv,
            f"{how}.",
            [*(f"{n}." for n in notes), "", *table, ""],
        )
        with open(args.append, "a") as f:
            f.write("\n".join(section))
    return 0


def _kernel_rows(label: str, loaded: LoadedProgram, method: TimingMethod) -> list[list[str]]:
    program = loaded.program

    try:  # assembled once for all the launches
        cubin: bytes | str = program.cubin or assemble(program.ptx, program.arch)
    except (OSError, subprocess.CalledProcessError) as e:
        cubin = f"no SASS: {e}"

    def sass(name: str) -> str:
        if isinstance(cubin, str):
            return cubin
        try:
            return describe(sass_mix(cubin, name))
        except (OSError, subprocess.CalledProcessError) as e:
            return f"no SASS: {e}"

    rows: list[list[str]] = []
    for i, launch in enumerate(program.launches):
        t = measure_program(loaded, method, only=i)
        taken = {*launch.args, *(m.buffer for m in launch.tensor_maps)}
        nbytes = sum(program.buffers[b].nbytes for b in taken)
        rows.append(
            [
                label,
                launch.name,
                f"{list(launch.grid)} x {list(launch.block)}, {launch.shared_bytes} B",
                f"{t.median_us:.2f}",
                f"{nbytes / 1e6:.2f}",
                f"{nbytes / t.median_us / 1e6:.2f}",
                sass(launch.name),
            ]
        )
    return rows


if __name__ == "__main__":
    sys.exit(main())
