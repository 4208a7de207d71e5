"""Correctness and speed of lowered μGraphs on a GPU, in one run.

    python benchmarks/lowering_gpu.py --build DIR        # CPU: lower every case to PTX
    python3 benchmarks/lowering_gpu.py --check DIR [--time] [--sass]   # GPU machine

`--build` writes, per case, the built program (DIR/NAME.json, PTX inside) and its μGraph in
the search model (DIR/NAME.pkl) with the input scale to test it at. `--check` needs only
numpy, cuda-python and this checkout (no xdsl, no llvmlite): every case runs twice on fresh
random inputs, outputs poisoned first, against the float64 evaluation of the μGraph on the
same inputs (rounded as the GPU saw them); relative error (2-norm) must stay under 1e-2 when
any tensor is f16/bf16, else 1e-4. `--time` times the benchmark cases as docs/MEASURING.md did
(CUDA-graph replay, rotated inputs, median); `--sass` assembles them with the machine's ptxas
and counts the SASS instructions by kind.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "ugraphs"))

from sass import assemble, describe, sass_mix  # noqa: E402

BENCH_LABELS = {
    "rmsnorm_linear_b1": "rmsnorm_linear b1",
    "rmsnorm_linear_b8": "rmsnorm_linear b8",
    "gated_mlp": "gated_mlp",
    "lora": "lora",
    "gqa_b1": "gqa b1",
    "gqa_b8": "gqa b8",
    "qknorm_b1": "qknorm b1",
    "qknorm_b8": "qknorm b8",
    "ntrans_b1": "ntrans b1",
    "ntrans_b8": "ntrans b8",
}
TARGET_US = {
    "rmsnorm_linear b1": 14.9,
    "rmsnorm_linear b8": 14.9,
    "gated_mlp": 19.9,
    "gqa b1": 8.0,
    "gqa b8": 15.0,
    "lora": 5.0,
    # the best PyTorch baseline of docs/MEASURING.md (torch.compile, or SDPA for attention)
    "qknorm b1": 21.2,
    "qknorm b8": 49.7,
    "ntrans b1": 2.3,
    "ntrans b8": 3.2,
}


# --- building (CPU, with xdsl and llvmlite) ---------------------------------------------


def _variants(gen: Any) -> dict[str, tuple[str, Any]]:
    """Tilings of the benchmark μGraphs to time against each other: name -> (label, graph)."""
    out: dict[str, tuple[str, Any]] = {}
    for depth in (12, 16):
        out[f"var_rmsnorm_linear_b1_n64_k64_t128_stages{depth}"] = (
            "rmsnorm_linear b1",
            gen.rmsnorm_linear(2, 4096, 6144, nt=64, kt=64),
        )
    for depth in (8, 9):
        out[f"var_rmsnorm_linear_b8_splitk_n128_s2_t256_stages{depth}"] = (
            "rmsnorm_linear b8",
            gen.rmsnorm_linear_splitk(16, 4096, 6144, nt=128, ksplit=2, threads=256),
        )
    for depth in (10,):
        out[f"var_gated_mlp_splitk_n64_s2_t256_stages{depth}"] = (
            "gated_mlp",
            gen.gated_mlp_splitk(8, 4096, 4096, nt=64, ksplit=2, threads=256),
        )
    for b, rows in (("b1", 2), ("b8", 16)):
        for nt, kt, th in ((64, 64, 128), (64, 32, 128), (32, 64, 64), (64, 64, 64)):
            out[f"var_rmsnorm_linear_{b}_n{nt}_k{kt}_t{th}"] = (
                f"rmsnorm_linear {b}",
                gen.rmsnorm_linear(rows, 4096, 6144, nt=nt, kt=kt, threads=th),
            )
    out["var_rmsnorm_linear_b8_splitk_n128_s2_t256"] = (
        "rmsnorm_linear b8",
        gen.rmsnorm_linear_splitk(16, 4096, 6144, nt=128, ksplit=2, threads=256),
    )
    for nt, kt, th in ((64, 64, 128), (32, 64, 64)):
        out[f"var_gated_mlp_n{nt}_k{kt}_t{th}"] = (
            "gated_mlp",
            gen.gated_mlp(8, 4096, 4096, nt=nt, kt=kt, threads=th),
        )
    out["var_gated_mlp_splitk_n64_s2_t256"] = (
        "gated_mlp",
        gen.gated_mlp_splitk(8, 4096, 4096, nt=64, ksplit=2, threads=256),
    )
    for mp, sp, th, part in (
        (2, 8, 256, "f32"),
        (2, 8, 256, "bf16"),
        (2, 4, 256, "bf16"),
        (1, 8, 512, "bf16"),
    ):
        out[f"var_gqa_b8_m{mp}_s{sp}_t{th}_{part}"] = (
            "gqa b8",
            gen.gqa(16, 256, 64, 4096, mparts=mp, splits=sp, threads=th, partial=part),
        )
    for mp, sp, th, part in ((4, 16, 128, "bf16"), (2, 16, 256, "bf16")):
        out[f"var_gqa_b1_m{mp}_s{sp}_t{th}_{part}"] = (
            "gqa b1",
            gen.gqa(2, 256, 64, 4096, mparts=mp, splits=sp, threads=th, partial=part),
        )
    return out


def _cases() -> list[tuple[str, Any, float, str]]:
    """(name, graph, input scale, input sign: 'any' or 'positive')."""
    import generate as gen  # pyright: ignore[reportMissingImports]
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.registry import make_context

    ctx = make_context()
    out: list[tuple[str, Any, float, str]] = []

    def from_file(path: Path, prefix: str, scale: float, sign: str = "any") -> None:
        module = Parser(ctx, path.read_text()).parse_module()
        for op in module.ops:
            if isinstance(op, FuncOp):
                out.append((f"{prefix}_{op.sym_name.data}", graph_from_func(op), scale, sign))

    fixtures = HERE.parent / "tests" / "fixtures"
    for name in ("rmsnorm_linear", "rmsnorm_linear_small"):
        from_file(fixtures / f"{name}.mlir", name, 1.0)
    for name in ("attention", "attention_small"):
        from_file(fixtures / f"{name}.mlir", name, 0.5)
    ops = HERE.parent / "tests" / "lowering" / "data"
    for path in sorted(ops.glob("*.mlir")):
        sign = "positive" if "positive" in path.stem else "any"
        # attention: exp(q k) must stay within f16 (|q k| < 11)
        from_file(path, path.stem, 0.5 if path.stem == "chain" else 1.0, sign)
    for name, graph in gen.BENCHMARKS.items():
        out.append((name, graph, 0.5 if name.startswith("gqa") else 1.0, "any"))
    extra = {
        "rmsnorm_linear_small": gen.rmsnorm_linear(4, 64, 96, nt=32, kt=32),
        "rmsnorm_linear_odd": gen.rmsnorm_linear(3, 40, 24, nt=8, kt=8),
        "rmsnorm_linear_bf16": gen.rmsnorm_linear(16, 512, 384, nt=48, kt=64, dtype="bf16"),
        "rmsnorm_linear_splitk": gen.rmsnorm_linear_splitk(
            4, 256, 192, nt=64, ksplit=2, kt=32, nt2=32
        ),
        "gated_mlp_splitk_bf16": gen.gated_mlp_splitk(
            8, 256, 256, nt=64, ksplit=2, kt=32, nt2=32, dtype="bf16"
        ),
        "gqa_chain_odd_rows": gen.gqa(
            2, 40, 32, 256, mparts=1, splits=2, kt=32, rows2=8, threads=96
        ),
        "gated_mlp_small": gen.gated_mlp(4, 64, 96, nt=32, kt=32),
        "gated_mlp_odd": gen.gated_mlp(3, 24, 40, nt=8, kt=8),
        "gated_mlp_bf16": gen.gated_mlp(8, 256, 256, nt=32, kt=64, dtype="bf16"),
        "lora_small": gen.lora(4, 32, 48, 4, nt=16),
        "lora_odd": gen.lora(3, 20, 28, 5, nt=4),
        "gqa_small": gen.gqa(2, 8, 16, 32, mparts=1, splits=2, kt=16, rows2=4),
        "gqa_odd": gen.gqa(3, 5, 12, 20, mparts=1, splits=2, kt=5, rows2=5),
        "gqa_bf16": gen.gqa(2, 64, 64, 512, mparts=2, splits=4, kt=64, rows2=4, dtype="bf16"),
    }
    for name, graph in extra.items():
        out.append((f"gen_{name}", graph, 0.5 if "gqa" in name else 1.0, "any"))
    for name, (_, graph) in _variants(gen).items():
        out.append((name, graph, 0.5 if "gqa" in name else 1.0, "any"))
    # What the superoptimize search found (benchmarks/search_bench.py --write).
    for path in sorted((HERE / "found").glob("*.mlir")):
        module = Parser(ctx, path.read_text()).parse_module()
        for op in module.ops:
            if isinstance(op, FuncOp) and op.sym_name.data == "ugraph":
                attention = path.stem.startswith(("gqa", "qknorm"))
                out.append(
                    (f"found_{path.stem}", graph_from_func(op), 0.5 if attention else 1.0, "any")
                )
    return out


def _label(name: str) -> str | None:
    name = name.removesuffix("_longptr").removesuffix("_cpasync").removesuffix("_bf16")
    name = name.split("_stages")[0]
    name = name.removeprefix("found_")
    if name in BENCH_LABELS:
        return BENCH_LABELS[name]
    if name.startswith("var_"):
        for key, label in BENCH_LABELS.items():
            if name[4:].startswith(key.rsplit("_", 1)[0] if key[-2:] in ("b1", "b8") else key):
                tag = label.rsplit(" ", 1)[-1]
                if label.count(" ") == 0 or f"_{tag}_" in name:
                    return label
    return None


def build(directory: Path, arch: str, only: str | None, suffix: str = "") -> None:
    from mirage.dialects.ugraph.to_ir import func_from_graph
    from mirage.lowering.ptx.compile import compile_function

    directory.mkdir(parents=True, exist_ok=True)
    for name, graph, scale, sign in _cases():
        if only and only not in name:
            continue
        func = func_from_graph("f", graph)
        if "_stages" in name:  # a forced pipeline depth, as plan-ugraph's mirage.stages
            from xdsl.dialects.builtin import IntegerAttr, i64

            depth = int(name.rsplit("_stages", 1)[1])
            for op in func.walk():
                if op.name == "kernel.graph":
                    op.attributes["mirage.stages"] = IntegerAttr(depth, i64)
        program = compile_function(func, arch)
        name += suffix
        (directory / f"{name}.json").write_text(program.to_json())
        with open(directory / f"{name}.pkl", "wb") as f:
            pickle.dump({"graph": graph, "scale": scale, "sign": sign}, f)
        print(f"built {name}: {len(program.launches)} kernel(s)", file=sys.stderr)


# --- checking (GPU machine: numpy, cuda-python, this checkout) ----------------------------


def _inputs(specs: list[Any], rng: np.random.Generator, scale: float, sign: str) -> list[Any]:
    out = []
    for spec in specs:
        mag = rng.uniform(0.25, 1.0, size=spec.shape) * scale
        if sign == "any":
            mag = mag * rng.choice(np.array([-1.0, 1.0]), size=spec.shape)
        out.append(mag)
    return out


def _tolerance(graph: Any) -> float:
    def dtypes(g: Any) -> set[str]:
        found = {t.dtype for t in g.args}
        for op in g.ops:
            found |= {t.dtype for t in op.results}
            if op.body is not None:
                found |= dtypes(op.body)
        return found

    return 1e-2 if dtypes(graph) & {"f16", "bf16"} else 1e-4


def check(directory: Path, do_time: bool, do_sass: bool, only: str | None, out: Path | None) -> int:
    from mirage.dialects.semantics import FloatDomain, evaluate
    from mirage.lowering.runtime.arrays import from_float
    from mirage.lowering.runtime.gpu_run import run_program
    from mirage.lowering.runtime.loader import load
    from mirage.lowering.runtime.program import CompiledProgram
    from mirage.lowering.runtime.timing import TimingMethod, time_program

    rng = np.random.default_rng(20261129)
    failures = 0
    report: dict[str, Any] = {}
    rows: list[str] = []
    for path in sorted(directory.glob("*.json")):
        name = path.stem
        if only and only not in name:
            continue
        program = CompiledProgram.from_json(path.read_text())
        meta = pickle.loads(path.with_suffix(".pkl").read_bytes())
        graph = meta["graph"]
        tol = _tolerance(graph)
        errors: list[float] = []
        entry: dict[str, Any] = {}
        try:
            for _ in range(2):
                inputs = _inputs(list(program.inputs), rng, meta["scale"], meta["sign"])
                result = run_program(program, inputs)
                ref = evaluate(graph, result.inputs, FloatDomain(np.float64))
                for got, want in zip(result.outputs, ref, strict=True):
                    want = np.asarray(want, dtype=np.float64)
                    if not np.isfinite(got).all():
                        errors.append(float("nan"))
                        continue
                    scale = float(np.linalg.norm(want)) or 1.0
                    errors.append(float(np.linalg.norm(got - want)) / scale)
        except Exception as e:  # report and go on with the other cases
            entry["error"] = f"{type(e).__name__}: {e}"
            errors.append(float("nan"))
        worst = max(errors) if errors else float("nan")
        ok = bool(np.isfinite(worst) and worst < tol)
        failures += 0 if ok else 1
        entry.update({"max_rel_err": worst, "tolerance": tol, "ok": ok})
        line = f"{name:34s} {'ok  ' if ok else 'FAIL'} err {worst:.2e} (tol {tol:.0e})"
        if "error" in entry:
            line += f"  {entry['error'][:200]}"
        label = _label(name)
        if label and do_time and ok:
            loaded = load(program)
            host = [
                from_float(x, s.dtype)
                for x, s in zip(
                    _inputs(list(program.inputs), rng, meta["scale"], meta["sign"]),
                    program.inputs,
                    strict=True,
                )
            ]
            timing = time_program(loaded, TimingMethod(), inputs=host)
            entry["median_us"] = timing.median_us
            entry["samples_us"] = list(timing.samples_us)
            line += f"  {timing.median_us:7.2f} us (target {TARGET_US[label]})"
        if label and do_sass and not name.startswith("var_"):
            try:
                entry["sass"] = sass_mix(assemble(program.ptx, program.arch))
                line += f"\n    SASS: {describe(entry['sass'])}"
            except Exception as e:
                entry["sass_error"] = str(e)
        print(line, flush=True)
        rows.append(line)
        report[name] = entry
    print(f"{len(report) - failures} passed, {failures} failed")
    if out is not None:
        out.write_text(json.dumps(report, indent=1))
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory", type=Path)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--build", action="store_true")
    mode.add_argument("--check", action="store_true")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--only", default=None, help="cases whose name contains this")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--sass", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="write the full report here")
    ap.add_argument("--suffix", default="", help="appended to the names of built cases")
    args = ap.parse_args()
    if args.build:
        build(args.directory, args.arch, args.only, args.suffix)
        return 0
    return check(args.directory, args.time, args.sass, args.only, args.json)


if __name__ == "__main__":
    sys.exit(main())
