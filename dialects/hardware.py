"""The GPUs the compiler targets, described once: an architecture (an integer compute
capability, never compared as text) and what a block and a multiprocessor offer, with the
figures the cost model ranks with.

The IR verifiers check against the largest target (a program must fit some GPU); the
planner, the search and the PTX targets take the `Target` they build for. The host's one
fact, the CPUs this process may use, is here too (`usable_cpus`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

_ARCH = re.compile(r"sm_([1-9][0-9]*)(a?)")


class ArchError(ValueError):
    """Text that names no architecture, or one that no `Target` describes."""


@dataclass(frozen=True, slots=True, order=True)
class Arch:
    """A compute capability (90 for sm_90) and whether the code may use the features of
    exactly that architecture (`sm_90a`: wgmma, setmaxnreg), which run on no other."""

    capability: int
    specific: bool = False

    def __str__(self) -> str:
        return f"sm_{self.capability}{'a' if self.specific else ''}"


def parse_arch(text: str) -> Arch:
    m = _ARCH.fullmatch(text)
    if m is None:
        raise ArchError(
            f"'{text}' is not a GPU architecture (expected sm_XY or sm_XYa, e.g. sm_90a)"
        )
    return Arch(int(m.group(1)), m.group(2) == "a")


MMA_SYNC = "mma.sync.m16n8k16"
"""Warp-level tensor-core matmuls (sm_80 and newer)."""
WGMMA = "wgmma"
"""Warpgroup tensor-core matmuls (sm_90a only)."""


@dataclass(frozen=True, slots=True)
class Target:
    arch: Arch
    sms: int
    shared_memory_per_block: int
    """Bytes one block may use (the opt-in maximum)."""
    shared_memory_per_sm: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_thread: int
    max_grid_yz: int
    tensor_cores: frozenset[str]
    """The tensor-core instruction kinds the code may use (`MMA_SYNC`, `WGMMA`)."""
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
    default_loads: str = "cp-async"
    """How pipelined tiles are loaded where nobody asks (`cp-async`, `bulk-rows`, `tma`):
    tensor-map copies on sm_90a, measured faster than cp.async on one NVIDIA H200 in every
    case of benchmarks/tma_gpu.py (benchmarks/RESULTS.md); bulk copies row by row were
    measured slower there, and cp.async stays the choice of every other target."""
    max_cluster_blocks: int = 1
    """Blocks of one thread-block cluster (distributed shared memory between them); 1 where
    the target has no clusters."""

    @property
    def name(self) -> str:
        """The architecture as PTX names it (`sm_90a`)."""
        return str(self.arch)

    @property
    def capability(self) -> int:
        return self.arch.capability

    @property
    def max_warps_per_sm(self) -> int:
        return self.max_threads_per_sm // 32

    @property
    def bulk_copies(self) -> bool:
        """Copies by the tensor memory accelerator (cp.async.bulk, mbarrier completion)."""
        return self.capability >= 90

    @property
    def tensor_maps(self) -> bool:
        """Tensor-map (TMA) copies of whole tile boxes: cp.async.bulk.tensor."""
        return self.capability >= 90

    @property
    def dependent_launches(self) -> bool:
        """Programmatic dependent launch: a kernel launched so may start before the one
        before it ends, and waits for it (griddepcontrol.wait) before reading its output."""
        return self.capability >= 90


SM_90 = Target(
    arch=Arch(90),
    sms=132,
    shared_memory_per_block=227 * 1024,
    shared_memory_per_sm=228 * 1024,
    max_threads_per_block=1024,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    registers_per_sm=65536,
    max_registers_per_thread=255,
    max_grid_yz=65535,
    tensor_cores=frozenset({MMA_SYNC}),
    # Measured on one NVIDIA H200: copy bandwidth and fp16 matmul throughput, and the cost
    # of one tiny kernel in CUDA-graph replay.
    dram_bandwidth=4.23e12,
    tensor_flops=759e12,
    launch_seconds=0.86e-6,
    # Data-sheet orders of magnitude for the rest.
    l2_bandwidth=10e12,
    l2_bytes=50 * 1024 * 1024,
    shared_bandwidth_per_sm=128 * 1.98e9,
    vector_flops=60e12,
    memory_latency_seconds=0.8e-6,
    # 8 portable, 16 with the non-portable opt-in (the loader sets it where needed)
    max_cluster_blocks=16,
)

SM_90A = replace(
    SM_90, arch=Arch(90, True), tensor_cores=frozenset({MMA_SYNC, WGMMA}), default_loads="tma"
)

SM_80 = Target(
    arch=Arch(80),
    sms=108,
    shared_memory_per_block=163 * 1024,
    shared_memory_per_sm=164 * 1024,
    max_threads_per_block=1024,
    max_threads_per_sm=2048,
    max_blocks_per_sm=32,
    registers_per_sm=65536,
    max_registers_per_thread=255,
    max_grid_yz=65535,
    tensor_cores=frozenset({MMA_SYNC}),
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

SM_86 = replace(
    SM_80,
    arch=Arch(86),
    # GA102 (A40) data-sheet figures: 99 KB of shared memory per block, 1536 threads per SM
    sms=84,
    shared_memory_per_block=99 * 1024,
    shared_memory_per_sm=100 * 1024,
    max_threads_per_sm=1536,
    max_blocks_per_sm=16,
    dram_bandwidth=0.696e12,
    tensor_flops=150e12,
    l2_bandwidth=2.5e12,
    l2_bytes=6 * 1024 * 1024,
    shared_bandwidth_per_sm=128 * 1.74e9,
    vector_flops=37e12,
)

SM_89 = replace(
    SM_86,
    arch=Arch(89),
    # AD102 (L40S) data-sheet figures
    sms=142,
    max_blocks_per_sm=24,
    dram_bandwidth=0.864e12,
    tensor_flops=362e12,
    l2_bandwidth=5e12,
    l2_bytes=96 * 1024 * 1024,
    shared_bandwidth_per_sm=128 * 2.52e9,
    vector_flops=91e12,
)

TARGETS: dict[Arch, Target] = {t.arch: t for t in (SM_80, SM_86, SM_89, SM_90, SM_90A)}
"""Every architecture the compiler builds for."""


def target_for(arch: str | Arch) -> Target:
    """The `Target` of an architecture (`sm_90a` or an `Arch`); an `ArchError` names the
    known ones for any other."""
    key = parse_arch(arch) if isinstance(arch, str) else arch
    target = TARGETS.get(key)
    if target is None:
        known = ", ".join(str(a) for a in sorted(TARGETS))
        raise ArchError(f"unsupported GPU architecture '{key}' (use one of {known})")
    return target


def largest_block() -> Target:
    """The target whose blocks may use the most shared memory: what the IR verifiers check
    a block graph against (a graph that fits no GPU is invalid on every one)."""
    return max(TARGETS.values(), key=lambda t: (t.shared_memory_per_block, t.arch))


__all__ = [
    "MMA_SYNC",
    "SM_80",
    "SM_86",
    "SM_89",
    "SM_90",
    "SM_90A",
    "TARGETS",
    "WGMMA",
    "Arch",
    "ArchError",
    "Target",
    "largest_block",
    "parse_arch",
    "target_for",
]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
