"""Attention past the benchmark shapes: head dim 128 and long key sequences.

    python3 benchmarks/attention_gpu.py [--found DIR] [--samples N] [--matmuls LIST]
        [--no-compile] [--append benchmarks/RESULTS.md]

Each file of DIR (default benchmarks/found_attention) holds, as @ugraph, the μGraph the
search found for the gqa program of benchmarks/torch_programs.py (exp(Q K) normalized by
its row sums, then times V) at one shape: BH batch-heads, N query rows, head dim D, KV
keys, read from its signature (Q: BH x N x D, K: BH x D x KV, V: BH x KV x D). Each is
built for this GPU, checked against the program in float64 on fresh inputs with its
outputs poisoned, and timed beside SDPA's FlashAttention kernel (K stored (BH, KV, D), as
it reads it) and torch.compile of the program, in one process by one method
(docs/MEASURING.md). `--matmuls auto,wgmma` builds and times each μGraph once per matmul
strategy (`plan-ugraph`'s option), side by side. Needs a GPU and torch.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MAX_REL_ERR = 2e-2
"""float16 storage, float32 accumulation against float64 (as e2e.py)."""


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="attention_gpu.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--found", type=Path, default=HERE / "found_attention")
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--append", metavar="MD", help="append the table to this Markdown file")
    ap.add_argument(
        "--matmuls", default="auto", help="matmul strategies to build with, comma-separated"
    )
    ap.add_argument(
        "--loads",
        default="",
        help="load strategies to build with, comma-separated (default: the target's)",
    )
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    args = ap.parse_args(argv)
    from mirage.lowering.optimize.load_plan import check_loads
    from mirage.lowering.optimize.matmul_plan import check_matmuls

    loads: list[str | None] = [*args.loads.split(",")] if args.loads else [None]
    strategies = [(m, lo) for m in args.matmuls.split(",") for lo in loads]
    try:
        for matmuls, lo in strategies:
            check_matmuls(matmuls)
            if lo is not None:
                check_loads(lo)
    except ValueError as e:
        print(f"attention_gpu.py: error: {e}", file=sys.stderr)
        return 1
    files = sorted(args.found.glob("*.mlir"))
    if not files:
        print(f"attention_gpu.py: error: no .mlir files in {args.found}", file=sys.stderr)
        return 1

    import torch

    if not torch.cuda.is_available():
        print("attention_gpu.py: error: no CUDA device found", file=sys.stderr)
        return 1
    from harness import (
        TimingMethod,
        check_program,
        load_function,
        measure_copy_bandwidth,
        measure_torch,
        results_section,
    )
    from torch.nn import functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch_programs import gqa

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime.gpu_run import default_arch
    from mirage.lowering.runtime.loader import load
    from mirage.lowering.runtime.timing import time_program

    method = TimingMethod(samples=args.samples)
    bandwidth = measure_copy_bandwidth()
    device = torch.cuda.get_device_name()
    cols = ["shape (BH x N x D, KV)"]
    cols += [
        f"ours µs ({', '.join(x for x in s if x)})" if len(strategies) > 1 else "ours µs"
        for s in strategies
    ]
    cols += ["SDPA flash µs", "torch.compile µs"]
    cols += ["speedup over SDPA flash", "ours TFLOP/s", "floor µs", "rel. error", "ours"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for path in files:
        func = load_function(path, "ugraph")
        graph = graph_from_func(func)
        (bh, n, d), (_, _, kv) = graph.args[0].shape, graph.args[1].shape
        label = f"{bh} x {n} x {d}, {kv}"
        sizes = ((bh, n, d), (bh, d, kv), (bh, kv, d))
        kernels = sum(op.kind == "graph" for op in graph.ops)

        def reference(inputs: Sequence[Any]) -> list[Any]:
            q, k, v = (torch.from_numpy(x).cuda() for x in inputs)
            return [gqa(q, k, v).cpu().numpy()]

        timed: list[float | None] = []
        err = 0.0
        for matmuls, lo in strategies:
            loaded = load(compile_function(func, default_arch(), loads=lo, matmuls=matmuls))
            one = check_program(loaded, reference)
            err = max(err, one) if math.isfinite(one) else one
            timed.append(time_program(loaded, method).median_us if one <= MAX_REL_ERR else None)
        ours = min((t for t in timed if t is not None), default=None)
        gen = torch.Generator(device="cuda").manual_seed(0)
        q, k_t, v = (
            (torch.rand(s, generator=gen, device="cuda") - 0.5).to(torch.float16) for s in sizes
        )
        k = k_t.transpose(1, 2).contiguous()

        def sdpa(q: Any, k: Any, v: Any) -> Any:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                return F.scaled_dot_product_attention(q[:, None], k[:, None], v[:, None], scale=1.0)

        with torch.no_grad():
            try:
                flash: float | None = measure_torch(sdpa, [q, k, v], method).median_us
            except RuntimeError as e:  # flash refuses some head dims or dtypes
                print(f"{label}: SDPA flash: {str(e).splitlines()[0]}", file=sys.stderr)
                flash = None
            compiled = None
            if not args.no_compile:
                torch._dynamo.reset()  # pyright: ignore[reportPrivateUsage]
                compiled = measure_torch(gqa, [q, k_t, v], method, compile=True).median_us
        flops = 4 * bh * n * kv * d
        nbytes = 2 * (2 * bh * n * d + 2 * bh * kv * d)
        floor = nbytes / bandwidth * 1e6
        cells = [
            label,
            *("" if t is None else f"{t:.2f}" for t in timed),
            "" if flash is None else f"{flash:.2f}",
            "" if compiled is None else f"{compiled:.2f}",
            "" if ours is None or flash is None else f"{flash / ours:.2f}x",
            "" if ours is None else f"{flops / ours / 1e6:.0f}",
            f"{floor:.2f}",
            f"{err:.1e}" if math.isfinite(err) else "not finite",
            f"{path.name}: {kernels} kernel(s)",
        ]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    section = results_section(
        "attention_gpu.py",
        device,
        sys.argv[1:] if argv is None else argv,
        f"median of {method.samples} samples, each a CUDA graph replay, inputs rotated "
        f"over copies spanning {method.l2_multiple:g}x L2; floor: bytes / "
        f"{bandwidth / 1e12:.2f} TB/s copy bandwidth measured in this run.",
        ["", *lines],
    )
    print("\n".join(section))
    if args.append:
        with open(args.append, "a") as f:
            f.write("\n".join(section) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
