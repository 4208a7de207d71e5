"""How long 128 blocks take to copy LoRA's operands into shared memory, and nothing else.

    python3 benchmarks/copy_floor_gpu.py

Copy-only kernels shaped as the found LoRA kernel's loads (benchmarks/found/lora.mlir: 128
blocks of 128 threads, each copying its 256 x 32 slab of W and the 16 KB of x and A that
every block reads, by 16-byte cp.async into shared memory, one wait, one store a block),
beside variants (contiguous slabs, no shared operands, 64 wider blocks) and an empty
launch. Timed as a CUDA graph of 200 launches over 40 rotated copies of W (more than L2
holds). The gap between these and the LoRA kernel is what its matmuls, barriers and store
take. Needs CuPy (it compiles the kernels with NVRTC) and one GPU.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

try:
    import cupy as cp  # pyright: ignore[reportMissingImports]
except ImportError:
    sys.exit("copy_floor_gpu.py needs CuPy (pip install cupy-cuda12x)")
import numpy as np

SOURCE = r"""
__device__ __forceinline__ void cpa(uint4* dst, const uint4* src) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(src) : "memory");
}
extern "C" __global__ void slab(
    const uint4* __restrict__ w, const uint4* __restrict__ xa, float* out,
    int row_vec, int cols_vec, int rows, int shared_vec, int shared_first) {
  __shared__ uint4 buf[3072];
  int b = blockIdx.x, t = threadIdx.x;
  int n = rows * cols_vec;
  if (shared_first)
    for (int i = t; i < shared_vec; i += blockDim.x) cpa(&buf[n + i], &xa[i]);
  for (int i = t; i < n; i += blockDim.x) {
    int r = i / cols_vec, c = i % cols_vec;
    cpa(&buf[i], &w[(size_t)r * row_vec + b * cols_vec + c]);
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
ROTATIONS = 40
LAUNCHES = 200


def median_us(launch: Callable[[int], None]) -> float:
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        for i in range(20):
            launch(i)
        stream.begin_capture()
        for i in range(LAUNCHES):
            launch(i)
        graph = stream.end_capture()
        graph.launch(stream)
        stream.synchronize()
        start, end = cp.cuda.Event(), cp.cuda.Event()
        times: list[float] = []
        for _ in range(7):
            start.record(stream)
            graph.launch(stream)
            end.record(stream)
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e3 / LAUNCHES)
    return float(np.median(times))


def main() -> None:
    module = cp.RawModule(code=SOURCE)
    slab, contig = module.get_function("slab"), module.get_function("contig")
    ws = [cp.random.standard_normal((256, 4096)).astype(cp.float16) for _ in range(ROTATIONS)]
    xas = [cp.random.standard_normal((8192,)).astype(cp.float16) for _ in range(ROTATIONS)]
    out = cp.zeros(256, cp.float32)
    i32 = np.int32

    def args(i: int, *rest: Any) -> tuple[Any, ...]:
        return (ws[i % ROTATIONS], xas[i % ROTATIONS], out, *rest)

    cases: dict[str, Callable[[int], None]] = {
        "its 256 x 32 slab of W and x, A (as LoRA's kernel)": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(1024), i32(0))
        ),
        "x, A first, then its slab": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(1024), i32(1))
        ),
        "its slab only": lambda i: slab(
            (128,), (128,), args(i, i32(512), i32(4), i32(256), i32(0), i32(0))
        ),
        "a 256 x 64 slab and x, A (64 blocks)": lambda i: slab(
            (64,), (128,), args(i, i32(512), i32(8), i32(256), i32(1024), i32(0))
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
        print(f"| {name} | {median_us(launch):.2f} |")


if __name__ == "__main__":
    main()
