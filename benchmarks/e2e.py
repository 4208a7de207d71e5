"""The end-to-end benchmark: PyTorch modules through `torch.compile(backend="mirage")`.

    python3 benchmarks/e2e.py [--cases gqa:b1,...] [--search] [--time-budget S]
        [--budget S] [--samples N] [--modes eager,compile,max-autotune] [--no-write]

For each of the six benchmark programs at batch 1 and 8 (lora and gated_mlp: their one
shape), in float16 on one GPU: the module through the backend, checked against the same
module in float64 on fresh inputs with the backend's outputs poisoned (NaN in the caching
allocator's free memory, so an unwritten element fails), then timed beside eager PyTorch,
torch.compile (default and max-autotune) and, for the attention programs, SDPA with the
FlashAttention backend on K stored (b, n, d). Then a decode step of a small Llama-style
block (RMSNorm with gain, QKV projection, attention over a KV cache of 4096, output
projection, SwiGLU MLP, residuals) against eager and torch.compile.

Every figure comes from one harness in one process (`harness.measure_torch`: CUDA-graph
replay of many calls, inputs rotated over copies spanning 3x L2, medians), beside the
floor: bytes over the copy bandwidth and flops over the f16 matmul rate, both measured in
this run. Writes the table into benchmarks/RESULTS.md, every figure into
benchmarks/e2e.json and a bar chart (speedup over the best PyTorch) into benchmarks/e2e.png
when matplotlib is there. Subgraphs whose μGraph is in benchmarks/found are re-tiled from
it and verified; others are searched for at most --time-budget seconds (the results cache
answers later runs); --search searches every subgraph in full. The whole run keeps to
--budget seconds (default 480): what is left out for want of time is said in the table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402
from harness import (  # noqa: E402
    BenchCase,
    TimingMethod,
    flops_of,
    measure_copy_bandwidth,
    measure_torch,
    torch_case_args,
)
from torch import Tensor, nn  # noqa: E402
from torch_programs import PROGRAMS, SHAPES, rms_norm, sdpa_args, sdpa_of  # noqa: E402

from mirage.tools.from_torch import MissingTorchError, check_importer  # noqa: E402

CASES = [
    "gqa:b1",
    "gqa:b8",
    "qknorm:b1",
    "qknorm:b8",
    "rmsnorm_linear:b1",
    "rmsnorm_linear:b8",
    "lora:bench",
    "gated_mlp:bench",
    "ntrans:b1",
    "ntrans:b8",
]
MAX_REL_ERR = 2e-2
"""float16 storage with float32 accumulation against float64: a few ulps of f16 on the
output's norm (eager PyTorch's own error on these programs is of that order)."""


# --- progress ----------------------------------------------------------------------------


class Progress:
    def __init__(self, total: int, budget: float) -> None:
        self.total = total
        self.done = 0
        self.began = time.time()
        self.budget = budget

    @property
    def elapsed(self) -> float:
        return time.time() - self.began

    @property
    def left(self) -> float:
        return self.budget - self.elapsed

    def step(self, what: str) -> None:
        width = 30
        filled = int(width * self.done / max(1, self.total))
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(
            f"\r[{bar}] {self.done}/{self.total} {self.elapsed:5.0f}s  {what[:60]:60s}"
        )
        sys.stderr.flush()

    def advance(self, what: str) -> None:
        self.done += 1
        self.step(what)

    def close(self) -> None:
        sys.stderr.write("\n")


# --- the programs as modules -------------------------------------------------------------


class ProgramModule(nn.Module):
    def __init__(self, fn: Callable[..., Tensor]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: Tensor) -> Tensor:
        return self.fn(*args)


@dataclass(frozen=True)
class LlamaShape:
    dim: int = 2048
    heads: int = 16
    kv_len: int = 4096
    hidden: int = 5632

    @property
    def head_dim(self) -> int:
        return self.dim // self.heads


class DecodeStep(nn.Module):
    """One token through a Llama-style block; the caller has written its K and V into the
    cache (position kv_len - 1), so attention reads the cache only. RMSNorm without an
    epsilon, as the kernel dialect defines it."""

    def __init__(self, s: LlamaShape, dtype: torch.dtype, device: str) -> None:
        super().__init__()
        self.s = s

        def p(*shape: int, scale: float) -> nn.Parameter:
            t = torch.randn(*shape, device=device, dtype=torch.float32) * scale
            return nn.Parameter(t.to(dtype), requires_grad=False)

        d = s.dim
        self.g1 = p(d, scale=0.1)
        self.g2 = p(d, scale=0.1)
        self.wqkv = p(d, 3 * d, scale=d**-0.5)
        self.wo = p(d, d, scale=d**-0.5)
        self.w1 = p(d, s.hidden, scale=d**-0.5)
        self.w3 = p(d, s.hidden, scale=d**-0.5)
        self.w2 = p(s.hidden, d, scale=s.hidden**-0.5)

    def forward(self, x: Tensor, k_cache: Tensor, v_cache: Tensor) -> tuple[Tensor, Tensor]:
        """The block's output and the token's K and V (1, 2 * dim), for the caller to write
        into the cache."""
        s = self.s
        h = rms_norm(x) * self.g1
        qkv = torch.matmul(h, self.wqkv)
        q = qkv[:, : s.dim].reshape(s.heads, 1, s.head_dim)
        scores = torch.matmul(q, k_cache.transpose(1, 2)) * (s.head_dim**-0.5)
        attn = torch.softmax(scores, dim=-1)
        o = torch.matmul(attn, v_cache).reshape(1, s.dim)
        x = x + torch.matmul(o, self.wo)
        h = rms_norm(x) * self.g2
        mlp = torch.nn.functional.silu(torch.matmul(h, self.w1)) * torch.matmul(h, self.w3)
        return x + torch.matmul(mlp, self.w2), qkv[:, s.dim :]


# --- measuring ---------------------------------------------------------------------------


def matmul_rate(dtype: torch.dtype = torch.float16, n: int = 8192) -> float:
    """Dense matmul flops per second on this GPU, measured (median of 10 timed calls)."""
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    for _ in range(3):
        a @ b
    times: list[float] = []
    for _ in range(10):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    times.sort()
    return 2 * n**3 / times[len(times) // 2]


def bytes_of(args: Sequence[Tensor], out: Tensor) -> int:
    return sum(a.numel() * a.element_size() for a in args) + out.numel() * out.element_size()


def poison_allocator(nbytes: int) -> None:
    """Fill the caching allocator's free memory with NaN, so outputs it hands out next
    start as NaN: an element the kernels never write shows in the check."""
    blob = torch.empty(max(nbytes, 1 << 20) // 2, dtype=torch.float16, device="cuda")
    blob.fill_(float("nan"))
    del blob


def rel_error(got: Tensor, want: Tensor) -> float:
    g = got.double()
    if not torch.isfinite(g).all():
        return math.inf
    w = want.double()
    return float(torch.linalg.vector_norm(g - w) / torch.linalg.vector_norm(w))


@dataclass
class Row:
    case: str
    floor_us: float
    bytes: int
    flops: int
    ours_us: float | None = None
    ours_error: float | None = None
    ours_how: str = ""
    baselines: dict[str, float] = field(default_factory=lambda: {})
    notes: list[str] = field(default_factory=lambda: [])

    @property
    def best_torch(self) -> tuple[str, float] | None:
        if not self.baselines:
            return None
        name = min(self.baselines, key=lambda k: self.baselines[k])
        return name, self.baselines[name]

    @property
    def speedup(self) -> float | None:
        best = self.best_torch
        if best is None or self.ours_us is None:
            return None
        return best[1] / self.ours_us


def timed(fn: Callable[..., Any], args: Sequence[Tensor], method: TimingMethod) -> float:
    return measure_torch(fn, list(args), method).median_us


def compile_baseline(fn: Callable[..., Any], mode: str) -> Callable[..., Any]:
    # max-autotune without its own CUDA graphs: the harness replays one graph of many calls.
    return torch.compile(fn, mode="max-autotune-no-cudagraphs" if mode == "max-autotune" else None)


def run_case(
    spec: str,
    args: argparse.Namespace,
    backend_for: Callable[[float], Any],
    method: TimingMethod,
    bandwidth: float,
    rate: float,
    progress: Progress,
) -> Row:
    case = BenchCase.parse(spec)
    fn = case.function()
    inputs = torch_case_args(case, "f16")
    with torch.no_grad():
        out = fn(*inputs)
    nbytes, flops = bytes_of(inputs, out), flops_of(fn, inputs)
    row = Row(case.label, max(nbytes / bandwidth, flops / rate) * 1e6, nbytes, flops)

    # Ours: the module through the backend; search (or re-tile) happens on the first call.
    progress.step(f"{case.label}: compiling through the backend")
    torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
    share = max(5.0, min(args.time_budget, progress.left / 4))
    backend = backend_for(share)
    ours = torch.compile(ProgramModule(fn), backend=backend, dynamic=False)
    with torch.no_grad():
        ours(*inputs)
        torch.cuda.synchronize()
        reports = backend.reports[-1].subgraphs if backend.reports else []
        row.ours_how = "; ".join(f"{s.name}: {s.how}" for s in reports) or "all in PyTorch"
        # The check: fresh inputs, poisoned outputs, against float64.
        fresh = torch_case_args(case, "f16", seed=7)
        poison_allocator(4 * nbytes)
        got = ours(*fresh)
        want = fn(*(t.double() for t in fresh))
        row.ours_error = rel_error(got, want)
    progress.advance(f"{case.label}: ours checked ({row.ours_error:.1e})")
    if row.ours_error <= MAX_REL_ERR:
        row.ours_us = timed(ours, inputs, method)
    else:
        row.notes.append(f"ours: rel. error {row.ours_error:.1e} > {MAX_REL_ERR:g}, not timed")
    progress.advance(f"{case.label}: ours timed")

    for mode in args.modes.split(","):
        if progress.left < 30 and mode == "max-autotune":
            row.notes.append("max-autotune left out: out of time budget")
            progress.advance(f"{case.label}: {mode} skipped")
            continue
        progress.step(f"{case.label}: {mode}")
        torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
        f = fn if mode == "eager" else compile_baseline(fn, mode)
        with torch.no_grad():
            row.baselines[mode] = timed(f, inputs, method)
        progress.advance(f"{case.label}: {mode} timed")
    sdpa = sdpa_of(case.name)
    if sdpa is not None:
        progress.step(f"{case.label}: SDPA flash")
        with torch.no_grad():
            try:
                row.baselines["sdpa-flash"] = timed(sdpa, sdpa_args(case.name, inputs), method)
            except RuntimeError as e:  # flash refuses some head dims or dtypes
                row.notes.append(f"SDPA flash: {str(e).splitlines()[0]}")
    progress.advance(f"{case.label}: done")
    return row


def run_decode(
    args: argparse.Namespace,
    backend_for: Callable[[float], Any],
    method: TimingMethod,
    progress: Progress,
) -> dict[str, Any]:
    s = LlamaShape(kv_len=args.kv_len)
    torch.manual_seed(0)
    step = DecodeStep(s, torch.float16, "cuda").eval()
    x = torch.randn(1, s.dim, device="cuda", dtype=torch.float16)
    k = torch.randn(s.heads, s.kv_len, s.head_dim, device="cuda", dtype=torch.float16)
    v = torch.randn(s.heads, s.kv_len, s.head_dim, device="cuda", dtype=torch.float16)
    result: dict[str, Any] = {"shape": s.__dict__, "latency_us": {}, "rel_error": {}}
    ref_step = DecodeStep(s, torch.float64, "cuda")
    ref_step.load_state_dict({n: p.double() for n, p in step.state_dict().items()})
    with torch.no_grad():
        want = ref_step(x.double(), k.double(), v.double())
    for what in ("eager", "compile", "mirage"):
        progress.step(f"decode step: {what}")
        torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
        if what == "eager":
            f: Callable[..., Any] = step
        elif what == "compile":
            f = torch.compile(step)
        else:
            budget = args.decode_time_budget
            if budget is None:
                budget = max(5.0, min(args.time_budget, progress.left / 3))
            backend = backend_for(budget)
            f = torch.compile(step, backend=backend, dynamic=False)
        with torch.no_grad():
            f(x, k, v)
            if what == "mirage":
                reports = backend.reports[-1].subgraphs if backend.reports else []
                result["mirage_subgraphs"] = [
                    {"name": r.name, "nodes": len(r.nodes), "how": r.how, "where": r.where}
                    for r in reports
                ]
                poison_allocator(64 << 20)
            got = f(x, k, v)
            result["rel_error"][what] = max(rel_error(g, w) for g, w in zip(got, want, strict=True))
            result["latency_us"][what] = timed(f, [x, k, v], method)
        progress.advance(f"decode step: {what} timed")
    return result


# --- writing -----------------------------------------------------------------------------


def _fmt(v: float | None) -> str:
    return "" if v is None else f"{v:.2f}"


def table(rows: Sequence[Row], modes: Sequence[str]) -> list[str]:
    cols = ["case", "floor µs", "ours µs", *(f"{m} µs" for m in modes), "SDPA flash µs"]
    cols += ["speedup over best PyTorch", "ours: rel. error vs f64", "how ours was found"]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        best = r.best_torch
        cells = [r.case, _fmt(r.floor_us), _fmt(r.ours_us)]
        cells += [_fmt(r.baselines.get(m)) for m in modes]
        cells.append(_fmt(r.baselines.get("sdpa-flash")))
        sp = r.speedup
        cells.append("" if sp is None or best is None else f"{sp:.2f}x ({best[0]})")
        cells.append("" if r.ours_error is None else f"{r.ours_error:.1e}")
        cells.append(r.ours_how + ("; " + "; ".join(r.notes) if r.notes else ""))
        out.append("| " + " | ".join(cells) + " |")
    return out


def chart(rows: Sequence[Row], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels = [r.case for r in rows if r.speedup is not None]
    values = [r.speedup for r in rows if r.speedup is not None]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(labels)), 4.0))
    ax.bar(labels, values, color=["tab:green" if v and v >= 1 else "tab:red" for v in values])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel("speedup over the best PyTorch")
    ax.set_title("torch.compile(backend='mirage'), float16, one GPU")
    ax.tick_params(axis="x", rotation=45)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="e2e.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default=",".join(CASES), help="NAME:TAG,... (torch_programs)")
    ap.add_argument("--modes", default="eager,compile,max-autotune")
    ap.add_argument("--search", action="store_true", help="search every subgraph in full")
    ap.add_argument("--time-budget", type=float, default=60.0, help="search seconds per subgraph")
    ap.add_argument("--budget", type=float, default=480.0, help="seconds for the whole run")
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument(
        "--decode-time-budget",
        type=float,
        default=None,
        help="search seconds per subgraph of the decode step (default: --time-budget, less "
        "where the run's budget is short; give it to find results searched before in the cache)",
    )
    ap.add_argument("--kv-len", type=int, default=4096)
    ap.add_argument("--no-decode", action="store_true")
    ap.add_argument("--cache-dir", default=None, help="the backend's cache (default: its own)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--results", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--json", default=str(HERE / "e2e.json"))
    ap.add_argument("--png", default=str(HERE / "e2e.png"))
    args = ap.parse_args(argv)
    for flag, value in (
        ("--time-budget", args.time_budget),
        ("--decode-time-budget", args.decode_time_budget),
    ):
        if value is not None and value < 0:
            print(f"e2e.py: error: {flag} must be at least 0, got {value:g}", file=sys.stderr)
            return 1

    if not torch.cuda.is_available():
        print("e2e.py: error: no CUDA device found (this benchmark runs on a GPU)", file=sys.stderr)
        return 1
    try:
        check_importer()
    except MissingTorchError as e:  # the backend would leave every subgraph to PyTorch
        print(f"e2e.py: error: {e}", file=sys.stderr)
        return 1
    specs = [c for c in args.cases.split(",") if c]
    for spec in specs:
        case = BenchCase.parse(spec)
        if case.name not in PROGRAMS or case.tag not in SHAPES[case.name]:
            print(f"e2e.py: error: unknown case {spec!r}", file=sys.stderr)
            return 1
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ("eager", "compile", "max-autotune"):
            print(f"e2e.py: error: unknown mode {m!r}", file=sys.stderr)
            return 1

    from mirage.torch import BackendOptions, MirageBackend

    found = seeds()

    def backend_for(time_budget: float) -> Any:
        options: dict[str, Any] = {"time_budget": time_budget, "full_search": args.search}
        if args.cache_dir is not None:
            options["cache_dir"] = args.cache_dir
        backend = MirageBackend(BackendOptions.from_mapping(options))
        if not args.search:
            for program, ugraph in found:
                backend.searcher.seed(program, ugraph)
        return backend

    method = TimingMethod(samples=args.samples)
    per_case = 3 + len(modes)
    progress = Progress(len(specs) * per_case + (0 if args.no_decode else 3), args.budget)
    progress.step("measuring copy bandwidth and matmul rate")
    bandwidth = measure_copy_bandwidth()
    rate = matmul_rate()
    rows: list[Row] = []
    for spec in specs:
        rows.append(run_case(spec, args, backend_for, method, bandwidth, rate, progress))
    decode = None if args.no_decode else run_decode(args, backend_for, method, progress)
    progress.close()

    device = torch.cuda.get_device_name()
    command = "python3 benchmarks/e2e.py " + " ".join(
        shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv)
    )
    lines = table(rows, modes)
    how = (
        f"median of {method.samples} samples, each a CUDA graph replay of >= "
        f"{method.calls_per_sample} calls, inputs rotated over copies spanning "
        f"{method.l2_multiple:g}x L2; floor: max(bytes / {bandwidth / 1e12:.2f} TB/s copy "
        f"bandwidth, flops / {rate / 1e12:.0f} TFLOP/s f16 matmul), both measured in this run"
    )
    section = [
        "",
        f"## {datetime.date.today().isoformat()}: e2e.py, measured on one {device}",
        "",
        f"Command: `{command}` ({progress.elapsed:.0f} s)",
        "",
        f"Method: {how}.",
        "",
        *lines,
    ]
    if decode is not None:
        lat, err = decode["latency_us"], decode["rel_error"]
        section += [
            "",
            f"Decode step (dim {decode['shape']['dim']}, {decode['shape']['heads']} heads, "
            f"KV cache {decode['shape']['kv_len']}, SwiGLU {decode['shape']['hidden']}), "
            "µs per token (rel. error vs float64):",
            "",
            "| eager | torch.compile | mirage |",
            "|---|---|---|",
            "| "
            + " | ".join(f"{lat[k]:.2f} ({err[k]:.1e})" for k in ("eager", "compile", "mirage"))
            + " |",
        ]
    print("\n".join(section))
    if args.no_write:
        return 0
    with open(args.results, "a") as f:
        f.write("\n".join(section) + "\n")
    data = {
        "date": datetime.date.today().isoformat(),
        "device": device,
        "command": command,
        "copy_bandwidth": bandwidth,
        "matmul_rate": rate,
        "rows": [r.__dict__ | {"speedup": r.speedup} for r in rows],
        "decode": decode,
    }
    Path(args.json).write_text(json.dumps(data, indent=1, default=str) + "\n")
    if not chart(rows, Path(args.png)):
        print("e2e.py: matplotlib is not installed: no chart", file=sys.stderr)
    return 0


def seeds() -> list[tuple[Any, Any]]:
    """The (program, μGraph) pairs of benchmarks/found."""
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.registry import make_context

    out: list[tuple[Any, Any]] = []
    for path in sorted((HERE / "found").glob("*.mlir")):
        module = Parser(make_context(), path.read_text()).parse_module()
        funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
        if "program" in funcs and "ugraph" in funcs:
            out.append((graph_from_func(funcs["program"]), graph_from_func(funcs["ugraph"])))
    return out


if __name__ == "__main__":
    sys.exit(main())
