"""The GPUs the search targets: limits that decide whether a μGraph runs, and the figures
the cost model ranks with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    sms: int
    shared_memory_per_block: int
    shared_memory_per_sm: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_thread: int
    max_grid_yz: int
    dram_bandwidth: float
    """Bytes per second, device memory."""
    l2_bandwidth: float
    l2_bytes: int
    shared_bandwidth_per_sm: float
    tensor_flops: float
    """fp16 matmul on tensor cores, FLOP per second."""
    vector_flops: float
    """fp32 on the CUDA cores, FLOP per second."""
    launch_seconds: float
    """Cost of one more kernel in a CUDA graph replay."""
    memory_latency_seconds: float


SM_90 = Target(
    name="sm_90",
    sms=132,
    shared_memory_per_block=227 * 1024,
    shared_memory_per_sm=228 * 1024,
    max_threads_per_block=1024,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    registers_per_sm=65536,
    max_registers_per_thread=255,
    max_grid_yz=65535,
    # Measured on one NVIDIA H200: copy bandwidth and fp16 matmul throughput, and the cost
    # of one tiny kernel in CUDA-graph replay (DESIGN.md section 8).
    dram_bandwidth=4.23e12,
    tensor_flops=759e12,
    launch_seconds=0.86e-6,
    # Data-sheet orders of magnitude for the rest.
    l2_bandwidth=10e12,
    l2_bytes=50 * 1024 * 1024,
    shared_bandwidth_per_sm=128 * 1.98e9,
    vector_flops=60e12,
    memory_latency_seconds=0.8e-6,
)

SM_80 = Target(
    name="sm_80",
    sms=108,
    shared_memory_per_block=163 * 1024,
    shared_memory_per_sm=164 * 1024,
    max_threads_per_block=1024,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    registers_per_sm=65536,
    max_registers_per_thread=255,
    max_grid_yz=65535,
    # A100 (80 GB) data-sheet figures, scaled like the H200 measurements.
    dram_bandwidth=1.8e12,
    tensor_flops=280e12,
    launch_seconds=1.0e-6,
    l2_bandwidth=5e12,
    l2_bytes=40 * 1024 * 1024,
    shared_bandwidth_per_sm=128 * 1.41e9,
    vector_flops=19e12,
    memory_latency_seconds=0.9e-6,
)

TARGETS: dict[str, Target] = {t.name: t for t in (SM_80, SM_90)}
