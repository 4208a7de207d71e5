"""How long 128 blocks take to copy LoRA's operands into shared memory, and nothing else.

    python3 benchmarks/copy_floor_gpu.py

Copy-only kernels shaped as the found LoRA kernel's loads (benchmarks/found/lora.mlir: 128
blocks of 128 threads, each copying its 256 x 32 slab of W and the 16 KB of x and A that
every block reads, by 16-byte cp.async into shared memory, one wait, one store a block),
beside variants (the slab's rows padded in shared memory as LoRA's tile pads them,
contiguous slabs, no shared operands, 64 wider blocks) and an empty launch. Timed by the
runtime's method (docs/MEASURING.md): CUDA-graph replays, W rotated over copies that span
three L2s. Beside `cut_gpu.py`'s "copies only" cut of the LoRA kernel, these say what the
same bytes cost in that pattern with nothing else in the kernel. Needs CuPy (it compiles
the kernels with NVRTC) and one GPU.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from typing import Any

try:
    import cupy as cp  # pyright: ignore[reportMissingImports]
except ImportError:
    sys.exit("copy_floor_gpu.py needs CuPy (pip install cupy-cuda12x)")

import numpy as np

from mirage.lowering.runtime import driver
from mirage.lowering.runtime.timing import (
    Graph,
    TimingMethod,
    calls_for,
    copies_needed,
    time_samples,
)

SOURCE = r"""
__device__ __forceinline__ void cpa(uint4* dst, const uint4* src) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(src) : "memory");
}
extern "C" __global__ void slab(
    const uint4* __restrict__ w, const uint4* __restrict__ xa, float* out,
    int row_vec, int cols_vec, int rows, int shared_vec, int shared_first, int pitch_vec) {
  __shared__ uint4 buf[3072];
  int b = blockIdx.x, t = threadIdx.x;
  int n = rows * pitch_vec;
  if (shared_first)
    for (int i = t; i < shared_vec; i += blockDim.x) cpa(&buf[n + i], &xa[i]);
  for (int i = t; i < rows * cols_vec; i += blockDim.x) {
    int r = i / cols_vec, c = i % cols_vec;
    cpa(&buf[r * pitch_vec + c], &w[(size_t)r * row_vec + b * cols_vec + c]);
  }
  if (!shared_first)
    for (int i = t; i < shared_vec; i += blockDim.x) cpa(&buf[n + i], &xa[i]);
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  if (t == 0) out[b] = __uint_as_float(buf[(b * 7) % (n + shared_vec)].x);
}
extern "C" __global__ void contig(
    const uint4* __restrict__ w, const uint4* __restrict__ xa, float* out,
    int per_block_vec, int shared_vec) {
  __shared__ uint4 buf[3072];
  int b = blockIdx.x, t = threadIdx.x;
  for (int i = t; i < per_block_vec; i += blockDim.x)
    cpa(&buf[i], &w[(size_t)b * per_block_vec + i]);
  for (int i = t; i < shared_vec; i += blockDim.x) cpa(&buf[per_block_vec + i], &xa[i]);
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  if (t == 0) out[b] = __uint_as_float(buf[(b * 7) % (per_block_vec + shared_vec)].x);
}
"""
METHOD = TimingMethod()


def median_us(launch: Callable[[int], None], copies: int) -> float:
    """Median µs a launch, by the runtime's method: `launch(i)` queues a launch on copy
    `i % copies` onto CuPy's current stream, which is the runtime's timing stream."""
    calls = calls_for(copies, METHOD)
    stream = driver.Stream()
    with cp.cuda.ExternalStream(stream.handle):
        for i in range(copies):
            launch(i)

        def record(_s: int) -> None:
            for i in range(calls):
                launch(i)

        graph = Graph(record, stream)
        ms = time_samples(graph.launch, stream.handle, METHOD.warmup, METHOD.samples)
    driver.synchronize(stream.handle, "timing the copy kernels")
    return statistics.median(ms) * 1e3 / calls


def main() -> None:
    device = driver.get_device()  # the primary context, which CuPy shares
    module = cp.RawModule(code=SOURCE)
    slab, contig = module.get_function("slab"), module.get_function("contig")
    copies = copies_needed(256 * 4096 * 2, device.l2_bytes, METHOD)
    ws = [cp.random.standard_normal((256, 4096)).astype(cp.float16) for _ in range(copies)]
    xas = [cp.random.standard_normal((8192,)).astype(cp.float16) for _ in range(copies)]
    out = cp.zeros(256, cp.float32)
    i32 = np.int32

    def args(i: int, *rest: Any) -> tuple[Any, ...]:
        return (ws[i % copies], xas[i % copies], out, *rest)

    cases: dict[str, Callable[[int], None]] = {
        "its 256 x 32 slab of W and x, A (as LoRA's kernel)": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(1024), i32(0), i32(4))
        ),
        "its slab in rows padded to 80 bytes (as LoRA's tile), x, A": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(1024), i32(0), i32(5))
        ),
        "x, A first, then its slab": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(1024), i32(1), i32(4))
        ),
        "its slab only": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(0), i32(0), i32(4))
        ),
        "a 256 x 64 slab and x, A (64 blocks)": lambda i: slab(
            (64,), (128,), args(i, i32(512), i32(8), i32(256), i32(1024), i32(0), i32(8))
        ),
        "a contiguous 16 KB of W and x, A": lambda i: contig(
            (128,), (128,), args(i, i32(1024), i32(1024))
        ),
        "a contiguous 16 KB only": lambda i: contig((128,), (128,), args(i, i32(1024), i32(0))),
        "nothing (one block of 32 threads)": lambda i: contig((1,), (32,), args(i, i32(0), i32(0))),
    }
    print(f"measured on {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    print("| what each block copies | µs |\n|---|---|")
    for name, launch in cases.items():
        print(f"| {name} | {median_us(launch, copies):.2f} |")


if __name__ == "__main__":
    main()
