"""The docs/MEASURING.md measurement method, for our built programs and for PyTorch baselines alike.

Median µs per call over many samples timed with CUDA events after a warm-up; inputs rotated
over enough copies to span three L2 caches; by default each sample replays a CUDA graph of
many calls (our programs: captured through the driver; PyTorch: through torch.cuda.graph,
which its allocator needs). The timing itself is `mirage.lowering.runtime.timing` in both
cases. Only `measure_torch` and `torch_reference` import torch.
"""

from __future__ import annotations

import datetime
import math
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.lowering.runtime import CompiledProgram, LoadedProgram, driver, load
from mirage.lowering.runtime.arrays import to_float32
from mirage.lowering.runtime.timing import (
    Timing,
    TimingMethod,
    calls_for,
    copies_needed,
    measure_copy_bandwidth,
    random_host_inputs,
    time_program,
    time_samples,
)

H200_COPY_BANDWIDTH = 4.23e12
"""Device-to-device copy bandwidth (bytes read + written per second), measured on one NVIDIA
H200 by the method of docs/MEASURING.md."""

DESIGN_H200: dict[str, tuple[float, float, float]] = {
    "gqa b1": (0.71, 42.0, 16.4),
    "gqa b8": (5.66, 208.2, 46.6),
    "qknorm b1": (0.71, 73.3, 21.2),
    "qknorm b8": (5.66, 267.5, 58.8),
    "rmsnorm_linear b1": (11.92, 29.7, 17.5),
    "rmsnorm_linear b8": (11.98, 36.8, 17.7),
    "lora": (0.56, 10.7, 10.7),
    "gated_mlp": (15.91, 30.9, 29.1),
    "ntrans b1": (0.06, 33.2, 2.3),
    "ntrans b8": (0.50, 46.2, 3.2),
}
"""The first baseline table, measured on one NVIDIA H200 (benchmarks/RESULTS.md): (floor,
eager, torch.compile) in µs per call."""


@dataclass(frozen=True)
class BenchCase:
    """A benchmark program at one shape: `name` in torch_programs.PROGRAMS, `tag` in SHAPES."""

    name: str
    tag: str

    @property
    def label(self) -> str:
        """The row name in docs/MEASURING.md ('lora', 'rmsnorm_linear b1')."""
        return self.name if self.tag == "bench" else f"{self.name} {self.tag}"

    @classmethod
    def parse(cls, text: str) -> BenchCase:
        name, _, tag = text.partition(":")
        return cls(name, tag or "bench")

    def shapes(self) -> tuple[tuple[int, ...], ...]:
        from torch_programs import SHAPES  # pyright: ignore[reportMissingImports]

        try:
            return SHAPES[self.name][self.tag]  # pyright: ignore[reportUnknownVariableType]
        except KeyError:
            raise ValueError(f"unknown benchmark case {self.name}:{self.tag}") from None

    def function(self) -> Callable[..., Any]:
        from torch_programs import PROGRAMS  # pyright: ignore[reportMissingImports]

        return PROGRAMS[self.name]  # pyright: ignore[reportUnknownVariableType]


def load_function(path: Path, name: str) -> FuncOp:
    """Function @name of the MLIR file at `path` (an error exit naming both if absent)."""
    from mirage.tools.registry import make_context

    module = Parser(make_context(), path.read_text(), str(path)).parse_module()
    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == name:
            return op
    raise SystemExit(f"error: {path}: no function @{name}")


def check_lowered(program: CompiledProgram, func: FuncOp, seed: int, name: str) -> float:
    """The largest relative error of the built program's outputs against the float64
    evaluation of `func`, on fresh inputs in [-1, 1) with the outputs poisoned; an error
    exit past the outputs' dtype bound."""
    from mirage.lowering.runtime.gpu_run import compare, run_program

    graph = graph_from_func(func)
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(-1.0, 1.0, size=t.shape) for t in graph.args]
    result = run_program(program, inputs)
    reference = evaluate(graph, result.inputs, FloatDomain(np.float64))
    want = [np.asarray(w, dtype=np.float64) for w in reference]
    verdicts = compare(result.outputs, want, [s.dtype for s in program.outputs])
    worst = max(err for err, _ in verdicts)
    if not all(ok for _, ok in verdicts):
        raise SystemExit(f"error: {name}: output differs from float64 (relative {worst:.3g})")
    return worst


class NamedFunction(Protocol):
    """A benchmark case that names a function of an MLIR file."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def function(self) -> str: ...


def check_case(program: CompiledProgram, case: NamedFunction, seed: int) -> float:
    """`check_lowered` of the case's function."""
    return check_lowered(program, load_function(case.path, case.function), seed, case.name)


def floor_us(nbytes: int, bandwidth: float = H200_COPY_BANDWIDTH) -> float:
    """Time to move `nbytes` once (each input read, each output written) at `bandwidth`."""
    return nbytes / bandwidth * 1e6


def program_bytes(program: CompiledProgram) -> int:
    return sum(b.nbytes for b in program.inputs) + sum(b.nbytes for b in program.outputs)


def flops_of(fn: Callable[..., Any], args: Sequence[Any]) -> int:
    """Floating-point operations of the PyTorch function `fn` on tensors shaped as `args`,
    counted by torch's flop counter on meta tensors (matmuls only)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    meta = [torch.empty(a.shape, dtype=a.dtype, device="meta") for a in args]
    with FlopCounterMode(display=False) as counter:
        fn(*meta)
    return int(counter.get_total_flops())


def case_flops(case: BenchCase) -> int:
    """Matmul flops of the case's PyTorch program at its shapes."""
    import torch

    meta = [torch.empty(shape, dtype=torch.float16, device="meta") for shape in case.shapes()]
    return flops_of(case.function(), meta)


def measure_program(
    program: CompiledProgram | LoadedProgram,
    method: TimingMethod | None = None,
    only: int | None = None,
) -> Timing:
    loaded = program if isinstance(program, LoadedProgram) else load(program)
    return time_program(loaded, method, only=only)


def check_program(
    loaded: LoadedProgram,
    reference: Callable[[Sequence[np.ndarray[Any, Any]]], Sequence[np.ndarray[Any, Any]]],
    seed: int = 1,
    inputs: Sequence[np.ndarray[Any, Any]] | None = None,
) -> float:
    """Largest relative error (|out - ref| / |ref|, 2-norms) of any output against
    `reference` run in float64 on the same fresh random inputs (`seed`'s, or the caller's
    own draw `inputs`, in the program's dtypes); outputs are poisoned with NaN before the
    run, so an unwritten element fails the check."""
    program = loaded.program
    if inputs is None:
        inputs = random_host_inputs([(s.shape, s.dtype) for s in program.inputs], seed)
    outputs = loaded.run(inputs, poison=True)
    want = reference(
        [
            to_float32(x, s.dtype).astype(np.float64)
            for x, s in zip(inputs, program.inputs, strict=True)
        ]
    )
    worst = 0.0
    for got, ref, spec in zip(outputs, want, program.outputs, strict=True):
        g = to_float32(got, spec.dtype).astype(np.float64)
        if not np.isfinite(g).all():
            return math.inf
        worst = max(worst, float(np.linalg.norm(g - ref) / np.linalg.norm(ref)))
    return worst


def torch_reference(
    case: BenchCase,
) -> Callable[[Sequence[np.ndarray[Any, Any]]], list[np.ndarray[Any, Any]]]:
    """The case's PyTorch program, run in float64 (on the GPU when there is one)."""
    import torch

    fn = case.function()

    def run(inputs: Sequence[np.ndarray[Any, Any]]) -> list[np.ndarray[Any, Any]]:
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        out = fn(*(torch.from_numpy(np.ascontiguousarray(x)).to(dev) for x in inputs))
        outs = out if isinstance(out, tuple | list) else (out,)
        return [o.double().cpu().numpy() for o in outs]

    return run


def measure_torch(
    fn: Callable[..., Any],
    args: Sequence[Any],
    method: TimingMethod | None = None,
    compile: bool = False,
) -> Timing:
    """Time a PyTorch function on CUDA tensors `args` by the same method."""
    import torch

    method = method or TimingMethod()
    driver.get_device(torch.cuda.current_device())
    f = torch.compile(fn) if compile else fn
    nbytes = sum(t.numel() * t.element_size() for t in args)
    l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    copies = copies_needed(nbytes, l2, method)
    sets = [[t.clone() for t in args] for _ in range(copies)]
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for j in range(max(3, copies)):  # compiles, autotunes and fills the allocator
            f(*sets[j % copies])
        stream.synchronize()
        if method.graph:
            calls = calls_for(copies, method)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                kept = [f(*sets[j % copies]) for j in range(calls)]
            ms = time_samples(
                lambda _s: graph.replay(), stream.cuda_stream, method.warmup, method.samples
            )
            del kept
        else:
            calls = 1
            counter = iter(range(1 << 62))
            ms = time_samples(
                lambda _s: f(*sets[next(counter) % copies]),
                stream.cuda_stream,
                method.warmup,
                method.samples,
            )
    torch.cuda.synchronize()
    return Timing(
        samples_us=tuple(1000.0 * t / calls for t in ms),
        calls_per_sample=calls,
        copies=copies,
        graph=method.graph,
        extra={"mode": "torch.compile" if compile else "eager"},
    )


def torch_case_args(case: BenchCase, dtype: str = "f16", seed: int = 0) -> list[Any]:
    """Random CUDA tensors of the case's shapes, uniform in +-[0.25, 1] (never zeros)."""
    import torch

    tdtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[dtype]
    gen = torch.Generator(device="cuda").manual_seed(seed)
    out: list[Any] = []
    for shape in case.shapes():
        mag = torch.rand(shape, generator=gen, device="cuda") * 0.75 + 0.25
        sign = torch.randint(0, 2, shape, generator=gen, device="cuda") * 2 - 1
        out.append((mag * sign).to(tdtype))
    return out


def case_bytes(case: BenchCase, itemsize: int = 2) -> int:
    """Bytes the case must move: inputs read once, the output written once."""
    import torch

    shapes = case.shapes()
    args = [torch.empty(s, device="meta") for s in shapes]
    out = case.function()(*args)
    return itemsize * (sum(math.prod(s) for s in shapes) + out.numel())


__all__ = [
    "DESIGN_H200",
    "H200_COPY_BANDWIDTH",
    "BenchCase",
    "TimingMethod",
    "case_bytes",
    "check_program",
    "floor_us",
    "measure_copy_bandwidth",
    "measure_program",
    "measure_torch",
    "program_bytes",
    "torch_case_args",
    "torch_reference",
]


def results_section(
    script: str,
    device: str,
    argv: Sequence[str],
    method: str,
    body: Sequence[str],
) -> list[str]:
    """A benchmarks/RESULTS.md section of a run: today's date, the device, the command
    that reproduces it (`script` with `argv`), the method, then `body`."""
    command = f"python3 benchmarks/{script} " + " ".join(shlex.quote(a) for a in argv)
    return [
        "",
        f"## {datetime.date.today().isoformat()}: {script}, measured on one {device}",
        "",
        f"Command: `{command}`",
        "",
        f"Method: {method}",
        *body,
    ]
