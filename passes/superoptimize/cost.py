"""An analytical cost model of μGraphs: the time of each kernel from the bytes it moves at
each level (device memory, L2, shared memory), its flops (tensor cores for matmuls, CUDA
cores for the rest), its launch, and how many blocks the GPU runs at once (occupancy)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import (
    CONTRACTIONS,
    INPUTS,
    LAUNCHES,
    MUL_SCALAR,
    OP_KINDS,
    OUTPUTS,
    RESHAPES,
    SLICES,
    THREAD,
    Family,
)
from mirage.dialects.ugraph.graph import DTYPE_BYTES, Graph, Op, TensorType
from mirage.lowering.optimize import load_plan, matmul_plan
from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT, find_join
from mirage.lowering.optimize.wrap import UNWRAPPED, wrap_op
from mirage.passes.superoptimize.lowered import LoweredFacts, lowered_facts
from mirage.passes.superoptimize.resources import (
    check_fit,
    peak_shared_memory,
    registers_per_thread,
)

ITERATION_SECONDS = 0.03e-6
"""Per barrier of a loop iteration of a block (and the issue of the next loads)."""
EXPOSED_LOAD_SECONDS = 0.25e-6
"""Per loop iteration of a block whose input tiles are not loaded ahead (one pipeline
stage): the wait for device memory or L2 that no earlier load hides."""
EFFICIENCY = 0.4
"""Fraction of peak L2 or shared-memory bandwidth or flops that a generated kernel reaches."""
DRAM_EFFICIENCY = 0.6
"""The same for device-memory bandwidth.

These five are fitted to 290 tilings of the benchmark kernels timed on one NVIDIA H200
(benchmarks/data/calibration_2026-11-29_c.json, the kernels of benchmarks/ugraphs and of
benchmarks/found at commit f68968e): over the tilings within 1.5x of their structure's best,
mean |log(model / measured)| 0.20 (a factor of about 1.23); the measured time of the model's
pick per structure is 1.037x the best measured (geometric mean over 23 structures), 1.40x
at worst."""


@dataclass(frozen=True, slots=True)
class LoadFit:
    """What a load strategy changes in the model's throughputs."""

    dram_efficiency: float
    """The kernel's fraction of device-memory bandwidth (`DRAM_EFFICIENCY`)."""
    l2_gain: float = 1.0
    """The tile reads' L2 bandwidth over `Target.l2_bandwidth`."""
    copies_starve: bool = True
    """Whether the copies into shared memory slow down with few warps per SM, as the other
    shared-memory traffic does: not where the copy engine issues them."""


LOAD_FITS: dict[str, LoadFit] = {
    load_plan.TMA: LoadFit(dram_efficiency=0.8, l2_gain=2.0, copies_starve=False),
}
"""Fitted to the 151 tilings of benchmarks/data/calibration_2026-12-02_tma.json (lowered for
sm_90a, tensor-map loads wherever the tiles allow them), timed on one NVIDIA H200: over
the 12 tilings that load by tensor maps, mean |log(model / measured)| falls from 0.52 to
0.30, and the measured time of the model's pick per structure from 1.064x to 1.045x the
best measured (geometric mean; worst 1.39x to 1.35x). Other strategies: `DEFAULT_LOAD_FIT`."""
DEFAULT_LOAD_FIT = LoadFit(dram_efficiency=DRAM_EFFICIENCY)
LIBRARY_EFFICIENCY = 0.55
"""The same for the kernel of a pre-defined op: the unfused attention (gqa b1 shapes, five
kernels) and rmsnorm_linear (b8 shapes, two kernels) programs ran 41.6 and 24.8 µs on one
NVIDIA H200 (benchmarks/RESULTS.md), which this rate puts at 30.9 and 25.2 µs."""
FMA_MATMUL_SLOWDOWN = 8
"""A matmul off the tensor cores (an f32 operand) runs as FMAs from shared memory at about
an eighth of the CUDA cores' peak: 7.7 TFLOP/s measured on one NVIDIA H200
(benchmarks/calibrate_cost.py, attention's exp(Q K) V with exp in f32)."""
SATURATING_WARPS = 8
STARVED_EXPONENT = 0.4
"""Fitted to tilings of the benchmark kernels timed on one NVIDIA H200
(`benchmarks/calibrate_cost.py --compare benchmarks/data/calibration_*.json --only ugraphs_`):
on the hand-written kernels' 187 tilings the measured time of the model's pick over the best
measured tiling falls from 1.17x to 1.12x (geometric mean; worst from 2.44x to 1.56x), and a
4-warps-per-SM attention kernel (measured 52 µs) no longer ranks above the split-KV pair
(measured 23 µs)."""
_SATURATING_SM_FRACTION = 0.8
"""Fraction of the SMs that, busy, saturate device-memory bandwidth. The generated kernels
keep a block's tiles in flight at once rather than a deep stream, so each busy SM adds its
share up to most of the GPU: split-KV combines of the same bytes on 64 and 128 blocks
measured 5.06 and 2.61 µs (gqa b8), 2.46 and 2.11 (gqa b1) on one NVIDIA H100, which 0.4
priced the same. Over the timings of benchmarks/data (`calibrate_cost.py --compare`, ties
counted at their slowest), 0.8 keeps or improves every file's geometric mean but the oldest
(calibration_2026-11-29_c, kernels of that day: 1.085x to 1.101x); 1.0 priced a one-block
kernel as waiting on 1/132 of the bandwidth, below what one SM pulls."""
VECTOR_ACCESS_BYTES = 16
"""An input tile is copied in accesses of this many bytes where its last dim is contiguous
in the device tensor."""


def _access_factor(op: Op, value: int, body: Graph, target: Target, threads: int) -> int:
    """How many times more accesses an input iterator's copy needs than 16-byte vectors: a
    view that reads the tile's last dim strided (a transposed operand) copies one element
    per access, unless only mma.sync reads it as its B operand and the dim before is
    contiguous: the planner then stores the tile transposed and copies it in the tensor's
    order (`Tile.transposed`). An estimate of the lost vector width, not fitted to
    measurements."""
    if not op.viewed:
        return 1
    _, strides = op.layout(body.type_of(op.operands[0]).shape)
    tile = op.results[0]
    if strides[-1] == 1 or tile.shape[-1] == 1:
        return 1
    if len(tile.shape) >= 2 and strides[-2] == 1 and tile.shape[-2] > 1:
        readers = [u for u in body.ops if value in u.operands]
        if readers and all(
            u.kind in CONTRACTIONS
            and u.operands[1] == value
            and u.operands[0] != value
            and _strategy(body.type_of(u.operands[0]), tile, target, threads)
            == matmul_plan.MMA_SYNC
            for u in readers
        ):
            return 1
    return max(1, VECTOR_ACCESS_BYTES // DTYPE_BYTES[tile.dtype])


@dataclass(frozen=True, slots=True)
class KernelCost:
    kind: str
    seconds: float
    dram_bytes: int
    flops: int
    blocks: int = 1


@dataclass(frozen=True, slots=True)
class ProgramCost:
    seconds: float
    kernels: tuple[KernelCost, ...]

    @property
    def micros(self) -> float:
        return self.seconds * 1e6


def _matmul_flops(a: TensorType, b: TensorType, padded: bool) -> int:
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    batch = math.prod(max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2], strict=True))
    if padded:  # mma tiles are 16x8x16: small tiles waste the rest
        m, n, k = -(-m // 16) * 16, -(-n // 8) * 8, -(-k // 16) * 16
    return 2 * batch * m * n * k


def _strategy(a: TensorType, b: TensorType, target: Target, threads: int) -> str:
    """How the lowering runs a block matmul it did not plan (as `matmuls=auto` chooses)."""
    batch = tuple(max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2], strict=True))
    ops = matmul_plan.Operands(a.dtype, b.dtype, batch, a.shape[-2], b.shape[-1], a.shape[-1])
    return matmul_plan.choose(matmul_plan.AUTO, target, ops, threads)[0]


def _tensor_core_flops(strategy: str, a: TensorType, b: TensorType) -> int:
    batch = math.prod(max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2], strict=True))
    return matmul_plan.tensor_core_flops(strategy, batch, a.shape[-2], b.shape[-1], a.shape[-1])


def _vector_flops(op: Op, operands: list[TensorType]) -> int:
    """CUDA-core flops of a non-matmul op."""
    kind = OP_KINDS.get(op.kind)
    out = op.results[0].numel if op.results else 0
    if kind is None:
        return 0
    if kind.body == THREAD:
        assert op.body is not None
        return out * sum(_per_element(o.kind) for o in op.body.ops)
    if kind.family is Family.NORM:
        return 4 * out + 8 * (out // max(1, op.results[0].shape[-1]))
    if kind.flops_of_operand:
        return kind.flops * (operands[0].numel if operands else out)
    return kind.flops * out


def _per_element(kind: str) -> int:
    return OP_KINDS[kind].flops


def predefined_cost(op: Op, operands: list[TensorType], target: Target) -> KernelCost:
    """A pre-defined kernel op: one library kernel that reads its operands from device
    memory and writes its result there."""
    if op.kind in SLICES:
        # reads its window of the operand only: as many elements as it writes
        pairs = zip(op.results, operands, strict=True)
        read = sum(r.numel * DTYPE_BYTES[t.dtype] for r, t in pairs)
    else:
        read = sum(t.nbytes for t in operands)
    dram = read + sum(t.nbytes for t in op.results)
    if op.kind in CONTRACTIONS:
        tensor = _matmul_flops(operands[0], operands[1], padded=True)
        vector = 0
    else:
        tensor, vector = 0, _vector_flops(op, operands)
    busy = max(
        dram / target.dram_bandwidth,
        tensor / target.tensor_flops,
        vector / target.vector_flops,
    )
    seconds = target.launch_seconds + target.memory_latency_seconds + busy / LIBRARY_EFFICIENCY
    return KernelCost(op.kind, seconds, dram, tensor + vector)


def graph_op_cost(
    op: Op,
    operands: list[TensorType],
    target: Target,
    smem: int | None = None,
    regs: int | None = None,
    lowered: LoweredFacts | None = None,
    kept: int = 0,
    pulled: int = 0,
) -> KernelCost:
    """A graph-defined op: `grid` blocks, each running the block graph `forloop_range`
    times in its loop and the rest once. (`smem` and `regs` when already known; with
    `lowered`, what the lowering keeps in registers, its pipeline depth and barriers.)
    In a pair joined into one launch (`cluster_join`): `kept`, the bytes of results the
    first graph leaves in shared memory; `pulled`, the bytes of operands the second reads
    from its peers, and then it has no launch of its own."""
    body = op.body
    assert body is not None
    grid = op.ints_attr("grid")
    block = op.ints_attr("block")
    loops = op.int_attr("forloop_range")
    blocks = grid[0] * grid[1] * grid[2]
    threads = block[0] * block[1] * block[2]

    if lowered is not None:
        smem = lowered.shared_memory
    elif smem is None:
        smem = peak_shared_memory(body)
    in_registers = lowered.register_values if lowered is not None else frozenset[int]()
    if regs is None:
        regs = registers_per_thread(body, threads)
    per_sm = min(
        target.max_blocks_per_sm,
        target.max_threads_per_sm // threads,
        target.registers_per_sm // max(1, regs * threads),
        target.shared_memory_per_sm // smem if smem else target.max_blocks_per_sm,
    )
    per_sm = max(per_sm, 1)
    resident = target.sms * per_sm
    waves = -(-blocks // resident)
    active_sms = min(blocks, target.sms)
    # Blocks of a last, partial wave leave SMs idle: count whole waves.
    wave_penalty = waves * min(blocks, resident) / blocks

    tile_reads = 0
    tensor = 0
    vector = 0
    smem_traffic = 0
    copy_traffic = 0
    once = lowered.once if lowered is not None else frozenset[int]()
    for j, (bop, results) in enumerate(body.result_ids()):
        times = loops if j < body.loop_end and j not in once else 1
        in_types = [body.type_of(v) for v in bop.operands]
        if bop.kind in INPUTS:
            tile_reads += (
                times
                * bop.results[0].nbytes
                * _access_factor(bop, results[0], body, target, threads)
            )
            copy_traffic += times * bop.results[0].nbytes
            continue
        if bop.kind in OUTPUTS:
            continue
        strategy = ""
        if bop.kind in CONTRACTIONS:
            # the planner's strategy for the matmul (its facts: the tiles' padding)
            strategy = (lowered.strategy(j) if lowered is not None else None) or _strategy(
                in_types[0], in_types[1], target, threads
            )
        if strategy and strategy != matmul_plan.FMA:
            tensor += times * _tensor_core_flops(strategy, in_types[0], in_types[1])
        elif bop.kind in CONTRACTIONS:
            flops = _matmul_flops(in_types[0], in_types[1], padded=False)
            vector += times * flops * FMA_MATMUL_SLOWDOWN
        else:
            vector += times * _vector_flops(bop, in_types)
        touched = [v for v in (*bop.operands, *results) if v not in in_registers]
        smem_traffic += times * sum(body.type_of(v).nbytes for v in touched)
    writes = sum(t.nbytes for t in op.results) - kept
    unique_reads = sum(t.nbytes for t in operands) - pulled
    dram = unique_reads + writes

    # Few warps on an SM cannot hide the latency of tensor-core, CUDA-core and shared-memory
    # work: each SM's share of these throughputs shrinks below SATURATING_WARPS.
    concurrent = min(per_sm, -(-blocks // active_sms))  # blocks an SM runs at once
    warps_per_sm = concurrent * max(1, threads // 32)
    starved = max(1.0, SATURATING_WARPS / warps_per_sm) ** STARVED_EXPONENT
    fit = LOAD_FITS.get(lowered.loads, DEFAULT_LOAD_FIT) if lowered else DEFAULT_LOAD_FIT
    copy_starved = starved if fit.copies_starve else 1.0
    bandwidth = target.dram_bandwidth * min(
        1.0, active_sms / (_SATURATING_SM_FRACTION * target.sms)
    )
    busy_share = active_sms / target.sms
    on_chip = max(
        (blocks * tile_reads + writes) / (target.l2_bandwidth * fit.l2_gain),
        starved * blocks * tensor / (target.tensor_flops * busy_share),
        starved * blocks * vector / (target.vector_flops * busy_share),
        (starved * smem_traffic + copy_starved * copy_traffic)
        * blocks
        / (target.shared_bandwidth_per_sm * active_sms),
    )
    # Each loop iteration waits on its barriers (and on its loads when nothing is pipelined)
    # on top of the throughput-bound time: timed tilings that differ only in the loop range
    # grow with it even when device memory bounds them (rmsnorm_linear b1, 128 blocks: 18.3
    # µs at 8 iterations, 39.4 µs at 256, one NVIDIA H200).
    barriers = lowered.barriers if lowered is not None else 1
    exposed = lowered is not None and lowered.streamed and lowered.stages == 1 and not pulled
    per_iteration = barriers * ITERATION_SECONDS + (EXPOSED_LOAD_SECONDS if exposed else 0.0)
    # the barriers outside the loop wait as long (two LoRA tilings that differ only in
    # the tasks after their loop of one iteration: 5.12 and 5.59 µs, one NVIDIA H100)
    outside = lowered.barriers_outside if lowered is not None else 0
    serial = waves * (loops * per_iteration + outside * ITERATION_SECONDS)
    memory = dram / bandwidth / fit.dram_efficiency
    compute = on_chip / EFFICIENCY
    if loops == 1 and concurrent == 1:
        # one pass, one block an SM at a time: every copy lands before the block's work
        # starts and no other block's work fills the wait, so the two add up. Timed
        # one-pass tilings ran far above their max-priced estimate (rmsnorm_linear b1 in
        # 256 blocks: 27.6 µs against 17.0, the loop tilings' best 16.5; calibration
        # 2026-11-29_a, one NVIDIA H200); over the 717 timed tilings of benchmarks/data the
        # model's pick goes from 1.186x to 1.171x the best measured (geometric mean)
        busy = wave_penalty * (memory + compute)
    else:
        busy = wave_penalty * max(memory, compute)
    if pulled:  # no launch; its loads are the peers' tiles, after a cluster barrier
        seconds = waves * CLUSTER_HANDOVER_SECONDS + busy + serial
    else:
        seconds = target.launch_seconds + waves * target.memory_latency_seconds + busy + serial
    return KernelCost("graph", seconds, dram, blocks * (tensor + vector), blocks)


CLUSTER_HANDOVER_SECONDS = 0.3e-6
"""A joined graph's start: the cluster barrier and the pulls from the peers' shared memory
(a few hundred cycles each, all in flight at once)."""


def _joined_bytes(
    graph: Graph,
    entries: list[tuple[Op, tuple[int, ...]]],
    readers: list[int],
    index: int,
    target: Target,
) -> int:
    """The bytes of partial results that op `index` pulls from the graph before it, where it
    runs in that graph's launch (`cluster_join`), else 0. `readers`: every op's operands."""
    (first, results), (second, _) = entries[index - 1], entries[index]
    if first.kind not in LAUNCHES or second.kind not in LAUNCHES:
        return 0
    if first.body is None or second.body is None:
        return 0
    exclusive = [
        r not in graph.outputs and readers.count(r) == second.operands.count(r) for r in results
    ]
    facts = lowered_facts(first, target)
    if facts is None:
        return 0
    threads = math.prod(first.ints_attr("block"))
    join = find_join(first, results, second, exclusive, target, facts.loads, threads, False)
    if isinstance(join, str):
        return 0
    return sum(graph.type_of(results[p.result]).nbytes for p in join.pulls)


def kernel_lower_bound(dram_bytes: int, target: Target) -> float:
    """No kernel that moves `dram_bytes` through device memory takes less (a bound of both
    `predefined_cost` and `graph_op_cost`)."""
    return (
        target.launch_seconds
        + target.memory_latency_seconds
        + dram_bytes / target.dram_bandwidth / _BEST_DRAM_EFFICIENCY
    )


_BEST_DRAM_EFFICIENCY = max(
    DRAM_EFFICIENCY, LIBRARY_EFFICIENCY, *(f.dram_efficiency for f in LOAD_FITS.values())
)
"""The highest fraction of device-memory bandwidth any kernel is priced at: a bound below
the tensor-map kernels' (0.8) would cut the search's branches that lead to them."""


RETYPES = RESHAPES
"""Kernel ops that only give the same bytes another type: the lowering launches nothing for
them (`convert_kernel.py` aliases the buffer)."""


def op_cost(op: Op, operands: list[TensorType], target: Target) -> KernelCost:
    if op.kind in RETYPES:
        return KernelCost(op.kind, 0.0, 0, 0, blocks=0)
    if op.kind in LAUNCHES:
        return graph_op_cost(op, operands, target, lowered=lowered_facts(op, target))
    return _wrapped_cost(op, tuple(operands), target)


@lru_cache(maxsize=8192)
def _wrapped_cost(op: Op, operands: tuple[TensorType, ...], target: Target) -> KernelCost:
    """A plain kernel op runs as the kernel `wrap-kernel-ops` makes of it, generated like
    any μGraph's: priced as that kernel, and no faster than a library's kernel would run
    it (`predefined_cost`). The library's rate alone rated the unfused attention of gqa b1
    at half of what ran (21.9 against 41.6 µs measured on one NVIDIA H200; the wrapped
    kernels 49.1), the wrapped kernels alone rmsnorm_linear b8's two kernels below it
    (20.9 against 24.8; the library's rate 25.2). Ops with no block-level form, or whose
    wrapped kernel the target cannot run, at the library rate."""
    library = predefined_cost(op, list(operands), target)
    if op.kind not in UNWRAPPED:
        wrapped = wrap_op(op, list(operands))
        lowered = lowered_facts(wrapped, target) if check_fit(wrapped, target).ok else None
        if lowered is not None:
            cost = graph_op_cost(wrapped, list(operands), target, lowered=lowered)
            if cost.seconds > library.seconds:
                return KernelCost(op.kind, cost.seconds, cost.dram_bytes, cost.flops, cost.blocks)
    return library


def program_cost(graph: Graph, target: Target, clusters: bool = CLUSTERS_BY_DEFAULT) -> ProgramCost:
    """The time of a kernel-level graph: its kernels run one after another, or, with
    `clusters`, a pair that `cluster_join` joins in one launch. A retype costs nothing,
    unless its result is an output: the lowering then copies it (`wrap.py`), a one-operand
    elementwise launch."""
    outputs = set(graph.outputs)
    kernels: list[KernelCost] = []
    entries = list(graph.result_ids())
    readers = [v for op, _ in entries for v in op.operands]
    # op index -> the bytes it pulls from the op before it, which keeps them
    joins = (
        {
            i: n
            for i in range(1, len(entries))
            if (n := _joined_bytes(graph, entries, readers, i, target))
        }
        if clusters
        else {}
    )
    for index, (op, results) in enumerate(entries):
        operands = [graph.type_of(v) for v in op.operands]
        if index + 1 in joins or index in joins:
            kept, pulled = joins.get(index + 1, 0), joins.get(index, 0)
            facts = lowered_facts(op, target)
            kernels.append(
                graph_op_cost(op, operands, target, lowered=facts, kept=kept, pulled=pulled)
            )
            continue
        if op.kind in RETYPES and not outputs.isdisjoint(results):
            # costed as the one-operand pointwise launch it is: a multiplication by one
            scale = tuple((name, 1.0) for name in MUL_SCALAR.params)
            copy = Op(MUL_SCALAR.name, op.operands, op.results, scale)
            kernels.append(predefined_cost(copy, operands, target))
            continue
        kernels.append(op_cost(op, operands, target))
    return ProgramCost(sum(k.seconds for k in kernels), tuple(kernels))
