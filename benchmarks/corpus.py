"""The corpus measurement: does the search reach an expert's launch count on programs as
PyTorch writes them?

    python benchmarks/corpus.py [NAME ...] [--budget 120] [--workers 2] [--size small]
        [--md FILE] [--json FILE] [--seed 0]
    python3 benchmarks/corpus.py --gpu [NAME ...] [--budget 120]     # one NVIDIA GPU
    python benchmarks/corpus.py --size f16 --save DIR                 # search here ...
    python3 benchmarks/corpus.py --gpu --load DIR                     # ... run there

For each program of `benchmarks/corpus/manifest.json` (default: all), the exported
linalg-on-tensors file is imported (`convert-linalg-to-kernel`) and superoptimized as
`superoptimize{time-budget=B workers=W}` does it. One row per program: kernel ops in, kernel
launches out (a retype launches nothing), the expert's count and whether it is reached, the
search's wall seconds, the cost model's µs before and after, and the largest relative error
of the result, evaluated in float32 by the reference evaluator, against the PyTorch module
in float64 on the same random inputs (it must stay below 1e-5; small shapes only). A
markdown table (for benchmarks/RESULTS.md) and a JSON record are written; a progress line
goes to stderr. A program that fails (its import, search or check) is a row with the error.

`--gpu` (the realistic f16 shapes by default) also lowers each found μGraph, runs it on the
GPU twice on fresh random inputs with its outputs poisoned against the PyTorch module in
float64, and times it, the eager module and torch.compile of the same module in the same
run, by the method of `harness.py` (its error, 2-norm relative, must stay below 1e-2 in
f16). Needs torch and torch-mlir; `--gpu` needs a CUDA device.

`--jobs N` measures N programs at once, each in a process of its own (each search keeps
its `--workers`). `--save DIR` writes each found μGraph (`DIR/NAME_SIZE.mlir`, with its
search seconds) and
`--load DIR` takes them from there instead of searching, so that the search can run on one
machine and the GPU measurement on another.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
sys.path.insert(0, str(HERE))

TOLERANCE = 1e-5


def _blocks() -> Any:
    """benchmarks/corpus/blocks.py (a file beside this script's own name)."""
    spec = importlib.util.spec_from_file_location("corpus_blocks", CORPUS / "blocks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_blocks"] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Row:
    name: str
    size: str
    expert: int
    ops_in: int = 0
    launches_in: int = 0
    launches_out: int = 0
    reached: bool = False
    search_s: float = 0.0
    model_us_before: float = 0.0
    model_us_after: float = 0.0
    rel_error: float = math.nan
    equal: bool = False
    error: str = ""
    result: str = ""
    gpu: dict[str, Any] = field(default_factory=lambda: dict[str, Any]())


def launches(graph: Any) -> int:
    from mirage.passes.superoptimize.cost import RETYPES

    return sum(1 for op in graph.ops if op.kind not in RETYPES)


def describe(graph: Any) -> str:
    parts: list[str] = []
    for op in graph.ops:
        if op.kind == "graph":
            grid = "x".join(str(g) for g in op.ints_attr("grid"))
            parts.append(f"graph[{grid}, loop {op.int_attr('forloop_range')}]")
        else:
            parts.append(op.kind)
    return " + ".join(parts)


def import_program(path: Path, name: str) -> Any:
    """The kernel-dialect function of the exported file."""
    from xdsl.dialects.func import FuncOp

    from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
    from mirage.tools.from_torch import parse_linalg
    from mirage.tools.registry import make_context

    module = parse_linalg(path.read_text())
    ConvertLinalgToKernelPass().apply(make_context(), module)
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
    return funcs.get(f"{name}_kernel", funcs[name])


def superoptimize(func: Any, args: argparse.Namespace) -> Any:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp

    from mirage.passes.superoptimize.module_pass import SuperoptimizePass
    from mirage.tools.registry import make_context

    module = ModuleOp([func.clone()])
    SuperoptimizePass(
        time_budget=args.budget,
        workers=args.workers,
        seed=args.seed,
        target=args.target,
        normalize=not args.no_normalize,
    ).apply(make_context(), module)
    return next(op for op in module.ops if isinstance(op, FuncOp))


SEARCH_SECONDS = "// search seconds: "


def write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    partial.replace(path)


def save_found(path: Path, func: Any, seconds: float) -> None:
    """The found μGraph as a module of its own, its search time in a header line."""
    from io import StringIO

    from xdsl.dialects.builtin import ModuleOp
    from xdsl.printer import Printer

    path.parent.mkdir(parents=True, exist_ok=True)
    out = StringIO()
    Printer(stream=out).print_op(ModuleOp([func.clone()]))
    text = f"{SEARCH_SECONDS}{seconds:.1f}\n{out.getvalue()}\n"
    write_atomically(path, text)  # never a half-written file where a reader looks


def load_found(path: Path, name: str) -> tuple[Any, float]:
    """The μGraph `save_found` wrote and the seconds its search took."""
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.tools.registry import make_context

    if not path.is_file():
        raise FileNotFoundError(f"no saved μGraph for {name} at {path}")
    text = path.read_text()
    head = text.splitlines()[0] if text else ""
    seconds = float(head[len(SEARCH_SECONDS) :]) if head.startswith(SEARCH_SECONDS) else math.nan
    module = Parser(make_context(), text, str(path)).parse_module()
    func = next(op for op in module.ops if isinstance(op, FuncOp))
    func.detach()
    return func, seconds


def torch_outputs(blocks: Any, block: Any, size: str, seed: int) -> tuple[list[Any], list[Any]]:
    """Random inputs (float64) and the module's outputs on them, in float64."""
    import torch

    dims = "small" if size == "small" else "realistic"
    module, tensors, _ = blocks.random_like_inputs(block, dims, torch.float64, seed)
    with torch.no_grad():
        out = module(*tensors)
    outs = out if isinstance(out, tuple) else (out,)
    return [t.numpy() for t in tensors], [o.numpy() for o in outs]


def relative_error(graph: Any, inputs: Sequence[Any], want: Sequence[Any]) -> float:
    """Largest max-norm relative error of any output of `graph`, evaluated in float32."""
    from mirage.dialects.semantics import FloatDomain, evaluate

    got = evaluate(graph, [np.asarray(x, np.float32) for x in inputs], FloatDomain(np.float32))
    worst = 0.0
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g, np.float64).reshape(w.shape)
        if not np.isfinite(g).all():
            return math.inf
        worst = max(worst, float(np.max(np.abs(g - w)) / max(np.max(np.abs(w)), 1e-30)))
    return worst


def measure(blocks: Any, entry: dict[str, Any], name: str, args: argparse.Namespace) -> Row:
    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.passes.superoptimize.cost import program_cost
    from mirage.passes.superoptimize.module_pass import SEARCH_TARGETS

    size = args.size
    row = Row(name, size, int(entry["expert"]))
    target = SEARCH_TARGETS[args.target]
    try:
        func = import_program(CORPUS / entry[size]["file"], name)
        before = graph_from_func(func)
        row.ops_in = len(before.ops)
        row.launches_in = launches(before)
        row.model_us_before = program_cost(before, target).seconds * 1e6
        saved = (args.load or args.save or Path()) / f"{name}_{size}.mlir"
        if args.load:
            found, row.search_s = load_found(saved, name)
        else:
            start = time.monotonic()
            found = superoptimize(func, args)
            row.search_s = time.monotonic() - start
            if args.save:
                save_found(saved, found, row.search_s)
        after = graph_from_func(found)
        row.launches_out = launches(after)
        row.reached = row.launches_out <= row.expert
        row.model_us_after = program_cost(after, target).seconds * 1e6
        row.result = describe(after)
        if size == "small":
            inputs, want = torch_outputs(blocks, blocks.block(name), size, args.seed + 1)
            row.rel_error = relative_error(after, inputs, want)
            row.equal = row.rel_error < TOLERANCE
        if args.gpu:
            row.gpu = measure_gpu(blocks, blocks.block(name), found, size, args.seed + 2)
            if size != "small":  # the realistic shapes are checked on the GPU only
                row.rel_error = row.gpu["rel_error"]
                row.equal = row.gpu["correct"]
    except Exception as e:  # one program's failure is its row, not the end of the run
        row.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return row


def measure_gpu(blocks: Any, block: Any, found: Any, size: str, seed: int) -> dict[str, Any]:
    """The found μGraph lowered and run on the GPU (twice, fresh inputs, outputs poisoned)
    against the module in float64; its time, the eager module's and torch.compile's."""
    import torch
    from harness import check_program, measure_program, measure_torch

    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime import load
    from mirage.lowering.runtime.arrays import from_float

    dims = "small" if size == "small" else "realistic"
    dtype = torch.float32 if size == "small" else torch.float16
    program = compile_function(found, "sm_90a")
    loaded = load(program)
    ref_module, _, _ = blocks.random_like_inputs(block, dims, torch.float64, seed)
    ref_module = ref_module.cuda()

    def reference(inputs: Sequence[Any]) -> list[Any]:
        with torch.no_grad():
            out = ref_module(*(torch.from_numpy(np.ascontiguousarray(x)).cuda() for x in inputs))
        outs = out if isinstance(out, tuple) else (out,)
        return [o.double().cpu().numpy() for o in outs]

    def drawn(k: int) -> list[Any]:
        # the module's own kind of values (weights scaled by their fan-in), fresh per run
        _, args, _ = blocks.random_like_inputs(block, dims, torch.float64, seed + 10 + k)
        return [
            from_float(a.numpy(), spec.dtype) for a, spec in zip(args, program.inputs, strict=True)
        ]

    errors = [check_program(loaded, reference, inputs=drawn(k)) for k in range(2)]
    module, tensors, _ = blocks.random_like_inputs(block, dims, dtype, seed)
    module = module.cuda()
    cuda_args = [t.cuda() for t in tensors]
    # The corpus's modules share one forward: without a reset, Dynamo's recompile limit
    # would silently leave the later programs' torch.compile figures as eager ones.
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    with torch.no_grad():
        ours = measure_program(loaded).median_us
        eager = measure_torch(module, cuda_args).median_us
        compiled = measure_torch(module, cuda_args, compile=True).median_us
    tol = 1e-2 if dtype == torch.float16 else 1e-4
    return {
        "rel_error": max(errors),
        "correct": all(e < tol for e in errors),
        "us": ours,
        "eager_us": eager,
        "compile_us": compiled,
    }


def _fmt(x: float, digits: int = 2) -> str:
    return "—" if math.isnan(x) else f"{x:.{digits}f}"


def markdown(rows: Sequence[Row], args: argparse.Namespace) -> str:
    head = [
        "| program | ops in | launches in | launches out | expert | reached | search s "
        "| model µs before | model µs after | rel. error | μGraph |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines = list(head)
    for r in rows:
        if r.error:
            lines.append(
                f"| {r.name} | {r.ops_in or '—'} | {r.launches_in or '—'} | — | {r.expert} "
                f"| no | {_fmt(r.search_s, 0)} | — | — | — | error: {r.error} |"
            )
            continue
        if math.isnan(r.rel_error):
            err = "not checked"
        else:
            err = f"{r.rel_error:.1e}" + ("" if r.equal else " (not equal)")
        lines.append(
            f"| {r.name} | {r.ops_in} | {r.launches_in} | {r.launches_out} | {r.expert} "
            f"| {'yes' if r.reached else 'no'} | {r.search_s:.0f} | {_fmt(r.model_us_before)} "
            f"| {_fmt(r.model_us_after)} | {err} | {r.result} |"
        )
    reached = sum(r.reached for r in rows)
    equal = sum(r.equal for r in rows)
    checked = sum(not math.isnan(r.rel_error) for r in rows)
    lines.append("")
    if checked:
        bound = f"{TOLERANCE:g}" if args.size == "small" else "1e-2, on the GPU"
        compared = (
            f"{equal} of {checked} checked evaluate equal to PyTorch (relative error below "
            f"{bound})."
        )
    else:
        compared = "none checked (realistic shapes are checked on the GPU: --gpu)."
    lines.append(f"{reached} of {len(rows)} programs reach their expert launch count; {compared}")
    if any(r.gpu for r in rows):
        lines += [
            "",
            "| program | GPU rel. error | correct | µs | eager µs | torch.compile µs |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            g = r.gpu
            if g:
                lines.append(
                    f"| {r.name} | {g['rel_error']:.1e} | {'yes' if g['correct'] else 'no'} "
                    f"| {g['us']:.2f} | {g['eager_us']:.2f} | {g['compile_us']:.2f} |"
                )
    return "\n".join(lines) + "\n"


def _in_parallel(
    names: Sequence[str], args: argparse.Namespace, argv: Sequence[str] | None
) -> Iterator[Row]:
    """The rows of `names`, in order, each measured by a run of this script of its own,
    `args.jobs` at a time (each run's rows come back through a JSON file)."""
    import subprocess
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    own = list(sys.argv[1:] if argv is None else argv)
    keep: list[str] = []
    skip = False
    for a in own:  # the options, without the program names, --jobs and the outputs
        if skip:
            skip = False
            continue
        if a in ("--jobs", "--json", "--md"):
            skip = True
            continue
        if a.startswith(("--jobs=", "--json=", "--md=")) or a in names:
            continue
        keep.append(a)
    with tempfile.TemporaryDirectory() as tmp:

        def one(name: str) -> Row:
            out = Path(tmp) / f"{name}.json"
            cmd = [sys.executable, __file__, name, *keep, "--json", str(out)]
            done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0 or not out.exists():
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                return Row(name, args.size, 0, error=f"the run failed: {last}")
            return Row(**json.loads(out.read_text())[0])

        with ThreadPoolExecutor(args.jobs) as pool:
            yield from pool.map(one, names)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="programs (default: the whole corpus)")
    parser.add_argument("--budget", type=float, default=120.0, help="search seconds each")
    parser.add_argument(
        "--no-normalize",
        action="store_true",
        help="search the programs with their layout ops (superoptimize{normalize=false})",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="programs measured at once, each in a process of its own (on a machine with "
        "cores to spare; each search still uses --workers)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--size", choices=("small", "f16"), default=None)
    parser.add_argument("--gpu", action="store_true", help="also run and time on the GPU")
    parser.add_argument("--md", type=Path, help="write the markdown table here")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    found = parser.add_mutually_exclusive_group()
    found.add_argument("--save", type=Path, help="write the found μGraphs into this folder")
    found.add_argument(
        "--load", type=Path, help="take the found μGraphs from this folder (no search)"
    )
    args = parser.parse_args(argv)
    args.size = args.size or ("f16" if args.gpu else "small")
    manifest: dict[str, dict[str, Any]] = json.loads((CORPUS / "manifest.json").read_text())
    unknown = [n for n in args.names if n not in manifest]
    if unknown:
        print(f"error: no corpus program named {', '.join(unknown)}", file=sys.stderr)
        return 1
    if args.gpu:
        try:
            import torch

            if not torch.cuda.is_available():
                raise RuntimeError
        except (ImportError, RuntimeError):
            print("error: --gpu needs torch with a CUDA device", file=sys.stderr)
            return 1
    blocks = _blocks()
    names = args.names or list(manifest)
    rows: list[Row] = []

    def one_by_one() -> Iterator[Row]:
        for k, name in enumerate(names):
            print(f"[{k + 1}/{len(names)}] {name} ...", file=sys.stderr, flush=True)
            yield measure(blocks, manifest[name], name, args)

    measured = _in_parallel(names, args, argv) if args.jobs > 1 else one_by_one()
    for k, (name, row) in enumerate(zip(names, measured, strict=True)):
        rows.append(row)
        state = row.error or (
            f"{row.launches_in} -> {row.launches_out} launches (expert {row.expert}), "
            f"{row.search_s:.0f} s, error {row.rel_error:.1e}"
        )
        print(f"[{k + 1}/{len(names)}] {name}: {state}", file=sys.stderr, flush=True)
        if args.json:  # the rows so far, whole, so that a run cut short keeps them
            write_atomically(args.json, json.dumps([asdict(r) for r in rows], indent=1) + "\n")
        if args.md:
            write_atomically(args.md, markdown(rows, args))
    table = markdown(rows, args)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
