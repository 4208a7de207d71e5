"""What a matmul strategy's code uses of the kernel it emits into (`kernel.KernelEmitter`),
as protocols: the strategies (`mma_sync`, `wgmma`, `fma`) depend on this, not on the
kernel module that dispatches to them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.ir import SSAValue

from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize.layout import Tile
from mirage.lowering.optimize.plan import MatmulPlan, Plan
from mirage.lowering.to_llvm.llvm_builder import Builder, Int


@dataclass(frozen=True)
class StageRing:
    """How a software-pipelined loop holds the load strategy's stages: acquire(i) waits
    for iteration i's tiles and makes its stage current, select(i) makes it current,
    release(i) hands it back to the copies."""

    acquire: Callable[[Int], None]
    select: Callable[[Int], None]
    release: Callable[[Int], None]


class ValueReader(Protocol):
    """Reads block values element by element (tiles loaded, fused producers computed)."""

    def read(self, v: int, coords: Sequence[Int]) -> SSAValue: ...
    def apply(self, index: int, coords: Sequence[Int]) -> list[SSAValue]: ...


class MatmulKernel(Protocol):
    b: Builder
    plan: Plan
    graph: Graph
    producer: dict[int, tuple[int, Op]]
    warp: Int
    lane: Int
    smem32: Int
    iteration: Int
    """The loop step the tasks run for."""
    acc_slots: dict[int, SSAValue]
    """Register accumulators kept across the loop, by matmul op index."""
    rowsum_slots: dict[int, SSAValue]
    rowmax_slots: dict[int, SSAValue]
    """Running row maxima of an online chain, by the first matmul's op index."""

    def reader(self, override: dict[int, SSAValue] | None = None) -> ValueReader: ...
    def results_of(self, index: int) -> list[int]: ...
    def tile_base(self, v: int, plane: Int = 0) -> Int: ...
    def element_offset(self, t: Tile, coords: Sequence[Int]) -> Int: ...
    def smem_ptr(self, byte_offset: Int) -> SSAValue: ...
    def store_tile(
        self,
        v: int,
        coords: Sequence[Int],
        value: SSAValue,
        plane: Int = 0,
        align: int | None = None,
    ) -> None: ...
    def store_run(
        self, v: int, coords: Sequence[Int], values: Sequence[SSAValue], plane: Int = 0
    ) -> None: ...
    def write_result(
        self, mm: MatmulPlan, coords: list[Int], value: SSAValue, plane: Int
    ) -> None: ...
    def write_results(
        self, mm: MatmulPlan, coords: list[Int], values: Sequence[SSAValue], plane: Int
    ) -> None: ...
    def for_each(
        self,
        count: int,
        body: Callable[[Int], None],
        threads: int | None = None,
        first: Int | None = None,
    ) -> None: ...


__all__ = ["MatmulKernel", "ValueReader"]
