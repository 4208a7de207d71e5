"""Check and time lowered functions on the GPU against the float64 reference evaluator.

    python3 benchmarks/check_programs.py prepare OUT_DIR FILE.mlir ... [--seed N] [--arch A]
    python3 benchmarks/check_programs.py run OUT_DIR [--no-time] [--samples N]

`prepare` (no GPU; needs the compiler: xdsl, llvmlite) lowers every kernel-dialect function
of each file to a CompiledProgram (OUT_DIR/NAME.json + .ptx) and saves the outputs of the
float64 reference evaluator on seeded random inputs, rounded to each argument's type
(OUT_DIR/NAME.npz). The inputs themselves are not saved (weights are large): `run` draws
them again from the same seed, and checks their sums against those `prepare` recorded.
`run` (GPU; needs only cuda-python and numpy) loads each program, runs it once with outputs
poisoned, compares with the reference (relative error in the 2-norm, under 1e-2 for
f16/bf16), times it by the method of docs/MEASURING.md, and prints one table row per
program; it exits 1 if any program fails.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mirage.lowering.runtime import CompiledProgram, TimingMethod, driver, load, time_program
from mirage.lowering.runtime.arrays import from_float, to_float32
from mirage.lowering.runtime.errors import CudaError
from mirage.lowering.runtime.gpu_run import compare
from mirage.lowering.runtime.program import ProgramError


def make_inputs(program: CompiledProgram, seed: int) -> list[np.ndarray[Any, Any]]:
    """Uniform in +-[0.25, 1] (never zeros), rounded to each input's type, as float64."""
    rng = np.random.default_rng(seed)
    inputs: list[np.ndarray[Any, Any]] = []
    for spec in program.inputs:
        mag = rng.uniform(0.25, 1.0, spec.shape) * rng.choice([-1.0, 1.0], spec.shape)
        inputs.append(to_float32(from_float(mag, spec.dtype), spec.dtype).astype(np.float64))
    return inputs


def prepare(out_dir: Path, files: Sequence[str], seed: int, arch: str) -> int:
    from xdsl.dialects.func import FuncOp

    from mirage.dialects.semantics import FloatDomain, evaluate
    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.lowering import compile_function
    from mirage.tools.mirage_run import load_module

    out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    for path in files:
        module = load_module(path)
        for func in (op for op in module.walk() if isinstance(op, FuncOp)):
            name = f"{Path(path).stem}.{func.sym_name.data}"
            try:
                program = compile_function(func, arch)
            except Exception as e:  # report every function, then fail at the end
                print(f"{path}: @{func.sym_name.data}: not lowered: {e}", file=sys.stderr)
                failures += 1
                continue
            inputs = make_inputs(program, seed)
            expected = evaluate(graph_from_func(func), inputs, FloatDomain(np.float64))
            program.save(out_dir / f"{name}.json")
            arrays = {f"ref{i}": y for i, y in enumerate(expected)}
            arrays["seed"] = np.array(seed)
            arrays["input_sums"] = np.array([x.sum() for x in inputs])
            np.savez(out_dir / f"{name}.npz", **arrays)  # pyright: ignore[reportArgumentType]
            print(f"{name}: {len(program.launches)} launches -> {out_dir / name}.json")
    return 1 if failures else 0


def run(out_dir: Path, timing: TimingMethod | None) -> int:
    device = driver.get_device()  # no GPU: one NoDeviceError line, not a row per program
    rows: list[str] = []
    failed = 0
    for path in sorted(out_dir.glob("*.json")):
        name = path.stem
        try:
            program = CompiledProgram.load(path)
            data = np.load(path.with_suffix(".npz"))
            inputs = make_inputs(program, int(data["seed"]))
            if not np.array_equal(np.array([x.sum() for x in inputs]), data["input_sums"]):
                raise OSError("inputs drawn here differ from prepare's (another numpy RNG?)")
            refs = [data[f"ref{i}"] for i in range(program.num_outputs)]
            loaded = load(program)
            host = [from_float(x, s.dtype) for x, s in zip(inputs, program.inputs, strict=True)]
            outs = loaded.run(host, poison=True)
        except (ProgramError, CudaError, OSError, KeyError) as e:
            rows.append(f"| {name} | - | - | FAILED: {e} |")
            failed += 1
            continue
        wide = [
            to_float32(o, s.dtype).astype(np.float64)
            for o, s in zip(outs, program.outputs, strict=True)
        ]
        errors = compare(wide, refs, [s.dtype for s in program.outputs])
        ok = all(good for _, good in errors)
        failed += not ok
        err = max(e for e, _ in errors)
        t = time_program(loaded, timing, inputs=host) if timing is not None and ok else None
        us = f"{t.median_us:.2f}" if t is not None else "-"
        verdict = "ok" if ok else "WRONG"
        rows.append(
            f"| {name} | {len(program.launches)} | {us} | {verdict}, rel. error {err:.1e}; "
            f"{loaded.image_source} |"
        )
    print(f"measured on one {device.name}")
    print("| program | launches | median µs | result |")
    print("| --- | --- | --- | --- |")
    print("\n".join(rows))
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="check_programs.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("out_dir", type=Path)
    p.add_argument("files", nargs="+")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--arch", default="sm_90a")
    r = sub.add_parser("run")
    r.add_argument("out_dir", type=Path)
    r.add_argument("--no-time", action="store_true")
    r.add_argument("--samples", type=int, default=50)
    args = ap.parse_args(argv)
    if args.command == "prepare":
        return prepare(args.out_dir, args.files, args.seed, args.arch)
    try:
        return run(args.out_dir, None if args.no_time else TimingMethod(samples=args.samples))
    except CudaError as e:
        print(f"check_programs.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
