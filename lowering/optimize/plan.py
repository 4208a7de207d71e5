"""The μGraph optimizer: how one `kernel.graph` runs on a thread block.

From a block graph (the search model's `Graph`), it decides
- which values live in shared memory and which are computed in registers where they are
  read (elementwise chains fused at thread level, including matmul epilogues);
- for each matmul: tensor cores or not, the split of its tiles over warps, and whether its
  accumulator stays in registers across the for-loop;
- the layouts of the tiles (padded pitches against bank conflicts) and the depth of the
  software pipeline of the input iterators;
- a schedule of tasks in phases with a barrier between phases, reordered for the fewest
  barriers, and shared-memory offsets by liveness over those phases.
The code generator (`mirage.lowering.to_llvm.graph_kernel`) follows this plan literally.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from mirage.dialects import shapes
from mirage.dialects.hardware import SM_90, SM_90A, Target
from mirage.dialects.opkinds import (
    ACCUMULATORS,
    CONCATS,
    CONTRACTIONS,
    EXPONENTIALS,
    FUSED,
    INPUTS,
    LAST_DIM_ACCUMULATORS,
    LOOP_MAX,
    LOOP_MEAN_LAST,
    LOOP_RESCALE,
    LOOP_RMS_LAST,
    LOOP_SUM,
    LOOP_SUM_LAST,
    MAX_REDUCTIONS,
    NORMS,
    OUTPUTS,
    PLAIN_ACCUMULATORS,
    REDUCTIONS,
    SHIFTS,
    SUM_REDUCTIONS,
)
from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS as ACCUMULATOR_KINDS_TUPLE
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize import load_plan, matmul_plan
from mirage.lowering.optimize.layout import (
    ALIGN,
    SWIZZLE_BYTES,
    Tile,
    align_up,
    row_pitch,
    short_row_swizzle,
)

ELEMENTWISE_CLASS = FUSED
ACCUMULATOR_KINDS = frozenset(ACCUMULATOR_KINDS_TUPLE)
ELEMENT_READERS = (
    ELEMENTWISE_CLASS | CONCATS | REDUCTIONS | NORMS | OUTPUTS | frozenset(ACCUMULATORS)
)
"""Ops that read their operands element by element (so a fused producer can be
computed where they read it)."""

MAX_ACC_REGISTERS = matmul_plan.MAX_ACC_REGISTERS
MAX_CHUNK_REGISTERS = 32
"""f32 accumulator registers per thread for one register block of a matmul."""
PIPELINE_BYTES_IN_FLIGHT = 96 * 1024
MAX_STAGES = 8
MAX_TENSOR_BYTES = 1 << 31
COMPUTE_BOUND = 32
"""Tensor-core flops per streamed byte above which a kernel is compute-bound."""


ROW_ACCUMULATORS = LAST_DIM_ACCUMULATORS
MAX_ROW_PASSES = 4
OVERLAP_CHAINS = False
"""Whether online chains on wgmma are software-pipelined where they can be
(`MatmulPlan.overlap`). Off: measured slower on one NVIDIA H100 (benchmarks/RESULTS.md,
2026-12-07 (night)): gqa b8 23.35 against 20.40 µs with cp.async, 19.47 against 18.99 with
tensor maps; the long-attention pairs 191.5 against 188.0 and 55.6 against 52.2 µs."""
PINGPONG_CHAINS = False
"""Whether online chains of two warpgroups take turns at their first matmul
(`MatmulPlan.pingpong`). Off: measured slower on one NVIDIA H100 (benchmarks/RESULTS.md,
2026-12-07 (morning), run 8): gqa b8 19.98 against 18.54 µs with cp.async, 18.21 against
17.69 with tensor maps; the long-attention pairs 5-15 % slower."""
DEPENDENT_LAUNCHES = False
"""Whether the launches after a program's first are programmatic where the target has
it (`Target.dependent_launches`, `dependent_launch`). Off: measured no faster on one
NVIDIA H100 (benchmarks/RESULTS.md, 2026-12-07 (night)): gqa b1 9.11 against 9.25 µs,
qknorm b8 31.02 against 30.39; letting the next launch start at a kernel's beginning
(griddepcontrol.launch_dependents) made them 10.94 and 37.37."""
PINGPONG_GROUPS = 2
"""Warpgroups that take turns (`MatmulPlan.pingpong`)."""
OVERLAP_SPARE_REGISTERS = 48
"""Registers a thread of an overlapped chain needs besides its S, e (two steps') and O:
addresses, the running maxima and sums, loop state."""


def _pow2_floor(n: int) -> int:
    return 1 << (max(n, 1).bit_length() - 1)


def group_layout(threads: int, outputs: int, per_output: int) -> tuple[int, int, int]:
    """How a reduction spreads over the block: (lanes per output, outputs per pass,
    passes). Lanes of one output are adjacent in a warp, so shuffles combine them."""
    group = 1
    if threads % 32 == 0:
        group = min(32, _pow2_floor(per_output), _pow2_floor(max(1, threads // outputs)))
    per_pass = threads // group
    return group, per_pass, math.ceil(outputs / per_pass)


def rescale_layout(
    threads: int, value: Sequence[int], scale: Sequence[int]
) -> tuple[list[int], int, int]:
    """How accum_rescale(value, scale) spreads over the block: (the dims of `value` that
    `scale` broadcasts over, passes, rounds). A group of lanes (`group_layout`) takes each
    element of `scale`, and its lanes `rounds` of the elements it scales, each pass; a
    lane's elements are the same every iteration."""
    inner_dims = [d for d in range(len(value)) if scale[d] == 1 and value[d] > 1]
    inner = math.prod(value[d] for d in inner_dims)
    group, _, passes = group_layout(threads, math.prod(scale), inner)
    return inner_dims, passes, math.ceil(inner / group)


def scratch_set_bytes(threads: int) -> int:
    """One f32 partial per warp: a reduction pass across warps publishes its warps'
    partials in one such set of `Plan.scratch`."""
    return 4 * (threads // 32)


def wide_group(threads: int, outputs: int, per_output: int) -> int:
    """Lanes per output for a reduction with fewer outputs than warps over long rows: the
    group spans several warps, which combine through shared memory (`Plan.scratch`), so
    that the whole block works instead of one warp per output. 0 where one warp per
    output (or less) is the layout."""
    if threads % 32:
        return 0
    group = min(_pow2_floor(per_output), _pow2_floor(max(1, threads // outputs)))
    return group if group > 32 else 0


def _wide_reductions(graph: Graph, threads: int) -> bool:
    for op in graph.ops:
        if op.kind in REDUCTIONS or op.kind in NORMS:
            shape = graph.type_of(op.operands[0]).shape
            if op.kind in NORMS:
                dim, size = len(shape) - 1, 1
            else:
                dim, size = op.int_attr("dim"), op.int_attr("size")
            outputs = math.prod(shape) // shape[dim] * size
            if wide_group(threads, outputs, shape[dim] // size):
                return True
    return False


class PlanError(ValueError):
    """The block graph cannot run on one thread block as asked (e.g. too much shared
    memory); the message says what and how much."""


@dataclass
class MatmulPlan:
    op: int
    """Index of the matmul op in the block graph."""
    a: int
    b: int
    """Operand values (possibly converted copies, see `Plan.converts`)."""
    result: int
    strategy: str
    """How it runs (`matmul_plan`: mma-sync, wgmma or fma)."""
    ab_type: str
    batch: tuple[int, ...]
    m: int
    n: int
    k: int
    parts: tuple[int, int, int, int] = (1, 1, 1, 1)
    """Warps along (batch, m tiles, n tiles, k steps)."""
    mode: str = "store"
    """'regs': accumulator in registers across the loop; 'store': result (or its fused
    elementwise epilogue) written to a tile; 'accumulate': combined into an accumulator
    tile every iteration; 'global': its epilogue computes a block output's operand and
    stores it to device memory itself (`Planner._direct_outputs`)."""
    target: int = -1
    """The value whose tile the matmul writes (the result, an epilogue's end, or the
    accumulator); in mode 'global', the block output's result."""
    combine: str = "sum"
    chain_next: int = -1
    """Op index of a matmul that takes this one's (epilogue) result as its A operand
    straight from registers (the fragments of C are those of A: FlashAttention's trick)."""
    chain_prev: int = -1
    rowsum: int = -1
    """Value id of an accum_sum_last of the chained result, summed in registers (in an
    online chain: the accum_rescale of the chained result's row sums)."""
    rowmax: int = -1
    """In an online-softmax chain (FlashAttention's loop): the value id of the row maximum
    of this matmul's result, kept in registers with the running maximum; -1 otherwise."""
    overlap: bool = False
    """An online chain whose loop is software-pipelined (FlashAttention-3's overlap within a
    warpgroup): each step issues the next step's S = A B before its own O += e V, and takes
    the next step's softmax while the tensor cores run both (`Planner._overlap_chain`)."""
    pingpong: bool = False
    """An online chain of two warpgroups that take turns at issuing S = A B (FlashAttention-
    3's ping-pong, `Planner._pingpong_chain`): each waits for its turn at a named barrier,
    issues, and passes the turn, so that one's softmax runs while the other's matmuls do."""

    @property
    def tensor_core(self) -> bool:
        return self.strategy in (matmul_plan.MMA_SYNC, matmul_plan.WGMMA)

    @property
    def wgmma(self) -> bool:
        return self.strategy == matmul_plan.WGMMA

    @property
    def tiles(self) -> tuple[int, int, int, int]:
        """(batches, m16 tiles, n8 tiles, k16 steps) per warp; for wgmma (batches, m64
        tiles, n8 tiles, k16 steps) per warpgroup (`matmul_plan.wgmma_tiles`). Either way
        a thread keeps 4 f32 of the accumulator per (batch, m tile, n8 tile)."""
        if self.wgmma:
            return matmul_plan.wgmma_tiles(self.batch, self.m, self.n, self.k, self.parts)
        return matmul_plan.mma_sync_tiles(
            self.batch, self.m, self.n, self.k, self.parts, self.tensor_core
        )


@dataclass
class Task:
    kind: str
    """copy | compute | matmul | reduce | rms_norm | concat | acc_init | acc_update |
    materialize | convert | output"""
    op: int
    """The block-graph op it runs (-1 for none)."""
    reads: tuple[int, ...]
    writes: tuple[int, ...]
    phase: int = -1


@dataclass
class Plan:
    graph: Graph
    grid: tuple[int, int, int]
    threads: int
    loops: int
    target: Target
    tiles: dict[int, Tile] = field(default_factory=lambda: {})
    virtual: set[int] = field(default_factory=lambda: set())
    matmuls: dict[int, MatmulPlan] = field(default_factory=lambda: {})
    """By op index."""
    converts: dict[int, int] = field(default_factory=lambda: {})
    """Converted copy value id -> source value id (tiles that tensor cores can read)."""
    hoisted: set[int] = field(default_factory=lambda: set())
    """Input iterators whose tile does not change over the loop: loaded once."""
    streamed: list[int] = field(default_factory=lambda: [])
    """Input iterators loaded every iteration (pipelined, `stages` deep)."""
    stages: int = 1
    pre: list[Task] = field(default_factory=lambda: [])
    invariant: list[Task] = field(default_factory=lambda: [])
    """Tasks of the loop's block ops that read only loop-invariant tiles (hoisted inputs, or
    what other such tasks write): run once, after the hoisted tiles land, before the loop."""
    loop: list[Task] = field(default_factory=lambda: [])
    post: list[Task] = field(default_factory=lambda: [])
    smem_bytes: int = 0
    loads: str = load_plan.CP_ASYNC
    """How pipelined tiles arrive (`mirage.lowering.optimize.load_plan`)."""
    scratch: int = -1
    """Shared-memory offset of two sets of one f32 per warp (`scratch_set_bytes`), which
    reductions across warps (`wide_group`) take in turn, or -1 where none needs them."""
    mbarriers: int = 0
    """Shared-memory offset of the stages' mbarriers (`load_plan.mbarrier_bytes`)."""
    register_rows: set[int] = field(default_factory=lambda: set())
    """Accumulators whose state stays in each lane's registers through the loop and reaches
    their tile once, after it (acc_flush): row accumulators' (accum_*_last) partial sums,
    and accum_rescale's elements with their running maxima (`rescale_in_registers`)."""
    rescale_max: dict[int, int] = field(default_factory=lambda: {})
    """accum_rescale value -> the value id of its running-maximum tile."""
    reduce_epilogues: dict[int, int] = field(default_factory=lambda: {})
    """A reduction's result -> the result of its one reader, an elementwise op of it alone,
    which the reduction's task computes from each total and stores instead (no tile of the
    totals; a root or a quotient once a total, not once an element that reads it)."""
    norm_scales: dict[int, int] = field(default_factory=lambda: {})
    """A normalization computed where it is read (x s, gain and bias applied) -> the value
    id of its tile of row scales s (one f32 a row), which its own task writes."""
    next_value: int = 0
    remarks: list[str] = field(default_factory=lambda: [])
    """What the planner did otherwise than asked, and why (a strategy that fell back)."""

    @property
    def async_proxy_reads(self) -> bool:
        """Some matmul reads its operands through wgmma descriptors (the async proxy)."""
        return any(mm.wgmma for mm in self.matmuls.values())

    @property
    def warps(self) -> int:
        return self.threads // 32

    @property
    def launch_threads(self) -> int:
        return load_plan.launch_threads(self.loads, self.threads)

    def tensor_maps(self) -> list[load_plan.TensorMapPlan]:
        if self.loads != load_plan.TMA:
            return []
        producer = self.producer()
        return load_plan.tensor_maps(
            self.graph, self.streamed, self.tiles, lambda v: producer[v][1].operands[0]
        )

    @property
    def epilogue(self) -> list[int]:
        """Input iterators after the loop (epilogue operands, forloop_dim -1): copied once,
        after the last iteration, into tiles that may reuse what the loop's tiles held."""
        g = self.graph
        return [
            results[0]
            for i, (op, results) in enumerate(g.result_ids())
            if i >= g.loop_end and op.kind in INPUTS
        ]

    def new_value(self) -> int:
        v = self.next_value
        self.next_value += 1
        return v

    def producer(self) -> dict[int, tuple[int, Op]]:
        out: dict[int, tuple[int, Op]] = {}
        for i, (op, results) in enumerate(self.graph.result_ids()):
            for r in results:
                out[r] = (i, op)
        return out

    @property
    def barriers(self) -> int:
        """Barriers per loop iteration (the figure the scheduler minimizes)."""
        return max((t.phase for t in self.loop), default=0) + 1

    @property
    def barriers_outside(self) -> int:
        """Barriers outside the loop: around the loop-invariant tasks and between their
        phases, before the tasks after the loop and between theirs."""
        invariant = max((t.phase for t in self.invariant), default=-1) + 1
        post = max((t.phase for t in self.post), default=-1) + 1
        return (invariant + 1 if invariant else 0) + post

    def describe(self) -> str:
        lines = [
            f"threads {self.threads}, loop {self.loops}, stages {self.stages}, "
            f"loads {self.loads}, shared memory {self.smem_bytes} bytes, "
            f"{self.barriers} barrier(s) per iteration"
        ]
        for v in sorted(self.tiles):
            lines.append(f"  %{v}: {self.tiles[v].describe()}")
        for mm in self.matmuls.values():
            unit = "warpgroups" if mm.wgmma else "warps"
            lines.append(
                f"  matmul op {mm.op}: {matmul_plan.INSTRUCTIONS[mm.strategy]} "
                f"{unit} {mm.parts} mode {mm.mode} -> %{mm.target}"
            )
        lines.extend(f"  remark: {r}" for r in self.remarks)
        return "\n".join(lines)


def _uses(graph: Graph) -> dict[int, list[tuple[int, Op]]]:
    uses: dict[int, list[tuple[int, Op]]] = {}
    for i, op in enumerate(graph.ops):
        for v in op.operands:
            uses.setdefault(v, []).append((i, op))
    return uses


def broadcast_batch(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return shapes.broadcast(a[:-2], b[:-2]) if len(a) > 2 else ()


class Planner:
    def __init__(
        self,
        graph: Graph,
        grid: Sequence[int],
        block: Sequence[int],
        loops: int,
        target: Target = SM_90A,
        stages: int | None = None,
        loads: str | None = load_plan.CP_ASYNC,
        matmuls: str = matmul_plan.AUTO,
    ):
        threads = math.prod(block)
        self.plan = Plan(graph, (grid[0], grid[1], grid[2]), threads, loops, target)
        self.plan.next_value = graph.num_values
        self.uses = _uses(graph)
        self.producer = self.plan.producer()
        self.forced_stages = stages
        # None: the target's default, which keeps cp.async for batched tiles (`choose_loads`)
        self.loads = load_plan.check_loads(target.default_loads if loads is None else loads)
        self.loads_asked = loads is not None
        self.matmuls = matmul_plan.check_matmuls(matmuls)
        self.ldmatrix_values: set[int] = set()
        self.results = [results for _, results in graph.result_ids()]
        self.chains: dict[int, list[int]] = {}
        self.claimed: dict[int, tuple[int, ...]] = {}

    # --- value classification ---------------------------------------------------------

    def op_of(self, v: int) -> Op | None:
        p = self.producer.get(v)
        return p[1] if p else None

    def is_elementwise(self, v: int) -> bool:
        op = self.op_of(v)
        return op is not None and op.kind in ELEMENTWISE_CLASS

    def run(self) -> Plan:
        g = self.plan.graph
        named = [(f"input {i}", t) for i, t in enumerate(g.args)]
        named += [(f"output {i}", t) for i, t in enumerate(g.output_types)]
        for what, t in named:
            if t.nbytes >= MAX_TENSOR_BYTES:
                raise PlanError(
                    f"{what} ({t}) has {t.nbytes} bytes: kernels index tensors with 32-bit "
                    f"offsets, so tensors must stay under {MAX_TENSOR_BYTES} bytes"
                )
        self._classify_inputs()
        self._plan_matmuls()
        self._choose_virtual()
        self._find_chains()
        self._find_online_chains()
        self._assign_tiles()
        self._build_tasks()
        self._direct_outputs()
        self._hoist_invariant()
        self._schedule()
        self._allocate()
        self._overlap_chain()
        self._pingpong_chain()
        return self.plan

    def _classify_inputs(self) -> None:
        p = self.plan
        for i, op in enumerate(p.graph.ops):
            if op.kind not in INPUTS or i >= p.graph.loop_end:
                continue  # an epilogue operand is copied after the loop (`Plan.epilogue`)
            v = self._result(i)
            if op.int_attr("forloop_dim") == shapes.REPLICATE or p.loops == 1:
                p.hoisted.add(v)
            else:
                p.streamed.append(v)

    def _result(self, index: int) -> int:
        return self.results[index][0]

    # --- matmuls ------------------------------------------------------------------------

    def _plan_matmuls(self) -> None:
        p = self.plan
        g = p.graph
        for i, op in enumerate(g.ops):
            if op.kind not in CONTRACTIONS:
                continue
            a, b = op.operands
            ta, tb = g.type_of(a), g.type_of(b)
            result = self._result(i)
            batch = broadcast_batch(ta.shape, tb.shape)
            m, n, k = ta.shape[-2], tb.shape[-1], ta.shape[-1]
            operands = matmul_plan.Operands(ta.dtype, tb.dtype, batch, m, n, k)
            strategy, remark = matmul_plan.choose(self.matmuls, p.target, operands, p.threads)
            if remark:
                p.remarks.append(f"matmul op {i}: {remark}")
            mm = MatmulPlan(
                op=i,
                a=a,
                b=b,
                result=result,
                strategy=strategy,
                ab_type=ta.dtype,
                batch=batch,
                m=m,
                n=n,
                k=k,
                target=result,
            )
            p.matmuls[i] = mm
            if mm.tensor_core:
                # tensor cores read their operands from tiles, never from fused producers
                self.ldmatrix_values.update((a, b))

    # --- which values need a tile -------------------------------------------------------

    def _chain(self, v: int) -> list[int]:
        """`v` and the single-use elementwise consumers of its shape that follow it (not
        those another matmul's epilogue computes already)."""
        g = self.plan.graph
        shape = g.type_of(v).shape
        chain = [v]
        while True:
            uses = self.uses.get(v, [])
            if len(uses) != 1:
                return chain
            i, op = uses[0]
            if op.kind not in ELEMENTWISE_CLASS or len(op.results) != 1:
                return chain
            if op.results[0].shape != shape or self._result(i) in self.claimed.get(v, ()):
                return chain
            nxt = self._result(i)
            if any(nxt in c for owner, c in self.chains.items() if owner != chain[0]):
                return chain
            v = nxt
            chain.append(v)

    def _choose_virtual(self) -> None:
        """A value is computed where it is read (no tile) when its one reader reads element
        by element; a matmul computes the elementwise chain after it in its epilogue."""
        p = self.plan
        g = p.graph
        depth = self._matmul_depths()
        for mm in sorted(p.matmuls.values(), key=lambda mm: (-depth[mm.result], mm.op)):
            chain = self._chain(mm.result)
            self.chains[mm.result] = chain
            end = chain[-1]
            uses = self.uses.get(end, [])
            combine = "sum" if uses and uses[0][1].kind in LOOP_SUM else "max"
            regs = len(chain) == 1 and combine == "sum" and mm.tensor_core
            # a loop that runs once leaves an accumulator nothing to combine: its operand,
            # stored, is its value (`_computable_in_place`)
            once = p.loops == 1 and not regs
            if len(uses) == 1 and uses[0][1].kind in PLAIN_ACCUMULATORS and not once:
                mm.combine = combine
                mm.target = self._result(uses[0][0])
                mm.mode = "regs" if regs else "accumulate"
                p.virtual.update(chain)
            else:
                mm.mode = "store"
                mm.target = end
                p.virtual.update(chain[:-1])
        targets = {mm.target for mm in p.matmuls.values()}
        for v in range(len(g.args), g.num_values):
            if v in p.virtual or v in targets or v in self.ldmatrix_values:
                continue
            op = self.op_of(v)
            if op is None or not self._computable_in_place(op):
                continue
            uses = self.uses.get(v, [])
            if len(uses) == 1 and uses[0][1].kind in ELEMENT_READERS:
                p.virtual.add(v)
        self._fold_reduce_epilogues()

    def _fold_reduce_epilogues(self) -> None:
        """A reduction whose one reader is elementwise in its result alone (the root and
        scale of a norm, say) computes that reader's value as it stores each total: where
        that value were computed where read, every element of a broadcast would compute it
        again (a norm over keys: a square root and a division per score)."""
        p = self.plan
        g = p.graph
        for i, (op, results) in enumerate(g.result_ids()):
            r = results[0]
            if op.kind not in REDUCTIONS or r in p.virtual or len(results) != 1:
                continue
            uses = self.uses.get(r, [])
            if len(uses) != 1 or (i < g.loop_end) != (uses[0][0] < g.loop_end):
                continue
            j, reader = uses[0]
            e = self._result(j)
            if (
                reader.kind not in ELEMENTWISE_CLASS
                or set(reader.operands) != {r}
                or len(reader.results) != 1
                or e not in p.virtual
                or g.type_of(e).shape != g.type_of(r).shape
            ):
                continue
            p.virtual.discard(e)
            p.virtual.add(r)
            p.reduce_epilogues[r] = e

    def _matmul_depths(self) -> dict[int, int]:
        """Each value's count of matmuls on its longest path from the inputs. Matmuls later
        in a chain of matmuls claim the elementwise ops after them first: an op that joins
        two products (x W + (x A) B, as LoRA does) then runs in the epilogue of the one that
        finishes last, and the other runs beside its predecessors instead of after them."""
        depth: dict[int, int] = {}
        for op, results in self.plan.graph.result_ids():
            d = max((depth.get(v, 0) for v in op.operands), default=0)
            d += op.kind in CONTRACTIONS
            for r in results:
                depth[r] = d
        return depth

    def _computable_in_place(self, op: Op) -> bool:
        """Whether a value of `op` can be computed where it is read: elementwise ops; a
        normalization, from its input and a tile of its row scales (its task reduces the
        rows, its reader multiplies: no tile of the whole result); an accumulator of a
        loop that runs once, which is its operand."""
        if op.kind in ELEMENTWISE_CLASS or op.kind in NORMS:
            return True
        return op.kind in PLAIN_ACCUMULATORS and self.plan.loops == 1

    def _find_chains(self) -> None:
        """matmul m1 -> elementwise epilogue e -> matmul m2 (e as A operand), e read by
        nothing else but an accum_sum_last: e never leaves registers."""
        p = self.plan
        for m1 in p.matmuls.values():
            # the chain's registers are tensor-core fragments: both matmuls of one strategy
            if not m1.tensor_core or m1.mode != "store" or m1.target == m1.result:
                continue
            e = m1.target
            uses = self.uses.get(e, [])
            m2s = [
                p.matmuls[i]
                for i, op in uses
                if op.kind in CONTRACTIONS
                and op.operands == (e, op.operands[1])
                and e != op.operands[1]
            ]
            sums = [(i, op) for i, op in uses if op.kind in LOOP_SUM_LAST]
            if len(m2s) != 1 or len(sums) + 1 != len(uses) or len(sums) > 1:
                continue
            m2 = m2s[0]
            e_type = p.graph.type_of(e)
            if (
                m2.strategy != m1.strategy
                or m2.mode != "regs"
                or e_type.dtype not in ("f16", "bf16")
            ):
                continue
            if (m1.batch, m1.m) != (m2.batch, m2.m) or m1.n != m2.k or m1.n % 16:
                continue
            if m1.wgmma:
                parts = self._wgmma_chain_parts(m1, m2)
                if parts is None:
                    continue
                m1.parts = m2.parts = parts
                m1.chain_next, m2.chain_prev = m2.op, m1.op
                if sums:
                    m1.rowsum = self._result(sums[0][0])
                p.virtual.add(e)
                continue
            parts = self._mma_chain_parts(m1, m2)
            if parts is None:
                continue
            m1.parts = m2.parts = parts
            m1.chain_next, m2.chain_prev = m2.op, m1.op
            if sums:
                m1.rowsum = self._result(sums[0][0])
            p.virtual.add(e)

    def _mma_chain_parts(
        self, m1: MatmulPlan, m2: MatmulPlan, extra: int = 0
    ) -> tuple[int, int, int, int] | None:
        """Warps over (batch, m16 tiles) only, so that each warp holds whole rows of the
        first product (mma.sync), if its fragments and the second's accumulator fit the
        registers (`extra`: f32 registers per m16 tile of the second product that the
        chain needs besides them)."""
        p = self.plan
        nb, m16 = math.prod(m1.batch), math.ceil(m1.m / 16)
        parts = next(
            (
                (pb, p.warps // pb, 1, 1)
                for pb in range(1, p.warps + 1)
                if p.warps % pb == 0 and nb % pb == 0 and m16 % (p.warps // pb) == 0
            ),
            None,
        )
        if parts is None:
            return None
        bt, mt = nb // parts[0], m16 // parts[1]
        acc = bt * mt * math.ceil(m2.n / 8) * 4
        if mt * (m1.n // 8) * 4 > 64 or acc + extra * mt > MAX_ACC_REGISTERS:
            return None
        return parts

    def _single_use(self, v: int) -> tuple[int, Op] | None:
        uses = self.uses.get(v, [])
        return uses[0] if len(uses) == 1 else None

    def _row_reduction(self, op: Op, v: int) -> bool:
        """`op` reduces `v` over its whole last dim."""
        shape = self.plan.graph.type_of(v).shape
        return (
            op.operands == (v,)
            and op.int_attr("dim") == len(shape) - 1
            and op.int_attr("size") == 1
        )

    def _find_online_chains(self) -> None:
        """FlashAttention's loop, as the online-softmax μGraphs write it:

            S = A B; m = reduce_max(S, last); e = f(S, m) (elementwise); O' = e V;
            s = reduce_sum(e, last); O = accum_rescale(O', m); l = accum_rescale(s, m)
            [and accum_max(m)]

        S, m, e, O' and s never leave registers: each warp holds whole rows of S (warps
        split batch and m16 tiles only, warpgroups batch and m64 tiles on wgmma), takes
        the row maxima with quad shuffles, computes e into the A fragments of the second
        matmul, and keeps O, the row sums and the running maxima in registers across the
        loop."""
        p = self.plan
        g = p.graph
        for m1 in p.matmuls.values():
            if not m1.tensor_core or m1.chain_next >= 0 or m1.chain_prev >= 0:
                continue
            if self._producer_index(m1.result) >= g.loop_end or m1.n % 16:
                continue
            s_val = m1.result
            uses = self.uses.get(s_val, [])
            maxes = [(i, op) for i, op in uses if op.kind in MAX_REDUCTIONS]
            others = [(i, op) for i, op in uses if op.kind not in MAX_REDUCTIONS]
            if len(maxes) != 1 or len(others) != 1 or not self._row_reduction(maxes[0][1], s_val):
                continue
            m_val = self._result(maxes[0][0])
            # the elementwise chain from S (and m) to e, each link read once
            chain: list[int] = []
            i, op = others[0]
            while op.kind in ELEMENTWISE_CLASS and len(op.results) == 1:
                v = self._result(i)
                if g.type_of(v).shape != g.type_of(s_val).shape:
                    break
                chain.append(v)
                nxt = self._single_use(v)
                if nxt is None or nxt[1].kind not in ELEMENTWISE_CLASS:
                    break
                i, op = nxt
            if not chain:
                continue
            e = chain[-1]
            e_uses = self.uses.get(e, [])
            m2s = [
                p.matmuls[j]
                for j, u in e_uses
                if u.kind in CONTRACTIONS and u.operands[0] == e and u.operands[1] != e
            ]
            sums = [(j, u) for j, u in e_uses if u.kind in SUM_REDUCTIONS]
            if len(m2s) != 1 or len(sums) > 1 or len(m2s) + len(sums) != len(e_uses):
                continue
            m2 = m2s[0]
            if m2.strategy != m1.strategy or g.type_of(e).dtype not in ("f16", "bf16"):
                continue
            if (m1.batch, m1.m) != (m2.batch, m2.m) or m1.n != m2.k:
                continue
            rescaled = self._rescaled_by(m2.result, m_val)
            if rescaled is None:
                continue
            l_val = -1
            if sums:
                if not self._row_reduction(sums[0][1], e):
                    continue
                found = self._rescaled_by(self._result(sums[0][0]), m_val)
                if found is None:
                    continue
                l_val = found
            # the row maximum feeds the chain, the rescales and at most one accum_max
            chain_ops = {self._producer_index(v) for v in chain}
            rescale_ops = {self._producer_index(v) for v in (rescaled, l_val) if v >= 0}
            m_uses = self.uses.get(m_val, [])
            running = [j for j, u in m_uses if u.kind in LOOP_MAX]
            if len(running) > 1 or any(
                j not in chain_ops and j not in rescale_ops and j not in running for j, _ in m_uses
            ):
                continue
            # any e but exp(S - m) keeps the step's e V apart: registers of its own
            extra = 0 if _exp_of_shift(g, s_val, m_val, e) else math.ceil(m2.n / 8) * 4
            parts = None
            if m1.wgmma or self._online_on_wgmma(m1, m2):
                parts = self._wgmma_chain_parts(m1, m2, extra=extra)
                if parts is not None:
                    m1.strategy = m2.strategy = matmul_plan.WGMMA
            if parts is None and not m1.wgmma:
                parts = self._mma_chain_parts(m1, m2, extra=extra)
            if parts is None:
                continue
            m1.parts = m2.parts = parts
            m1.chain_next, m2.chain_prev = m2.op, m1.op
            m1.mode, m1.target = "store", e
            m1.rowmax, m1.rowsum = m_val, l_val
            m2.mode, m2.target, m2.combine = "regs", rescaled, "sum"
            p.virtual.update((s_val, m_val, *chain, m2.result))
            # the rowmax task stores the running maximum after the loop, also where a loop
            # of one iteration would compute it in place (`_computable_in_place`)
            p.virtual.discard(self.running_max(m1))
            if sums:
                p.virtual.add(self._result(sums[0][0]))

    def _online_on_wgmma(self, m1: MatmulPlan, m2: MatmulPlan) -> bool:
        """matmuls=auto runs an online chain on wgmma where the target has it, both
        matmuls fit it and the rows fill whole m64 tiles: its loop measured 1.1-1.5x
        faster than on mma.sync (attention at head dims 64 and 128, benchmarks/RESULTS.md),
        while plain matmuls keep mma.sync. Fewer rows would pad wgmma's tile (16 rows: 4x
        the tensor work)."""
        if self.matmuls != matmul_plan.AUTO or m1.m % matmul_plan.WGMMA_M:
            return False
        g = self.plan.graph
        for mm in (m1, m2):
            ops = matmul_plan.Operands(
                g.type_of(mm.a).dtype, g.type_of(mm.b).dtype, mm.batch, mm.m, mm.n, mm.k
            )
            if matmul_plan.misfit(matmul_plan.WGMMA, self.plan.target, ops, self.plan.threads):
                return False
        return True

    def _wgmma_chain_parts(
        self, m1: MatmulPlan, m2: MatmulPlan, extra: int = 0
    ) -> tuple[int, int, int, int] | None:
        """Warpgroups over (batch, m64 tiles) for a chain on wgmma (`extra`: f32 registers a
        thread that the chain needs besides the second product's accumulator)."""
        return matmul_plan.wgmma_chain_parts(
            matmul_plan.warpgroups(self.plan.threads),
            math.prod(m1.batch),
            m1.m,
            m1.n,
            m2.n,
            MAX_ACC_REGISTERS - extra,
        )

    def running_max(self, mm: MatmulPlan) -> int:
        """The accum_max of an online chain's row maximum (-1: none, or no online chain)."""
        if mm.rowmax < 0:
            return -1
        return next(
            (self._result(j) for j, u in self.uses.get(mm.rowmax, []) if u.kind in LOOP_MAX),
            -1,
        )

    def _rescaled_by(self, v: int, m_val: int) -> int | None:
        """The accum_rescale(v, m_val) in the loop that is v's one reader, if it is."""
        use = self._single_use(v)
        if use is None or use[1].kind not in LOOP_RESCALE or use[1].operands != (v, m_val):
            return None
        return self._result(use[0])

    # --- layouts ------------------------------------------------------------------------

    def _assign_tiles(self) -> None:
        p = self.plan
        g = p.graph
        # tensor cores read f16/bf16 tiles of one plane: an accumulator operand is copied
        for mm in p.matmuls.values():
            if not mm.tensor_core:
                continue
            for which in ("a", "b"):
                operand = getattr(mm, which)
                src = self.op_of(operand)
                if src is not None and src.kind in ACCUMULATOR_KINDS:
                    twin = p.new_value()
                    p.converts[twin] = operand
                    setattr(mm, which, twin)
                    self.ldmatrix_values.add(twin)
        for mm in p.matmuls.values():
            if mm.wgmma:
                if mm.chain_next < 0 and mm.chain_prev < 0:  # a chain's split is set
                    self._wgmma_parts(mm)
                continue
            if not mm.tensor_core or mm.chain_next >= 0 or mm.chain_prev >= 0:
                continue
            nb = math.prod(mm.batch)
            m16, n8, k16 = math.ceil(mm.m / 16), math.ceil(mm.n / 8), mm.k // 16
            # split-K leaves partial sums in planes: only for plain sums of the product
            split_ok = mm.mode in ("regs", "accumulate") and mm.combine == "sum"
            split_ok = split_ok or (
                mm.target == mm.result and mm.target not in self.ldmatrix_values
            )
            split_ok = split_ok and not (
                mm.mode == "accumulate" and self._chain(mm.result)[-1] != mm.result
            )
            mm.parts = matmul_plan.mma_sync_parts(
                p.warps, nb, m16, n8, k16, split_ok, mm.mode == "regs"
            )
            if mm.mode == "regs":
                bt, mt, nt, _ = mm.tiles
                if bt * mt * nt * 4 > MAX_ACC_REGISTERS:
                    mm.mode = "accumulate"
                    mm.parts = matmul_plan.mma_sync_parts(p.warps, nb, m16, n8, k16, True, False)
        for v in range(len(g.args), g.num_values):
            if v in p.virtual:
                continue
            op = self.op_of(v)
            assert op is not None
            if op.kind in OUTPUTS:
                continue
            ty = g.type_of(v)
            dtype = ty.dtype
            planes = 1
            finalize: tuple[str, float, float] = ("", 1.0, 0.0)
            if op.kind in ACCUMULATOR_KINDS:
                dtype = "f32"
                src_shape = g.type_of(op.operands[0]).shape
                n = (src_shape[-1] if src_shape else 1) * p.loops
                if op.kind in LOOP_MEAN_LAST:
                    finalize = ("scale", 1.0 / n, op.eps)
                elif op.kind in LOOP_RMS_LAST:
                    finalize = ("rms", 1.0 / n, op.eps)
            for mm in p.matmuls.values():
                if mm.target == v and mm.parts[3] > 1:
                    planes = mm.parts[3]
                    dtype = "f32"
            p.tiles[v] = self._tile(ty.shape, dtype, v, planes, finalize)
        for twin, src in p.converts.items():
            ty = g.type_of(src)
            p.tiles[twin] = self._tile(ty.shape, ty.dtype, twin, 1, ("", 1.0, 0.0))
        for v in sorted(p.virtual):
            op = self.op_of(v)
            if op is not None and op.kind in NORMS:
                scales = p.new_value()
                p.norm_scales[v] = scales
                rows = (*g.type_of(v).shape[:-1], 1)
                p.tiles[scales] = self._tile(rows, "f32", scales, 1, ("", 1.0, 0.0))
        for mm in p.matmuls.values():
            if mm.wgmma:
                # descriptors read 128-byte-swizzled panels: B always, A where it is read
                # through one
                swizzled = [mm.b]
                a_in_tile = mm.chain_prev < 0  # a chain's second A never leaves registers
                if a_in_tile and matmul_plan.wgmma_a_descriptor(mm.m, mm.k, mm.ab_type):
                    swizzled.append(mm.a)
                for v in swizzled:
                    p.tiles[v].set_swizzle(SWIZZLE_BYTES)
        self._transpose_viewed_operands()
        self._swizzle_short_rows()
        in_registers = {mm.target for mm in p.matmuls.values() if mm.chain_prev >= 0}
        in_registers |= {mm.rowsum for mm in p.matmuls.values() if mm.rowmax >= 0}
        for i, op in enumerate(g.ops):
            # an online chain keeps its running maxima in registers
            if op.kind in LOOP_RESCALE and self._result(i) not in in_registers:
                if self._rescale_in_registers(op):
                    p.register_rows.add(self._result(i))
                    continue
                m = p.new_value()
                p.rescale_max[self._result(i)] = m
                p.tiles[m] = self._tile(
                    g.type_of(op.operands[1]).shape, "f32", m, 1, ("", 1.0, 0.0)
                )

    def _transpose_viewed_operands(self) -> None:
        """An input tile that is a transposed view of its tensor (the tile's last dim strided,
        the one before it contiguous: `x @ W.T` as nn.Linear writes it) and that only
        mma.sync reads as its B operand is stored transposed: copied in the tensor's own
        order, 16 bytes at a time instead of one element, and read by ldmatrix without
        its transpose."""
        p = self.plan
        g = p.graph
        b_of = {mm.op: mm for mm in p.matmuls.values()}
        for i, op in enumerate(g.ops):
            if op.kind not in INPUTS or not op.viewed:
                continue
            v = self._result(i)
            t = p.tiles.get(v)
            if t is None or t.swizzle or len(t.shape) < 2 or t.shape[-1] == 1:
                continue
            _, strides = op.layout(g.type_of(op.operands[0]).shape)
            if strides[-2] != 1 or strides[-1] == 1 or t.shape[-2] == 1:
                continue
            uses = self.uses.get(v, [])
            readers = [b_of.get(j) for j, _ in uses]
            if not uses or not all(
                mm is not None and mm.strategy == matmul_plan.MMA_SYNC and mm.b == v and mm.a != v
                for mm in readers
            ):
                continue
            t.transposed = True
            t.pitch = row_pitch(t.shape[-2], t.dtype, ldmatrix=True)
            t.__post_init__()

    def _swizzle_short_rows(self) -> None:
        """A tile that ldmatrix reads, with rows of 32 or 64 bytes, is swizzled at its row
        width instead of padded: at an odd pitch, the 16-byte stores that fill it meet in
        one bank group twice per 8 threads (see layout). Only whole swizzle atoms of rows,
        so that the layout costs no shared memory beyond the atom alignment."""
        for v in sorted(self.ldmatrix_values):
            t = self.plan.tiles.get(v)
            if t is None or t.swizzle or t.transposed:
                continue
            width = short_row_swizzle(t.shape, t.dtype)
            if width:
                t.set_swizzle(width)

    def _wgmma_parts(self, mm: MatmulPlan) -> None:
        """Warpgroups over (batch, m64 tiles, n); an accumulator kept across the loop must
        fit MAX_ACC_REGISTERS, else it is combined into its tile every iteration."""
        p = self.plan
        groups = matmul_plan.warpgroups(p.threads)
        nb = math.prod(mm.batch)
        esize = 2  # f16 or bf16
        parts = None
        if mm.mode == "regs":
            parts = matmul_plan.wgmma_parts(groups, nb, mm.m, mm.n, esize, MAX_ACC_REGISTERS)
            if parts is None:
                mm.mode = "accumulate"
        if parts is None:
            parts = matmul_plan.wgmma_parts(groups, nb, mm.m, mm.n, esize, None)
        assert parts is not None, "one warpgroup runs every matmul"
        mm.parts = parts

    def _tile(
        self,
        shape: tuple[int, ...],
        dtype: str,
        v: int,
        planes: int,
        finalize: tuple[str, float, float],
    ) -> Tile:
        inner = shape[-1] if shape else 1
        pitch = row_pitch(inner, dtype, ldmatrix=v in self.ldmatrix_values)
        return Tile(tuple(shape) or (1,), dtype, pitch, planes=planes, finalize=finalize)

    # --- tasks --------------------------------------------------------------------------

    def _materialized(self, values: Sequence[int]) -> tuple[int, ...]:
        """The tiles that reading `values` touches (through fused producers)."""
        p = self.plan
        out: list[int] = []
        seen: set[int] = set()
        stack = list(values)
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in p.virtual:
                op = self.op_of(v)
                assert op is not None
                stack.extend(op.operands)
                if v in p.norm_scales:
                    stack.append(p.norm_scales[v])
            elif v in p.tiles:
                out.append(v)
        return tuple(sorted(out))

    def _build_tasks(self) -> None:
        p = self.plan
        g = p.graph
        by_matmul = {mm.target for mm in p.matmuls.values()}
        for i, (op, results) in enumerate(g.result_ids()):
            tasks = p.loop if i < g.loop_end else p.post
            v = results[0]
            kind = op.kind
            if kind in INPUTS:
                continue  # the pipeline copies inputs, outside the phases
            if kind in CONTRACTIONS:
                mm = p.matmuls[i]
                if mm.chain_next >= 0:
                    m2 = p.matmuls[mm.chain_next]
                    reads = [*self._materialized([mm.a, mm.b, m2.b]), *self._epilogue_reads(mm)]
                    if mm.rowmax >= 0:  # what the chain from S to e reads besides S and m
                        reads.extend(self._materialized([mm.target]))
                    tasks.append(Task("chain", i, tuple(sorted(set(reads))), ()))
                    p.pre.append(Task("acc_init", i, (), ()))
                    if mm.rowsum >= 0:
                        p.post.insert(0, Task("rowsum", i, (), (mm.rowsum,)))
                    running = self.running_max(mm)
                    if running >= 0:
                        p.post.insert(0, Task("rowmax", i, (), (running,)))
                    continue
                if mm.mode == "regs" and mm.chain_prev >= 0:
                    p.pre.append(Task("acc_init", i, (), ()))
                    p.post.insert(0, Task("materialize", i, (), (mm.target,)))
                    continue
                if mm.mode == "regs":
                    p.pre.append(Task("acc_init", i, (), ()))
                    tasks.append(Task("matmul", i, (mm.a, mm.b), ()))
                    p.post.insert(0, Task("materialize", i, (), (mm.target,)))
                    continue
                reads = [*self._materialized([mm.a, mm.b]), *self._epilogue_reads(mm)]
                if mm.mode == "accumulate":
                    reads.append(mm.target)
                    p.pre.append(Task("acc_init", self.producer[mm.target][0], (), (mm.target,)))
                tasks.append(Task("matmul", i, tuple(sorted(set(reads))), (mm.target,)))
                continue
            if v in p.norm_scales:  # its readers scale the rows: only the scales here
                reads = self._materialized(op.operands)
                tasks.append(Task("rms_norm", i, reads, (p.norm_scales[v],)))
                continue
            if v in p.reduce_epilogues:
                reads = self._materialized(op.operands)
                tasks.append(Task("reduce", i, reads, (p.reduce_epilogues[v],)))
                continue
            if v in p.virtual or v in by_matmul or v in p.reduce_epilogues.values():
                continue
            reads = self._materialized(op.operands)
            if kind in ELEMENTWISE_CLASS:
                tasks.append(Task("compute", i, reads, tuple(results)))
            elif kind in REDUCTIONS:
                tasks.append(Task("reduce", i, reads, (v,)))
            elif kind in NORMS:
                tasks.append(Task("rms_norm", i, reads, (v,)))
            elif kind in CONCATS:
                tasks.append(Task("concat", i, reads, (v,)))
            elif any(mm.rowsum == v for mm in p.matmuls.values()):
                continue  # summed in registers by the matmul chain
            elif any(self.running_max(mm) == v for mm in p.matmuls.values()):
                continue  # kept in registers by the online chain
            elif (kind in ROW_ACCUMULATORS and self._rows_in_registers(op)) or (
                kind in LOOP_RESCALE and v in p.register_rows
            ):
                # each lane keeps its partial sums (or the elements it rescales, with its
                # copy of their rows' maxima) in registers, written once after the loop
                p.register_rows.add(v)
                p.pre.append(Task("acc_init", i, (), ()))
                tasks.append(Task("acc_update", i, reads, ()))
                p.post.insert(0, Task("acc_flush", i, (), (v,)))
            elif kind in ACCUMULATORS:
                state = (v, p.rescale_max[v]) if kind in LOOP_RESCALE else (v,)
                p.pre.append(Task("acc_init", i, (), state))
                tasks.append(Task("acc_update", i, tuple(sorted({*reads, *state})), state))
            elif kind in OUTPUTS:
                tasks.append(Task("output", i, reads, ()))
            else:
                raise PlanError(f"no code generation for block op '{kind}'")
        # a converted operand copy runs after its source is complete
        for twin, src in p.converts.items():
            # an accumulator's value is final only after the loop
            src_op = self.producer.get(src)
            in_loop = (
                src_op is not None
                and src_op[0] < g.loop_end
                and src_op[1].kind not in ACCUMULATOR_KINDS
            )
            (p.loop if in_loop else p.post).append(
                Task("convert", twin, self._materialized([src]), (twin,))
            )

    def _direct_outputs(self) -> None:
        """A matmul that stores its epilogue once a block (a loop that runs once, or after
        the loop), where nothing but a block output reads what it stores (through ops
        computed where read), stores that output from its registers: no tile, no barrier
        before the output, no pass that reads the tile back."""
        p = self.plan
        g = p.graph
        once = p.post if p.loops > 1 else [*p.loop, *p.post]
        # (a convert task's op is the value it writes: only tasks that write nothing)
        outputs = {t.op: t for t in p.post if not t.writes and g.ops[t.op].kind in OUTPUTS}
        written = {v for t in [*p.pre, *p.loop, *p.post] for v in t.writes}
        for task in [t for t in once if t.op in p.matmuls]:
            mm = p.matmuls[task.op]
            if (
                mm.mode != "store"
                or mm.chain_next >= 0
                or mm.parts[3] > 1
                or mm.target in self.ldmatrix_values
            ):
                continue
            shape = g.type_of(mm.target).shape
            v = mm.target
            while len(self.uses.get(v, [])) == 1:
                i, op = self.uses[v][0]
                if op.kind in OUTPUTS:
                    out = outputs.get(i)
                    if out is None:
                        break
                    # what else the output reads must be there before the matmul runs:
                    # waiting for another task (the other product of silu(x W1) x W2)
                    # would put the two products one after the other
                    later = set(out.reads) - set(task.reads) - {mm.target}
                    if not later & written:
                        self._store_directly(mm, task, out)
                        del outputs[i]
                    break
                nxt = self._result(i)
                if nxt not in p.virtual or g.type_of(nxt).shape != shape:
                    break
                v = nxt

    def _store_directly(self, mm: MatmulPlan, task: Task, out: Task) -> None:
        p = self.plan
        p.tiles.pop(mm.target, None)
        p.virtual.add(mm.target)
        p.post.remove(out)
        reads = set(task.reads) | set(out.reads)
        reads.discard(mm.target)
        task.reads, task.writes = tuple(sorted(reads)), ()
        mm.mode, mm.target = "global", self._result(out.op)

    def _rescale_in_registers(self, op: Op) -> bool:
        """Whether an accum_rescale's lanes can keep their elements and maxima in registers
        (`rescale_layout`): the loop then reads and writes no shared memory for its state,
        and needs no barrier for it."""
        value, scale = (self.plan.graph.type_of(o).shape for o in op.operands)
        _, passes, rounds = rescale_layout(self.plan.threads, value, scale)
        return passes * (rounds + 1) <= MAX_CHUNK_REGISTERS

    def _rows_in_registers(self, op: Op) -> bool:
        shape = self.plan.graph.type_of(op.operands[0]).shape
        outputs = math.prod(shape[:-1])
        _, _, passes = group_layout(self.plan.threads, outputs, shape[-1])
        return passes <= MAX_ROW_PASSES

    def _producer_index(self, v: int) -> int:
        return self.producer[v][0]

    def _epilogue_reads(self, mm: MatmulPlan) -> tuple[int, ...]:
        """Tiles that the fused epilogue of `mm` reads besides the matmul result."""
        chain = self._chain(mm.result)
        others = [o for v in chain[1:] for o in self.producer[v][1].operands if o not in chain]
        if mm.mode == "accumulate":
            acc_op = self.producer[mm.target][1]
            others.extend(o for o in acc_op.operands if o not in chain)
        return self._materialized(others)

    def _hoist_invariant(self) -> None:
        """Moves loop tasks whose every read is loop-invariant out of the loop: a block op on
        a tile the loop does not walk (an inlined normalization of Q in attention) would
        otherwise run again in every iteration."""
        p = self.plan
        if p.loops < 2:
            return  # the loop runs once: nothing to gain, two barriers to pay
        invariant = set(p.hoisted)
        moved = True
        while moved:
            moved = False
            for task in list(p.loop):
                if (
                    task.kind in _HOISTABLE
                    and task.reads
                    and set(task.reads) <= invariant
                    and not any(_is_loop_state(p, v) for v in task.writes)
                ):
                    p.loop.remove(task)
                    p.invariant.append(task)
                    invariant |= set(task.writes)
                    moved = True

    # --- schedule: phases separated by barriers -----------------------------------------

    def _schedule(self) -> None:
        for tasks in (self.plan.pre, self.plan.invariant, self.plan.loop, self.plan.post):
            ordered = _list_schedule(tasks)
            tasks[:] = ordered

    # --- shared memory ------------------------------------------------------------------

    def _overlap_chain(self) -> None:
        """Software-pipeline the loop of an online chain on wgmma where it is the loop's
        one task (`MatmulPlan.overlap`): stages for step i's V and step i + 1's K resident
        together (two with tensor maps; three with cp.async, whose copies of a later step
        must go to a third), the direct form (e against the running maxima, so O is
        rescaled once step i's product has landed), one m64 row tile a warpgroup, every
        warpgroup in the chain, and registers for two steps' e."""
        p = self.plan
        if not OVERLAP_CHAINS or p.loads == load_plan.BULK_ROWS:
            return
        least = 2 if p.loads == load_plan.TMA else 3
        if p.stages < least or p.loops < 2 or not p.streamed:
            return
        chain = self._wgmma_chain_loop()
        if chain is None or not online_direct(p.graph, chain[0]):
            return
        mm, second = chain
        warps = p.launch_threads // 32
        budget = p.target.registers_per_sm // (warps * 32) // 8 * 8
        if overlap_registers(mm, second) > min(budget, p.target.max_registers_per_thread):
            return
        p.matmuls[mm.op] = replace(mm, overlap=True)

    def _pingpong_chain(self) -> None:
        """Turns for the two warpgroups of an online chain on wgmma that is the loop's one
        task (`MatmulPlan.pingpong`): each warpgroup one m64 row tile of both matmuls, the
        loop not software-pipelined (that order interleaves one warpgroup's own work)."""
        p = self.plan
        if not PINGPONG_CHAINS or p.loops < 2:
            return
        chain = self._wgmma_chain_loop()
        if chain is None or chain[0].overlap or chain[0].rowmax < 0:
            return
        if any(m.parts != (1, PINGPONG_GROUPS, 1, 1) for m in chain):
            return
        p.matmuls[chain[0].op] = replace(chain[0], pingpong=True)

    def _wgmma_chain_loop(self) -> tuple[MatmulPlan, MatmulPlan] | None:
        """The chain's two matmuls where the loop's one task is a chain on wgmma in which
        every warpgroup takes one m64 row tile of both."""
        p = self.plan
        if len(p.loop) != 1 or p.loop[0].kind != "chain":
            return None
        mm = p.matmuls[p.loop[0].op]
        second = p.matmuls[mm.chain_next]
        if not (mm.wgmma and second.wgmma):
            return None
        groups = matmul_plan.warpgroups(p.threads)
        for m in (mm, second):
            bt, mt, _, _ = m.tiles
            if bt * mt != 1 or math.prod(m.parts) != groups:
                return None
        return mm, second

    def _allocate(self) -> None:
        p = self.plan
        limit = p.target.shared_memory_per_block
        p.loads = load_plan.choose_loads(
            self.loads,
            self.loads_asked,
            p.target,
            p.streamed,
            p.loops,
            p.threads,
            p.tiles,
            lambda v: p.graph.type_of(self.producer[v][1].operands[0]).shape,
            lambda v: self.producer[v][1].viewed,
        )
        load_plan.swizzle_streamed(p.loads, p.streamed, p.tiles)
        per_iteration = sum(p.tiles[v].copy_bytes for v in p.streamed)
        if self.forced_stages is not None:
            candidates = [max(1, min(self.forced_stages, p.loops))]
        elif p.streamed and p.loops > 1:
            top = load_plan.depth_candidates(
                p.loads, p.loops, per_iteration, PIPELINE_BYTES_IN_FLIGHT, MAX_STAGES
            )
            candidates = list(range(top, 0, -1))
        else:
            candidates = [1]
        # blocks that must share an SM for the grid to run in one wave: each gets its part
        # of the shared memory, so deep pipelines do not cost occupancy
        blocks = p.grid[0] * p.grid[1] * p.grid[2]
        # (the multiprocessors of the H200 the estimate was tuned on, for every target)
        wanted = max(1, min(4, math.ceil(blocks / SM_90.sms)))
        # tensor-core work per byte loaded: past COMPUTE_BOUND, latency hiding (more
        # blocks per SM) beats a deeper pipeline
        flops = sum(
            2 * math.prod(mm.batch) * mm.m * mm.n * mm.k
            for mm in p.matmuls.values()
            if mm.tensor_core and self.producer[mm.result][0] < p.graph.loop_end
        )
        # an online chain's loop is one task: only a deeper ring overlaps its loads with
        # its matmuls (128-row attention tiles: 1.3x over two blocks an SM of one stage,
        # benchmarks/RESULTS.md)
        chained = any(t.kind == "chain" for t in p.loop) and any(
            mm.rowmax >= 0 for mm in p.matmuls.values()
        )
        if p.streamed and not chained and flops / max(per_iteration, 1) >= COMPUTE_BOUND:
            wanted = max(wanted, 2)
            candidates = [s for s in candidates if s <= 3] or candidates
        budget = limit // wanted
        wide = _wide_reductions(p.graph, p.threads)
        scratch = align_up(2 * scratch_set_bytes(p.threads)) if wide else 0
        slack = load_plan.alignment_slack(p.tiles)
        fitting = [
            s
            for s in candidates
            if _with_stages(p, s) + _mbarrier_bytes(p, s) + scratch + slack <= budget
        ]
        if chained and self.forced_stages is None and not any(s >= 2 for s in fitting):
            # a ring of stages for one block an SM beats one stage for two (128-row
            # attention blocks, 256 of them: 186 against 241 µs, benchmarks/RESULTS.md)
            fitting = [
                s
                for s in candidates
                if s >= 2 and _with_stages(p, s) + _mbarrier_bytes(p, s) + scratch + slack <= limit
            ] or fitting
        candidates = fitting or candidates
        last_error = ""
        for stages in candidates:
            p.stages = stages
            for v in p.streamed:
                p.tiles[v].stages = stages
            size = _assign_offsets(p)
            if size + _mbarrier_bytes(p, stages) + scratch + slack <= limit:
                p.mbarriers = size
                p.smem_bytes = size + _mbarrier_bytes(p, stages)
                if scratch:
                    p.scratch = p.smem_bytes
                    p.smem_bytes += scratch
                p.smem_bytes += slack
                return
            last_error = (
                f"block graph needs {size} bytes of shared memory with {stages} pipeline "
                f"stage(s), more than the {limit} bytes of {p.target.name}"
            )
        raise PlanError(last_error)


def dependent_launch(target: Target) -> bool:
    """Kernels for `target` wait for the launch before them (griddepcontrol.wait) and the
    launches after a program's first are made programmatically (`DEPENDENT_LAUNCHES`)."""
    return DEPENDENT_LAUNCHES and target.dependent_launches


def overlap_registers(mm: MatmulPlan, second: MatmulPlan) -> int:
    """f32 registers a thread holds in an overlapped chain's loop: S of the next step, e of
    two steps packed in pairs (the one the tensor cores read, the one being made), and O."""
    _, _, s_n8, _ = mm.tiles
    _, _, o_n8, _ = second.tiles
    return 4 * s_n8 + 2 * (2 * s_n8) + 4 * o_n8 + OVERLAP_SPARE_REGISTERS


def online_direct(graph: Graph, mm: MatmulPlan) -> bool:
    """`mm` heads an online chain whose e is exp(S - m) (`_exp_of_shift`)."""
    return mm.rowmax >= 0 and _exp_of_shift(graph, mm.result, mm.rowmax, mm.target)


def _exp_of_shift(graph: Graph, s_val: int, m_val: int, e_val: int) -> bool:
    """An online chain's e is exp(S - m) exactly: then e can be taken against the running
    maximum M' instead of m (exp(S - M') = exp(S - m) exp(m - M')), so e V adds to the
    rescaled accumulator directly, as FlashAttention does, with no registers for the
    step's product apart."""
    made_by = graph.producers()
    exp = graph.ops[made_by[e_val]]
    if exp.kind not in EXPONENTIALS or len(exp.operands) != 1 or exp.operands[0] not in made_by:
        return False
    shift = graph.ops[made_by[exp.operands[0]]]
    return shift.kind in SHIFTS and shift.operands == (s_val, m_val)


def _mbarrier_bytes(p: Plan, stages: int) -> int:
    return load_plan.mbarrier_bytes(p.loads, stages)


def _with_stages(p: Plan, stages: int) -> int:
    for v in p.streamed:
        p.tiles[v].stages = stages
    return _assign_offsets(p)


_HOISTABLE = frozenset({"compute", "rms_norm", "reduce", "concat"})
"""Task kinds that only compute a tile from tiles (no accumulator, matmul or output)."""


def _list_schedule(tasks: list[Task]) -> list[Task]:
    """Orders tasks so that as many as possible share a phase: a task joins the current
    phase when nothing it reads or writes was written (or, for what it writes, read) by
    another task of that phase; otherwise a barrier starts a new phase."""
    remaining = list(tasks)
    done: list[Task] = []
    phase = 0
    phase_reads: set[int] = set()
    phase_writes: set[int] = set()
    while remaining:
        ready = [t for t in remaining if _ready(t, remaining)]
        pick = next(
            (
                t
                for t in ready
                if not (set(t.reads) & phase_writes)
                and not (set(t.writes) & (phase_reads | phase_writes))
            ),
            None,
        )
        if pick is None:
            phase += 1
            phase_reads, phase_writes = set(), set()
            pick = ready[0]
        pick.phase = phase
        phase_reads |= set(pick.reads)
        phase_writes |= set(pick.writes)
        remaining.remove(pick)
        done.append(pick)
    return done


def _ready(task: Task, remaining: list[Task]) -> bool:
    """Nothing it reads is still to be written by another task (each tile is written by
    one task of a list: values are SSA, accumulators are updated by their one task)."""
    return not any(other is not task and set(task.reads) & set(other.writes) for other in remaining)


def live_ranges(p: Plan) -> dict[int, tuple[int, int]]:
    """Phase intervals (pre-loop, loop, post-loop phases numbered in that order) during
    which each tile must keep its bytes."""
    pre_phases = max((t.phase for t in p.pre), default=0) + 1
    invariant_phases = max((t.phase for t in p.invariant), default=-1) + 1
    loop_phases = max((t.phase for t in p.loop), default=0) + 1
    invariant_start = pre_phases
    loop_start = pre_phases + invariant_phases
    loop_end = loop_start + loop_phases - 1
    post_start = loop_end + 1
    ranges: dict[int, tuple[int, int]] = {}

    def touch(v: int, phase: int) -> None:
        lo, hi = ranges.get(v, (phase, phase))
        ranges[v] = (min(lo, phase), max(hi, phase))

    for t in p.pre:
        for v in (*t.reads, *t.writes):
            touch(v, t.phase)
    for t in p.invariant:
        for v in (*t.reads, *t.writes):
            touch(v, invariant_start + t.phase)
        for v in t.writes:  # read in every iteration
            touch(v, loop_end)
    for t in p.loop:
        for v in (*t.reads, *t.writes):
            touch(v, loop_start + t.phase)
    for t in p.post:
        for v in (*t.reads, *t.writes):
            touch(v, post_start + t.phase)
    # the pipeline writes inputs before the loop and reads them through it
    for v in (*p.streamed, *p.hoisted):
        touch(v, 0)
        touch(v, loop_end)
    # epilogue operands land after the loop's last barrier, before the first post phase
    for v in p.epilogue:
        touch(v, post_start)
    # state kept across iterations lives through the whole loop
    for v, t in p.tiles.items():
        if t.dtype == "f32" and v in ranges and _is_loop_state(p, v):
            touch(v, 0)
            touch(v, loop_end)
    return ranges


def _is_loop_state(p: Plan, v: int) -> bool:
    if v in p.rescale_max.values():
        return True
    if v in p.register_rows:
        return False
    # accumulators kept in registers reach their tile only after the loop
    if any((mm.target == v and mm.mode == "regs") or mm.rowsum == v for mm in p.matmuls.values()):
        return False
    if any(t.kind == "rowmax" and v in t.writes for t in p.post):
        return False
    prod = p.producer().get(v)
    return prod is not None and prod[1].kind in ACCUMULATORS


def _assign_offsets(p: Plan) -> int:
    """First fit by decreasing size among tiles whose live ranges overlap."""
    ranges = live_ranges(p)
    for v in p.tiles:
        ranges.setdefault(v, (0, 10**9))  # never touched: keep it apart
    order = sorted(p.tiles, key=lambda v: (-p.tiles[v].total_bytes, v))
    placed: list[tuple[int, int, int]] = []  # (offset, end, value)
    for v in order:
        tile = p.tiles[v]
        size = align_up(tile.total_bytes, ALIGN)
        lo, hi = ranges[v]
        conflicts = sorted(
            (off, end) for off, end, u in placed if not (ranges[u][1] < lo or hi < ranges[u][0])
        )
        offset = 0
        for off, end in conflicts:
            if offset + size <= off:
                break
            offset = align_up(max(offset, end), tile.alignment)
        tile.offset = offset
        placed.append((offset, offset + size, v))
    return max((end for _, end, _ in placed), default=0)


def plan_graph_op(
    body: Graph,
    grid: Sequence[int],
    block: Sequence[int],
    loops: int,
    target: Target = SM_90A,
    stages: int | None = None,
    loads: str | None = load_plan.CP_ASYNC,
    matmuls: str = matmul_plan.AUTO,
) -> Plan:
    """The plan of a graph-defined op's block graph. `loads`: the load strategy asked for,
    or None for the target's default."""
    try:
        return Planner(body, grid, block, loops, target, stages, loads, matmuls).run()
    except PlanError as e:
        asked = matmul_plan.check_matmuls(matmuls)
        if asked == matmul_plan.AUTO:
            # auto's online chains on wgmma (swizzled whole panels) may not fit where
            # mma.sync's padded tiles do: plan the kernel on mma.sync then
            try:
                plan = Planner(
                    body, grid, block, loops, target, stages, loads, matmul_plan.MMA_SYNC
                ).run()
            except PlanError:
                raise e from None
            plan.remarks.append(f"{e}: the kernel plans with matmuls={matmul_plan.MMA_SYNC}")
            return plan
        if asked != matmul_plan.WGMMA:
            raise
        # wgmma's operand tiles (whole 128-byte panels) can need more shared memory than
        # the padded ones of mma.sync: the kernel falls back as a whole
        plan = Planner(body, grid, block, loops, target, stages, loads, matmul_plan.AUTO).run()
        plan.remarks.append(f"wgmma: {e}: the kernel plans with matmuls={matmul_plan.AUTO}")
        return plan


__all__ = [
    "MatmulPlan",
    "Plan",
    "PlanError",
    "Task",
    "broadcast_batch",
    "dependent_launch",
    "group_layout",
    "online_direct",
    "plan_graph_op",
    "wide_group",
]
