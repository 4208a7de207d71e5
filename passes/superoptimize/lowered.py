"""What the lowering will make of a graph-defined op, as far as the cost model cares.

The lowering's planner (`mirage.lowering.optimize.plan`) decides which block values stay in
registers (elementwise chains fused into their readers, a matmul -> exp -> matmul chain
whose middle never leaves the warp), how many loop iterations of input tiles are in flight
(pipeline stages) and how many barriers each iteration needs. Two tilings of one structure
can differ several-fold on the GPU by these alone (attention with and without the register
chain, benchmarks/RESULTS.md), so the model asks the planner instead of guessing. A tiling
the planner rejects is one the lowering cannot emit: the search drops it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from mirage.dialects.hardware import TARGETS, Target, target_for
from mirage.dialects.opkinds import LAUNCHES
from mirage.dialects.ugraph.graph import Op
from mirage.lowering.optimize.plan import PlanError, plan_graph_op


@dataclass(frozen=True, slots=True)
class LoweredFacts:
    register_values: frozenset[int]
    """Block values (ids of the op's body) that never get a shared-memory tile."""
    stages: int
    """Loop iterations of streamed input tiles loaded ahead of the compute (1: none)."""
    barriers: int
    """Block-wide barriers per loop iteration."""
    barriers_outside: int
    """Block-wide barriers outside the loop (`Plan.barriers_outside`)."""
    streamed: bool
    """Some input tile is loaded anew every iteration."""
    shared_memory: int
    """Bytes of shared memory the kernel asks for, pipeline stages included."""
    once: frozenset[int] = frozenset()
    """Indices of the loop's block ops that the lowering runs once, before the loop (they
    read only tiles the loop does not walk)."""
    matmuls: tuple[tuple[int, str], ...] = ()
    """(index of a block matmul, the strategy it runs: `matmul_plan.STRATEGIES`)."""
    loads: str = "cp-async"
    """How the streamed input tiles are copied (`load_plan.LOADS`)."""

    def strategy(self, index: int) -> str | None:
        return dict(self.matmuls).get(index)


def lowering_arch(target: Target) -> str:
    """The PTX architecture the lowering emits for a search target: the architecture-specific
    variant where there is one (sm_90a for sm_90)."""
    specific = replace(target.arch, specific=True)
    return str(specific if specific in TARGETS else target.arch)


@lru_cache(maxsize=8192)
def lowered_facts(op: Op, target: Target) -> LoweredFacts | None:
    """The planner's decisions for `op`, or None when the lowering cannot emit it."""
    assert op.kind in LAUNCHES and op.body is not None
    try:
        emitted = target_for(lowering_arch(target))
        plan = plan_graph_op(
            op.body,
            op.ints_attr("grid"),
            op.ints_attr("block"),
            op.int_attr("forloop_range"),
            emitted,
            loads=None,  # the lowering's default
        )
    except PlanError:
        return None
    in_registers = set(plan.virtual) | plan.register_rows
    for mm in plan.matmuls.values():
        if mm.rowsum >= 0:
            in_registers.add(mm.rowsum)
        if mm.mode == "regs":  # the product is summed into its accumulator in registers
            in_registers.update((mm.result, mm.target))
    body_values = op.body.num_values
    return LoweredFacts(
        register_values=frozenset(v for v in in_registers if v < body_values),
        stages=plan.stages,
        barriers=plan.barriers,
        barriers_outside=plan.barriers_outside,
        streamed=bool(plan.streamed) and plan.loops > 1,
        shared_memory=plan.smem_bytes,
        once=frozenset(t.op for t in plan.invariant),
        matmuls=tuple(sorted((i, mm.strategy) for i, mm in plan.matmuls.items())),
        loads=plan.loads,
    )
