"""How a block matmul runs: the matmul strategies and the plan facts each owns.

- `mma-sync` (sm_80 on): every warp loads A and B fragments from shared memory with
  ldmatrix and issues mma.sync.m16n8k16 into f32 accumulators; warps split (batch, m16
  tiles, n8 tiles, k16 steps).
- `wgmma` (sm_90a only): each warpgroup (4 warps, 128 threads) issues asynchronous
  wgmma.mma_async.m64nNk16 instructions into f32 accumulators; warpgroups split (batch,
  m64 tiles, n), never k. B is read from shared memory through a matrix descriptor over a
  128-byte-swizzled tile (the layout the `tma` loads write; cp.async writes it too), its
  rows of N elements in 128-byte column panels. A is read through a descriptor as well
  where its tile is whole 64-row blocks of 128-byte-panel rows; otherwise (fewer than 64
  rows, a K that is not whole panels) each warp loads its 16 rows into registers with
  ldmatrix, as mma.sync does. The accumulator of m64nNk16 is, per warp, that of N/8
  mma.sync m16n8 tiles, so both strategies share the accumulator slots and their writes.
- `fma`: one output element per thread and step, an FMA loop over k on the CUDA cores.

`auto` keeps today's choice: mma-sync where it fits, else fma (wgmma is chosen only when
asked until the GPU has measured it faster). A strategy that a matmul's types, its block
or the target cannot run falls back, matmul by matmul, to the next that can (wgmma, then
mma-sync, then fma), and the plan keeps a remark that says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mirage.dialects.hardware import MMA_SYNC as MMA_SYNC_KIND
from mirage.dialects.hardware import WGMMA as WGMMA_KIND
from mirage.dialects.hardware import Target
from mirage.dialects.ugraph.graph import DTYPE_BYTES
from mirage.lowering.optimize.layout import SWIZZLE_ATOM, SWIZZLE_BYTES

AUTO, MMA_SYNC, WGMMA, FMA = "auto", "mma-sync", "wgmma", "fma"
STRATEGIES = (MMA_SYNC, WGMMA, FMA)
MATMULS = (AUTO, *STRATEGIES)
INSTRUCTIONS = {MMA_SYNC: "mma.sync.m16n8k16", WGMMA: "wgmma.m64nNk16", FMA: "fma"}
"""What each strategy issues, as `#mirage.mma` prints it."""

TENSOR_CORE_TYPES = ("f16", "bf16")
WARPGROUP_THREADS = 128
WGMMA_M = 64
WGMMA_K = 16
WGMMA_MAX_N = 256
WGMMA_STORE_N = 128
"""Widest instruction of a matmul whose accumulator lives only for its task (64 f32
registers a thread), so that its epilogue has registers left."""
MAX_ACC_REGISTERS = 96
"""f32 accumulator registers per thread that a matmul may keep across the loop."""
ROW_GROUP_BYTES = 8 * SWIZZLE_BYTES
"""8 rows of a 128-byte panel: the stride between the 8-row core groups of a descriptor."""


def check_matmuls(matmuls: str) -> str:
    if matmuls not in MATMULS:
        raise ValueError(f"matmuls must be one of {', '.join(MATMULS)}, got '{matmuls}'")
    return matmuls


@dataclass(frozen=True)
class Operands:
    """What a strategy needs to know of a matmul to say whether it can run it."""

    a_dtype: str
    b_dtype: str
    batch: tuple[int, ...]
    m: int
    n: int
    k: int


def _tensor_core_misfit(ops: Operands, threads: int) -> str | None:
    if ops.a_dtype != ops.b_dtype or ops.a_dtype not in TENSOR_CORE_TYPES:
        return f"its operands are {ops.a_dtype} and {ops.b_dtype}, not both f16 or both bf16"
    if ops.k % 16:
        return f"its k ({ops.k}) is not a multiple of 16"
    if threads % 32:
        return f"the block's {threads} threads are not whole warps"
    return None


def misfit(strategy: str, target: Target, ops: Operands, threads: int) -> str | None:
    """Why `strategy` cannot run the matmul (None: it can)."""
    if strategy == FMA:
        return None
    if strategy == MMA_SYNC:
        if MMA_SYNC_KIND not in target.tensor_cores:
            return f"{target.name} has no mma.sync tensor cores"
        return _tensor_core_misfit(ops, threads)
    assert strategy == WGMMA
    if WGMMA_KIND not in target.tensor_cores:
        return f"{target.name} has no wgmma (sm_90a only)"
    why = _tensor_core_misfit(ops, threads)
    if why is not None:
        return why
    if threads % WARPGROUP_THREADS:
        return f"the block's {threads} threads are not whole warpgroups of {WARPGROUP_THREADS}"
    if ops.n % 8:
        return f"its n ({ops.n}) is not a multiple of 8"
    return None


def choose(asked: str, target: Target, ops: Operands, threads: int) -> tuple[str, str]:
    """(the strategy the matmul runs, a remark where it is not the one asked for)."""
    check_matmuls(asked)
    order = {
        AUTO: (MMA_SYNC, FMA),
        MMA_SYNC: (MMA_SYNC, FMA),
        WGMMA: (WGMMA, MMA_SYNC, FMA),
        FMA: (FMA,),
    }[asked]
    reasons: list[str] = []
    for strategy in order:
        why = misfit(strategy, target, ops, threads)
        if why is None:
            remark = ""
            if reasons and asked != AUTO:
                remark = f"{'; '.join(reasons)}: runs {strategy}"
            return strategy, remark
        reasons.append(f"{strategy}: {why}")
    raise AssertionError("fma runs every matmul")


def tensor_core_flops(strategy: str, batch: int, m: int, n: int, k: int) -> int:
    """The flops a strategy's tensor-core instructions spend on the matmul, the rows and
    columns their tiles pad included (what the cost model charges; 0 for fma, whose flops
    are the CUDA cores')."""
    if strategy == FMA:
        return 0
    rows = WGMMA_M if strategy == WGMMA else 16
    m, n, k = -(-m // rows) * rows, -(-n // 8) * 8, -(-k // 16) * 16
    return 2 * batch * m * n * k


# --- mma-sync: the split over warps ---------------------------------------------------------


def mma_sync_parts(
    warps: int, nb: int, m16: int, n8: int, k16: int, allow_split_k: bool, resident: bool
) -> tuple[int, int, int, int]:
    """mma-sync: warps along (batch, m16 tiles, n8 tiles, k16 steps), all busy if possible,
    few fragment loads; with `resident`, the accumulator fits MAX_ACC_REGISTERS."""
    best: tuple[float, tuple[int, int, int, int]] | None = None
    divisors = [d for d in range(1, warps + 1) if warps % d == 0]
    for pb in divisors:
        for pm in divisors:
            for pn in divisors:
                used = pb * pm * pn
                if warps % used:
                    continue
                pk = warps // used if allow_split_k else 1
                if pk > 1 and (k16 % pk or not allow_split_k):
                    continue
                if nb % pb or m16 % pm or n8 % pn:
                    continue
                bt, mt, nt = nb // pb, m16 // pm, n8 // pn
                kt = k16 // pk
                if resident and bt * mt * nt * 4 > MAX_ACC_REGISTERS:
                    continue
                busy = pb * pm * pn * pk
                mmas = bt * mt * nt * kt
                loads = bt * kt * (mt + (nt + 1) // 2)
                cost = mmas + 0.5 * loads + (40.0 if pk > 1 else 0.0)
                cost *= warps / busy
                if best is None or cost < best[0]:
                    best = (cost, (pb, pm, pn, pk))
    if best is None:
        return (1, 1, 1, 1)
    return best[1]


def mma_sync_tiles(
    batch: tuple[int, ...],
    m: int,
    n: int,
    k: int,
    parts: tuple[int, int, int, int],
    tensor_core: bool,
) -> tuple[int, int, int, int]:
    """(batches, m16 tiles, n8 tiles, k16 steps) per warp (no k steps for fma)."""
    nb = math.prod(batch)
    pb, pm, pn, pk = parts
    return (
        math.ceil(nb / pb),
        math.ceil(math.ceil(m / 16) / pm),
        math.ceil(math.ceil(n / 8) / pn),
        math.ceil(k // 16 / pk) if tensor_core else 0,
    )


MMA_SYNC_CHAINS = 4
"""Independent mma.sync accumulations a warp keeps in flight: each mma.sync waits for the
one before it on the same accumulator, so a warp with one m16n8 tile and a long k would
wait out every instruction's latency in turn."""


def mma_sync_k_chains(tiles_per_step: int, k_steps: int) -> int:
    """Accumulators per tile a warp of mma.sync keeps along k (k step s into accumulator
    s mod the result, summed after the last step): enough for MMA_SYNC_CHAINS independent
    accumulations per step, a divisor of the warp's k steps."""
    chains = max(1, MMA_SYNC_CHAINS // max(1, tiles_per_step))
    while chains > 1 and k_steps % chains:
        chains -= 1
    return min(chains, max(1, k_steps))


# --- wgmma: the split over warpgroups, the instructions, the descriptors ---------------------


def warpgroups(threads: int) -> int:
    return threads // WARPGROUP_THREADS


def wgmma_a_descriptor(m: int, k: int, dtype: str) -> bool:
    """A is read through a descriptor: whole 64-row blocks of whole 128-byte panels (no
    row of a block's 64 outside the tile); else from registers."""
    return m % WGMMA_M == 0 and (k * DTYPE_BYTES[dtype]) % SWIZZLE_BYTES == 0


def _n_splits(n: int, esize: int) -> list[int]:
    """Ways to split n over warpgroups: every part a multiple of 8 that starts on a
    128-byte panel of B (a descriptor's start may not fall inside a swizzled row)."""
    panel = SWIZZLE_BYTES // esize
    return [
        p
        for p in range(1, n // 8 + 1)
        if n % p == 0 and (n // p) % 8 == 0 and (p == 1 or (n // p) % panel == 0)
    ]


def wgmma_parts(
    groups: int, nb: int, m: int, n: int, esize: int, resident_limit: int | None
) -> tuple[int, int, int, int] | None:
    """Warpgroups along (batch, m64 tiles, n, 1): as many busy as can be, then the widest
    instructions. With `resident_limit`, the accumulator (f32 registers a thread) must
    fit it; None where no split does."""
    m64 = math.ceil(m / WGMMA_M)
    best: tuple[tuple[int, int], tuple[int, int, int, int]] | None = None
    for pb in (d for d in range(1, nb + 1) if nb % d == 0):
        for pm in (d for d in range(1, m64 + 1) if m64 % d == 0):
            for pn in _n_splits(n, esize):
                used = pb * pm * pn
                if used > groups or groups % used:
                    continue
                regs = (nb // pb) * (m64 // pm) * (n // pn) // 2
                if resident_limit is not None and regs > resident_limit:
                    continue
                score = (used, -pn)
                if best is None or score > best[0]:
                    best = (score, (pb, pm, pn, 1))
    return None if best is None else best[1]


def wgmma_chain_parts(
    groups: int, nb: int, m: int, n1: int, n2: int, resident_limit: int
) -> tuple[int, int, int, int] | None:
    """A chain S = A B, e = f(S), O += e V on wgmma: warpgroups along (batch, m64 tiles)
    only, each with all of S's n1 columns (the k of the second matmul) in one instruction
    and all of O's n2. S lives for one m64 tile at a time (at most 64 f32 a thread), O
    across the loop (at most `resident_limit`). None where no split fits."""
    if n1 > WGMMA_STORE_N or n1 % 16:
        return None
    m64 = math.ceil(m / WGMMA_M)
    best: tuple[int, tuple[int, int, int, int]] | None = None
    for pb in (d for d in range(1, nb + 1) if nb % d == 0):
        for pm in (d for d in range(1, m64 + 1) if m64 % d == 0):
            used = pb * pm
            if used > groups or groups % used:
                continue
            units = (nb // pb) * (m64 // pm)
            if units * n2 // 2 > resident_limit:
                continue
            if best is None or used > best[0]:
                best = (used, (pb, pm, 1, 1))
    return None if best is None else best[1]


def wgmma_tiles(
    batch: tuple[int, ...], m: int, n: int, k: int, parts: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    """(batches, m64 tiles, n8 tiles, k16 steps) per warpgroup. Each warp of it holds, per
    m64 tile, the accumulator of its 16 rows: n8 tiles of 4 f32, as mma.sync's."""
    pb, pm, pn, _ = parts
    return (
        math.ceil(math.prod(batch) / pb),
        math.ceil(math.ceil(m / WGMMA_M) / pm),
        n // pn // 8,
        k // WGMMA_K,
    )


def wgmma_instruction_n(n_per_group: int, esize: int, resident: bool) -> int:
    """The n of each instruction over a warpgroup's n columns: the widest that divides
    them and starts every instruction on a panel of B (or is all of them)."""
    cap = WGMMA_MAX_N if resident else WGMMA_STORE_N
    if n_per_group <= cap:
        return n_per_group
    panel = SWIZZLE_BYTES // esize
    return max(w for w in range(panel, cap + 1, panel) if n_per_group % w == 0)


SWIZZLE_MODES = {0: 0, 128: 1, 64: 2, 32: 3}
"""The layout-type field (bits 62-63) of a descriptor, by swizzle bytes."""


@dataclass(frozen=True)
class Descriptor:
    """A shared-memory matrix descriptor of wgmma, by its fields (bytes)."""

    address: int
    """Shared-window address of the matrix's first 16-byte chunk."""
    leading: int
    """Leading-dimension byte offset: between 128-byte panels of an N-major (transposed)
    operand; unused by a swizzled K-major one (16 by convention)."""
    stride: int
    """Stride-dimension byte offset: between 8-row core groups."""
    swizzle: int = SWIZZLE_BYTES
    base_offset: int = 0
    """The pattern's phase where the matrix does not start on a swizzle atom (ours do)."""


def encode_descriptor(d: Descriptor) -> int:
    """The 64 bits: address >> 4 in bits 0-13, leading offset >> 4 in 16-29, stride offset
    >> 4 in 32-45, base offset in 49-51, swizzle mode in 62-63."""
    for what, value in (("address", d.address), ("leading", d.leading), ("stride", d.stride)):
        if value % 16 or not 0 <= value >> 4 < 1 << 14:
            raise ValueError(f"descriptor {what} {value} is not a multiple of 16 below 256 KiB")
    return (
        (d.address >> 4)
        | (d.leading >> 4) << 16
        | (d.stride >> 4) << 32
        | (d.base_offset & 7) << 49
        | SWIZZLE_MODES[d.swizzle] << 62
    )


def decode_descriptor(bits: int) -> Descriptor:
    modes = {v: k for k, v in SWIZZLE_MODES.items()}
    return Descriptor(
        address=(bits & 0x3FFF) << 4,
        leading=((bits >> 16) & 0x3FFF) << 4,
        stride=((bits >> 32) & 0x3FFF) << 4,
        swizzle=modes[(bits >> 62) & 3],
        base_offset=(bits >> 49) & 7,
    )


def a_descriptor_fields() -> tuple[int, int]:
    """(leading, stride) of A, K-major in 128-byte panels: 8-row groups 1024 bytes apart;
    the panel's k16 steps are 32-byte advances of the start address."""
    return 16, ROW_GROUP_BYTES


def b_descriptor_fields(panel_bytes: int) -> tuple[int, int]:
    """(leading, stride) of B, N-major (k rows of n elements) in 128-byte column panels:
    panels `panel_bytes` apart, 8-row groups of k 1024 bytes apart."""
    assert panel_bytes % SWIZZLE_ATOM == 0
    return panel_bytes, ROW_GROUP_BYTES


__all__ = [
    "AUTO",
    "FMA",
    "INSTRUCTIONS",
    "MATMULS",
    "MMA_SYNC",
    "STRATEGIES",
    "WGMMA",
    "Descriptor",
    "Operands",
    "check_matmuls",
    "choose",
    "decode_descriptor",
    "encode_descriptor",
    "misfit",
    "mma_sync_parts",
    "mma_sync_tiles",
    "tensor_core_flops",
    "wgmma_a_descriptor",
    "wgmma_chain_parts",
    "wgmma_instruction_n",
    "wgmma_parts",
    "wgmma_tiles",
]
