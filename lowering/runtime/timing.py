"""Timing kernels by the method of docs/MEASURING.md.

Median over many samples, timed with CUDA events after a warm-up; inputs rotated over enough
copies that one call's inputs have left L2 before the same copy comes round again; optionally
each sample is one replay of a CUDA graph holding many calls, so launch gaps shrink to what a
graph of kernels pays. The pieces (`copies_needed`, `time_samples`, `Graph`) work with any
code that launches on a stream, so framework baselines are measured the same way.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from mirage.lowering.runtime import driver
from mirage.lowering.runtime.arrays import from_float

if TYPE_CHECKING:
    from mirage.lowering.runtime.loader import LoadedProgram


@dataclass(frozen=True)
class TimingMethod:
    """How to time: the method of docs/MEASURING.md by default."""

    warmup: int = 10
    """Untimed samples first (module load, JIT and clocks settle)."""
    samples: int = 50
    """Timed samples; their median is the figure."""
    graph: bool = True
    """Each sample replays a CUDA graph of calls; else each sample is one plain call."""
    calls_per_sample: int = 20
    """Calls in one graph (raised to a multiple of the number of input copies)."""
    l2_multiple: float = 3.0
    """Input copies span at least this many times the L2 cache."""
    max_copies: int = 256
    max_rotation_bytes: int = 4 << 30

    def __post_init__(self) -> None:
        for name in ("warmup", "samples", "calls_per_sample", "max_copies"):
            value = getattr(self, name)
            if value < (0 if name == "warmup" else 1):
                raise ValueError(f"TimingMethod.{name} must be positive, got {value}")


@dataclass(frozen=True)
class Timing:
    """Microseconds per call."""

    samples_us: tuple[float, ...]
    calls_per_sample: int
    copies: int
    graph: bool
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    @property
    def median_us(self) -> float:
        return statistics.median(self.samples_us)

    @property
    def min_us(self) -> float:
        return min(self.samples_us)

    @property
    def spread_us(self) -> float:
        """Interquartile range of the samples."""
        if len(self.samples_us) < 4:
            return max(self.samples_us) - min(self.samples_us)
        q = statistics.quantiles(self.samples_us, n=4)
        return q[2] - q[0]

    def summary(self) -> str:
        how = f"graph of {self.calls_per_sample} calls" if self.graph else "one plain call"
        return (
            f"{self.median_us:.2f} us median (min {self.min_us:.2f}, IQR {self.spread_us:.2f}; "
            f"{len(self.samples_us)} samples, each {how}; {self.copies} input copies)"
        )


def copies_needed(input_bytes: int, l2_bytes: int, method: TimingMethod) -> int:
    """Input copies so that rotating over them spans `l2_multiple` L2s (at least two)."""
    if input_bytes <= 0:
        return 1
    want = math.ceil(method.l2_multiple * l2_bytes / input_bytes)
    cap = min(method.max_copies, max(1, method.max_rotation_bytes // input_bytes))
    return max(min(want, cap), 2 if cap >= 2 else 1)


def calls_for(copies: int, method: TimingMethod) -> int:
    """Calls per graph: at least `calls_per_sample` and a whole number of rotations, so a
    copy is never reused sooner than `copies` calls later."""
    return copies * max(1, math.ceil(method.calls_per_sample / copies))


def time_samples(
    run_sample: Callable[[int], None], stream: int, warmup: int, samples: int
) -> list[float]:
    """Milliseconds of each of `samples` runs of `run_sample(stream)`, between CUDA events
    recorded on `stream` back to back (no host sync inside the timed stretch)."""
    for _ in range(warmup):
        run_sample(stream)
    events = [driver.Event() for _ in range(samples + 1)]
    events[0].record(stream)
    for i in range(samples):
        run_sample(stream)
        events[i + 1].record(stream)
    events[-1].synchronize()
    return [events[i].elapsed_ms(events[i + 1]) for i in range(samples)]


class Graph:
    """A CUDA graph captured from the work `record(stream)` queues on a stream of ours."""

    def __init__(self, record: Callable[[int], None], stream: driver.Stream) -> None:
        drv = driver.api()
        s = driver.as_stream(stream.handle)
        mode = drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
        driver.call("cuStreamBeginCapture", s, mode)
        try:
            record(stream.handle)
        except BaseException:
            drv.cuStreamEndCapture(s)  # leave the stream usable; the error is the news
            raise
        self._graph: Any = driver.call("cuStreamEndCapture", s)
        self._exec: Any = driver.call("cuGraphInstantiate", self._graph, 0)

    def launch(self, stream: int) -> None:
        driver.call("cuGraphLaunch", self._exec, driver.as_stream(stream))

    def __del__(self) -> None:
        try:
            driver.call("cuGraphExecDestroy", self._exec)
            driver.call("cuGraphDestroy", self._graph)
        except Exception:  # never raise from a destructor, nor at interpreter exit
            pass


def random_host_inputs(
    specs: Sequence[tuple[tuple[int, ...], str]], seed: int
) -> list[np.ndarray[Any, Any]]:
    """Uniform in +-[0.25, 1] (never zero: zeros hide unwritten outputs and run faster)."""
    rng = np.random.default_rng(seed)
    out: list[np.ndarray[Any, Any]] = []
    for shape, dtype in specs:
        mag = rng.uniform(0.25, 1.0, size=shape)
        sign = rng.choice(np.array([-1.0, 1.0]), size=shape)
        out.append(from_float(mag * sign, dtype))
    return out


def time_program(
    loaded: LoadedProgram,
    method: TimingMethod | None = None,
    inputs: Sequence[np.ndarray[Any, Any]] | None = None,
    seed: int = 0,
    only: int | None = None,
) -> Timing:
    """Time `loaded` on random (or given host) inputs by `method`; with `only`, time that
    launch alone, after one whole run has filled the intermediates it reads."""
    method = method or TimingMethod()
    program = loaded.program
    loaded.device.activate()
    if inputs is None:
        inputs = random_host_inputs([(s.shape, s.dtype) for s in program.inputs], seed)
    input_bytes = sum(s.nbytes for s in program.inputs)
    copies = copies_needed(input_bytes, loaded.device.l2_bytes, method)
    stream = driver.Stream()
    s = stream.handle
    # Buffers live until the end of this function, after the last synchronization.
    copy_sets: list[list[driver.DeviceBuffer]] = []
    for _ in range(copies):
        bufs = [driver.DeviceBuffer(spec.nbytes) for spec in program.inputs]
        for buf, host, spec in zip(bufs, inputs, program.inputs, strict=True):
            host = np.ascontiguousarray(host)
            buf.upload(int(host.ctypes.data), spec.nbytes, s)
        copy_sets.append(bufs)
    driver.synchronize(s, "uploading inputs")
    outs = [driver.DeviceBuffer(spec.nbytes) for spec in program.outputs]
    out_ptrs = [b.ptr for b in outs]
    ptr_sets = [[b.ptr for b in bufs] + out_ptrs for bufs in copy_sets]
    if only is not None:
        loaded.launch(ptr_sets[0], s)

    if method.graph:
        calls = calls_for(copies, method)

        def record(stream_handle: int) -> None:
            for j in range(calls):
                loaded.launch(ptr_sets[j % copies], stream_handle, only)

        graph = Graph(record, stream)
        ms = time_samples(graph.launch, s, method.warmup, method.samples)
    else:
        calls = 1
        counter = iter(range(1 << 62))

        def one_call(stream_handle: int) -> None:
            loaded.launch(ptr_sets[next(counter) % copies], stream_handle, only)

        ms = time_samples(one_call, s, method.warmup, method.samples)
    names = program.kernel_names if only is None else (program.launches[only].name,)
    driver.synchronize(s, f"timing {', '.join(names)}")
    return Timing(
        samples_us=tuple(1000.0 * t / calls for t in ms),
        calls_per_sample=calls,
        copies=copies,
        graph=method.graph,
    )


def measure_copy_bandwidth(nbytes: int = 1 << 30, samples: int = 10) -> float:
    """Device-to-device copy bandwidth in bytes/s, counting bytes read plus bytes written."""
    driver.get_device()  # the first call of a process may come before any context is current
    src, dst = driver.DeviceBuffer(nbytes), driver.DeviceBuffer(nbytes)
    stream = driver.Stream()
    driver.memset(src.ptr, 0x3C00, 2, nbytes, stream.handle)  # ones, not zeros

    def copy(s: int) -> None:
        driver.copy_device(dst.ptr, src.ptr, nbytes, s)

    ms = time_samples(copy, stream.handle, 2, samples)
    return 2 * nbytes / (statistics.median(ms) / 1000.0)
