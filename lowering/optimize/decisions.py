"""The μGraph optimizer's decisions as typed attributes (the `mirage` attribute dialect):
what `plan-ugraph` writes and `convert-kernel-to-gpu` reads back into the `Plan` it emits,
so that a planned graph is never planned twice and what is printed is what is built.

On a block op, for its (first) result: `mirage.tile = #mirage.tile<16x64xf16, offset 0,
pitch 72, stages 3>` (its shared-memory tile), `mirage.fused` (computed in registers where
it is read), and on a matmul `mirage.mma = #mirage.mma<mma.sync.m16n8k16 warps 1x1x1x4
regs, a 3, b 4, target 9>` (its strategy, the split of its tiles over warps, where its
result goes). On the `kernel.graph`: `mirage.plan = #mirage.plan<...>` (the target, the
pipeline depth, the schedule of tasks in phases, and the values no op's first result names:
converted operand copies, running maxima, further results of a `thread.fuse`), besides
`mirage.smem_bytes`, `mirage.stages` and `mirage.barriers` for the reader. Values are
numbered as the search model numbers a block graph (arguments first, then every result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar, get_args

from xdsl.dialects.builtin import ArrayAttr, FloatData, IntAttr, IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mirage.dialects.hardware import target_for
from mirage.dialects.ugraph.convert import dtype_name
from mirage.dialects.ugraph.graph import Graph, Op
from mirage.lowering.optimize.layout import SWIZZLES, Tile
from mirage.lowering.optimize.load_plan import LOADS, TMA_DTYPES, TensorMapPlan
from mirage.lowering.optimize.matmul_plan import INSTRUCTIONS, WGMMA
from mirage.lowering.optimize.plan import MatmulPlan, Plan, Task, broadcast_batch

MMA_KINDS = tuple(INSTRUCTIONS.values())
_STRATEGY_OF = {kind: strategy for strategy, kind in INSTRUCTIONS.items()}
MODES = ("regs", "store", "accumulate", "global")
Combine = Literal["sum", "max"]
COMBINES: tuple[str, ...] = get_args(Combine)
FINALIZE = ("", "scale", "rms")
TaskKind = Literal[
    "copy",
    "compute",
    "matmul",
    "chain",
    "reduce",
    "rms_norm",
    "concat",
    "acc_init",
    "acc_update",
    "acc_flush",
    "rowsum",
    "rowmax",
    "materialize",
    "convert",
    "output",
]
"""The plan's task kinds (some named after the op they run)."""
TASK_KINDS: tuple[str, ...] = get_args(TaskKind)


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(v) for v in values])


def _values(attr: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(a.data for a in attr.data)


def _print_ints(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


def _parse_ints(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def _float_text(x: float) -> str:
    text = repr(x)
    # MLIR float literals need a point: 1e-05 would read as an integer and a name
    return text if "." in text and "e" not in text else f"{x:.17e}"


def _one_of(what: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise VerifyException(f"{what} must be one of {', '.join(allowed)}, got '{value}'")


@irdl_attr_definition
class TileAttr(ParametrizedAttribute):
    """Where a block value lives in shared memory (`Tile`)."""

    name = "mirage.tile"

    shape: ArrayAttr[IntAttr]
    dtype: StringAttr
    offset: IntAttr
    pitch: IntAttr
    planes: IntAttr
    stages: IntAttr
    finalize: StringAttr
    factor: FloatData
    eps: FloatData
    swizzle: IntAttr
    transposed: IntAttr

    @staticmethod
    def of(tile: Tile) -> TileAttr:
        kind, factor, eps = tile.finalize
        return TileAttr(
            _ints(tile.shape),
            StringAttr(tile.dtype),
            IntAttr(tile.offset),
            IntAttr(tile.pitch),
            IntAttr(tile.planes),
            IntAttr(tile.stages),
            StringAttr(kind),
            FloatData(factor),
            FloatData(eps),
            IntAttr(tile.swizzle),
            IntAttr(int(tile.transposed)),
        )

    def tile(self) -> Tile:
        return Tile(
            _values(self.shape),
            self.dtype.data,
            self.pitch.data,
            planes=self.planes.data,
            stages=self.stages.data,
            finalize=(self.finalize.data, self.factor.data, self.eps.data),
            offset=self.offset.data,
            swizzle=self.swizzle.data,
            transposed=bool(self.transposed.data),
        )

    def verify(self) -> None:
        _one_of("tile finalize", self.finalize.data, FINALIZE)
        if not self.shape.data or any(d.data < 1 for d in self.shape.data):
            raise VerifyException("a tile's shape must have positive extents")
        if self.swizzle.data not in (0, *SWIZZLES):
            raise VerifyException(
                f"a tile's swizzle must be 0, 32, 64 or 128, got {self.swizzle.data}"
            )
        if self.transposed.data not in (0, 1):
            raise VerifyException(
                f"a tile's transposed flag must be 0 or 1, got {self.transposed.data}"
            )
        if self.transposed.data and (len(self.shape.data) < 2 or self.swizzle.data):
            raise VerifyException("a transposed tile must have 2 or more dims and no swizzle")
        if self.swizzle.data:
            shape = _values(self.shape)
            tile = self.tile()
            if len(shape) < 2 or (shape[-1] * tile.esize) % 16:
                raise VerifyException(
                    "a swizzled tile must have 2 or more dims and rows of whole 16-byte "
                    f"chunks, got {'x'.join(map(str, shape))}x{self.dtype.data}"
                )

    def print_parameters(self, printer: Printer) -> None:
        shape = _values(self.shape)
        text = "x".join(str(d) for d in shape) + f"x{self.dtype.data}"
        text += f", offset {self.offset.data}"
        if self.transposed.data:
            text += ", transposed"
        if self.pitch.data != self.tile().natural_pitch:
            text += f", pitch {self.pitch.data}"
        if self.planes.data != 1:
            text += f", planes {self.planes.data}"
        if self.stages.data != 1:
            text += f", stages {self.stages.data}"
        if self.swizzle.data:
            text += f", swizzle {self.swizzle.data}"
        if self.finalize.data:
            text += f", {self.finalize.data} {_float_text(self.factor.data)}"
            if self.eps.data:
                text += f", eps {_float_text(self.eps.data)}"
        printer.print_string(f"<{text}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        dims, element = parser.parse_ranked_shape()
        fields = {
            "offset": -1,
            "pitch": -1,
            "planes": 1,
            "stages": 1,
            "swizzle": 0,
        }
        finalize, factor, eps = "", 1.0, 0.0
        transposed = 0
        while parser.parse_optional_punctuation(",") is not None:
            key = parser.parse_identifier()
            if key == "transposed":
                transposed = 1
            elif key in FINALIZE[1:]:
                finalize, factor = key, parser.parse_float()
            elif key == "eps":
                eps = parser.parse_float()
            elif key in fields:
                fields[key] = parser.parse_integer()
            else:
                parser.raise_error(f"unknown tile field '{key}'")
        parser.parse_punctuation(">")
        if fields["pitch"] < 0:  # unpadded: the length of a row in shared memory
            row = -2 if transposed and len(dims) >= 2 else -1
            fields["pitch"] = dims[row] if dims else 1
        return [
            _ints(dims),
            StringAttr(dtype_name(element)),
            IntAttr(fields["offset"]),
            IntAttr(fields["pitch"]),
            IntAttr(fields["planes"]),
            IntAttr(fields["stages"]),
            StringAttr(finalize),
            FloatData(factor),
            FloatData(eps),
            IntAttr(fields["swizzle"]),
            IntAttr(transposed),
        ]


_MMA_NUMBERS = ("a", "b", "target", "next", "prev", "rowsum", "rowmax")


@irdl_attr_definition
class MmaAttr(ParametrizedAttribute):
    """A matmul's strategy (`MatmulPlan`, less what its operand types say)."""

    name = "mirage.mma"

    kind: StringAttr
    parts: ArrayAttr[IntAttr]
    mode: StringAttr
    combine: StringAttr
    a: IntAttr
    b: IntAttr
    target: IntAttr
    chain_next: IntAttr
    chain_prev: IntAttr
    rowsum: IntAttr
    rowmax: IntAttr
    overlap: IntAttr
    """1 where the chain's loop is software-pipelined (`MatmulPlan.overlap`), else 0."""
    pingpong: IntAttr
    """1 where the chain's warpgroups take turns (`MatmulPlan.pingpong`), else 0."""

    @staticmethod
    def of(mm: MatmulPlan) -> MmaAttr:
        return MmaAttr(
            StringAttr(INSTRUCTIONS[mm.strategy]),
            _ints(mm.parts),
            StringAttr(mm.mode),
            StringAttr(mm.combine),
            IntAttr(mm.a),
            IntAttr(mm.b),
            IntAttr(mm.target),
            IntAttr(mm.chain_next),
            IntAttr(mm.chain_prev),
            IntAttr(mm.rowsum),
            IntAttr(mm.rowmax),
            IntAttr(int(mm.overlap)),
            IntAttr(int(mm.pingpong)),
        )

    def matmul(self, graph: Graph, index: int, result: int) -> MatmulPlan:
        op = graph.ops[index]
        ta, tb = (graph.type_of(v) for v in op.operands)
        p = _values(self.parts)
        return MatmulPlan(
            op=index,
            a=self.a.data,
            b=self.b.data,
            result=result,
            strategy=_STRATEGY_OF[self.kind.data],
            ab_type=ta.dtype,
            batch=broadcast_batch(ta.shape, tb.shape),
            m=ta.shape[-2],
            n=tb.shape[-1],
            k=ta.shape[-1],
            parts=(p[0], p[1], p[2], p[3]),
            mode=self.mode.data,
            target=self.target.data,
            combine=self.combine.data,
            chain_next=self.chain_next.data,
            chain_prev=self.chain_prev.data,
            rowsum=self.rowsum.data,
            rowmax=self.rowmax.data,
            overlap=self.overlap.data != 0,
            pingpong=self.pingpong.data != 0,
        )

    def verify(self) -> None:
        _one_of("matmul strategy", self.kind.data, MMA_KINDS)
        _one_of("matmul mode", self.mode.data, MODES)
        _one_of("matmul combine", self.combine.data, COMBINES)
        if len(self.parts.data) != 4 or any(w.data < 1 for w in self.parts.data):
            raise VerifyException("matmul warps must be 4 positive counts (batch, m, n, k)")

    def print_parameters(self, printer: Printer) -> None:
        # a matmul whose result stays in registers as the next one's A shows as 'chain'
        mode = "chain" if self.chain_next.data >= 0 else self.mode.data
        warps = "x".join(str(w) for w in _values(self.parts))
        # wgmma splits the work over warpgroups, the others over warps
        unit = "warpgroups" if _STRATEGY_OF[self.kind.data] == WGMMA else "warps"
        text = f"{self.kind.data} {unit} {warps} {mode}"
        if self.combine.data != "sum":
            text += f", combine {self.combine.data}"
        numbers = (
            self.a,
            self.b,
            self.target,
            self.chain_next,
            self.chain_prev,
            self.rowsum,
            self.rowmax,
        )
        for key, value in zip(_MMA_NUMBERS, numbers, strict=True):
            if key in ("a", "b", "target") or value.data >= 0:
                text += f", {key} {value.data}"
        if self.overlap.data:
            text += ", overlap"
        if self.pingpong.data:
            text += ", pingpong"
        printer.print_string(f"<{text}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        kind = parser.parse_identifier()
        unit = "warpgroups" if _STRATEGY_OF.get(kind) == WGMMA else "warps"
        parser.parse_keyword(unit)
        parts = parser.parse_dimension_list()
        mode = parser.parse_identifier()
        combine = "sum"
        overlap = pingpong = False
        numbers = dict.fromkeys(_MMA_NUMBERS, -1)
        while parser.parse_optional_punctuation(",") is not None:
            key = parser.parse_identifier()
            if key == "combine":
                combine = parser.parse_identifier()
            elif key == "overlap":
                overlap = True
            elif key == "pingpong":
                pingpong = True
            elif key in numbers:
                numbers[key] = parser.parse_integer()
            else:
                parser.raise_error(f"unknown matmul field '{key}'")
        parser.parse_punctuation(">")
        if mode == "chain":
            mode = "store"
        return [
            StringAttr(kind),
            _ints(parts),
            StringAttr(mode),
            StringAttr(combine),
            *(IntAttr(numbers[k]) for k in _MMA_NUMBERS),
            IntAttr(int(overlap)),
            IntAttr(int(pingpong)),
        ]


@irdl_attr_definition
class TaskAttr(ParametrizedAttribute):
    """One task of the schedule: what it runs, the tiles it reads and writes, its phase."""

    name = "mirage.task"

    kind: StringAttr
    op: IntAttr
    reads: ArrayAttr[IntAttr]
    writes: ArrayAttr[IntAttr]
    phase: IntAttr

    @staticmethod
    def of(task: Task) -> TaskAttr:
        return TaskAttr(
            StringAttr(task.kind),
            IntAttr(task.op),
            _ints(task.reads),
            _ints(task.writes),
            IntAttr(task.phase),
        )

    def task(self) -> Task:
        return Task(
            self.kind.data, self.op.data, _values(self.reads), _values(self.writes), self.phase.data
        )

    def verify(self) -> None:
        _one_of("task kind", self.kind.data, TASK_KINDS)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data} {self.op.data} ")
        _print_ints(printer, _values(self.reads))
        printer.print_string(" -> ")
        _print_ints(printer, _values(self.writes))
        printer.print_string(f" phase {self.phase.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        kind = parser.parse_identifier()
        op = parser.parse_integer()
        reads = _parse_ints(parser)
        parser.parse_punctuation("->")
        writes = _parse_ints(parser)
        parser.parse_keyword("phase")
        phase = parser.parse_integer()
        parser.parse_punctuation(">")
        return [StringAttr(kind), IntAttr(op), _ints(reads), _ints(writes), IntAttr(phase)]


_PLAN_NUMBERS = ("stages", "smem", "loads", "scratch", "mbarriers", "values")
_PLAN_LISTS = ("hoisted", "streamed", "rows", "fused")
_PLAN_PAIRS = ("converts", "rescale", "norms", "epilogues")
_PLAN_TASKS = ("pre", "invariant", "loop", "post")


@irdl_attr_definition
class PlanAttr(ParametrizedAttribute):
    """A graph's plan, less what its block ops carry (`mirage.tile`, `mirage.fused`,
    `mirage.mma` for their first results)."""

    name = "mirage.plan"

    arch: StringAttr
    numbers: ArrayAttr[IntAttr]
    """stages, shared-memory bytes, the load strategy (its index in `LOADS`: 0 cp-async,
    1 bulk-rows, 2 tma), scratch offset, mbarrier offset, and
    the number of values (the graph's and the plan's own)."""
    lists: ArrayAttr[ArrayAttr[IntAttr]]
    """Hoisted and streamed input iterators, row accumulators kept in registers, and fused
    values that are no op's first result."""
    pairs: ArrayAttr[ArrayAttr[IntAttr]]
    """Flattened pairs: converted copy -> source, accum_rescale -> its running maximum, a
    normalization computed where read -> its row scales, a reduction -> the value its task
    stores in place of its totals (`Plan.reduce_epilogues`)."""
    tile_values: ArrayAttr[IntAttr]
    tiles: ArrayAttr[TileAttr]
    """Tiles of values that are no op's first result."""
    tasks: ArrayAttr[ArrayAttr[TaskAttr]]
    """The schedule: before the loop, loop-invariant, in the loop, after it."""

    def verify(self) -> None:
        target_for(self.arch.data)
        if (
            len(self.numbers.data) != len(_PLAN_NUMBERS)
            or len(self.lists.data) != len(_PLAN_LISTS)
            or len(self.pairs.data) != len(_PLAN_PAIRS)
        ):
            raise VerifyException("mirage.plan: malformed")
        if len(self.tile_values.data) != len(self.tiles.data):
            raise VerifyException("mirage.plan: one value per extra tile")
        loads = self.numbers.data[_PLAN_NUMBERS.index("loads")].data
        if not 0 <= loads < len(LOADS):
            raise VerifyException(
                f"mirage.plan: loads must be 0 to {len(LOADS) - 1} "
                f"({', '.join(LOADS)}), got {loads}"
            )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.arch.data}")
        for key, value in zip(_PLAN_NUMBERS, _values(self.numbers), strict=True):
            printer.print_string(f", {key} {value}")
        for key, values in zip(_PLAN_LISTS, self.lists.data, strict=True):
            printer.print_string(f", {key} ")
            _print_ints(printer, _values(values))
        for key, flat in zip(_PLAN_PAIRS, self.pairs.data, strict=True):
            v = _values(flat)
            items = [f"{v[i]} = {v[i + 1]}" for i in range(0, len(v), 2)]
            printer.print_string(f", {key} [{', '.join(items)}]")
        printer.print_string(", tiles [")
        for i, (v, tile) in enumerate(zip(self.tile_values.data, self.tiles.data, strict=True)):
            printer.print_string(f"{', ' if i else ''}{v.data} = ")
            printer.print_attribute(tile)
        printer.print_string("]")
        for key, tasks in zip(_PLAN_TASKS, self.tasks.data, strict=True):
            printer.print_string(f", {key} [")
            printer.print_list(tasks.data, printer.print_attribute)
            printer.print_string("]")
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        arch = parser.parse_identifier()
        numbers = dict.fromkeys(_PLAN_NUMBERS, 0)
        lists: dict[str, list[int]] = {k: [] for k in _PLAN_LISTS}
        pairs: dict[str, list[int]] = {k: [] for k in _PLAN_PAIRS}
        tile_values: list[int] = []
        tiles: list[TileAttr] = []
        tasks: dict[str, list[TaskAttr]] = {k: [] for k in _PLAN_TASKS}

        def pair() -> tuple[int, int]:
            first = parser.parse_integer()
            parser.parse_punctuation("=")
            return first, parser.parse_integer()

        def tile() -> None:
            tile_values.append(parser.parse_integer())
            parser.parse_punctuation("=")
            tiles.append(_expect(parser, TileAttr))

        while parser.parse_optional_punctuation(",") is not None:
            key = parser.parse_identifier()
            if key in numbers:
                numbers[key] = parser.parse_integer()
            elif key in lists:
                lists[key] = _parse_ints(parser)
            elif key in pairs:
                found = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, pair)
                pairs[key] = [v for p in found for v in p]
            elif key == "tiles":
                parser.parse_comma_separated_list(parser.Delimiter.SQUARE, tile)
            elif key in tasks:
                tasks[key] = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: _expect(parser, TaskAttr)
                )
            else:
                parser.raise_error(f"unknown plan field '{key}'")
        parser.parse_punctuation(">")
        return [
            StringAttr(arch),
            _ints([numbers[k] for k in _PLAN_NUMBERS]),
            ArrayAttr([_ints(lists[k]) for k in _PLAN_LISTS]),
            ArrayAttr([_ints(pairs[k]) for k in _PLAN_PAIRS]),
            _ints(tile_values),
            ArrayAttr(tiles),
            ArrayAttr([ArrayAttr(tasks[k]) for k in _PLAN_TASKS]),
        ]


@irdl_attr_definition
class TensorMapAttr(ParametrizedAttribute):
    """A tensor map a kernel takes (on its `gpu.launch_func`, in kernel-parameter order):
    `#mirage.tensor_map<source 1, dims [6144, 4096], row_stride 12288, box [64, 64], f16,
    swizzle 128>`, for the tensor of kernel parameter `source`; dims and box innermost
    first, in elements; the row stride in bytes."""

    name = "mirage.tensor_map"

    source: IntAttr
    dims: ArrayAttr[IntAttr]
    row_stride: IntAttr
    box: ArrayAttr[IntAttr]
    dtype: StringAttr
    swizzle: IntAttr

    @staticmethod
    def of(m: TensorMapPlan) -> TensorMapAttr:
        return TensorMapAttr(
            IntAttr(m.param),
            _ints(m.dims),
            IntAttr(m.row_stride),
            _ints(m.box),
            StringAttr(m.dtype),
            IntAttr(m.swizzle),
        )

    def verify(self) -> None:
        _one_of("tensor map element type", self.dtype.data, tuple(TMA_DTYPES))
        if len(self.dims.data) != 2 or len(self.box.data) != 2:
            raise VerifyException("a tensor map has 2 dims and a 2-D box")
        if any(d.data < 1 for d in (*self.dims.data, *self.box.data)):
            raise VerifyException("tensor map dims and box must be positive")
        if self.row_stride.data % 16:
            raise VerifyException(
                f"a tensor map's row stride must be a multiple of 16 bytes, got "
                f"{self.row_stride.data}"
            )
        if self.swizzle.data not in (0, *SWIZZLES):
            raise VerifyException(
                f"tensor map swizzle must be 0, 32, 64 or 128, got {self.swizzle.data}"
            )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<source {self.source.data}, dims ")
        _print_ints(printer, _values(self.dims))
        printer.print_string(f", row_stride {self.row_stride.data}, box ")
        _print_ints(printer, _values(self.box))
        printer.print_string(f", {self.dtype.data}, swizzle {self.swizzle.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_keyword("source")
        source = parser.parse_integer()
        parser.parse_punctuation(",")
        parser.parse_keyword("dims")
        dims = _parse_ints(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("row_stride")
        stride = parser.parse_integer()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        box = _parse_ints(parser)
        parser.parse_punctuation(",")
        dtype = parser.parse_identifier()
        parser.parse_punctuation(",")
        parser.parse_keyword("swizzle")
        swizzle = parser.parse_integer()
        parser.parse_punctuation(">")
        return [
            IntAttr(source),
            _ints(dims),
            IntAttr(stride),
            _ints(box),
            StringAttr(dtype),
            IntAttr(swizzle),
        ]


@irdl_attr_definition
class JoinAttr(ParametrizedAttribute):
    """On a `kernel.graph`: it runs in the launch of the graph before it, whose blocks form
    clusters of `size` along grid axis `axis` and play this graph's blocks with `threads`
    threads each (`cluster_join`): `#mirage.join<axis 2, size 16, threads 128>`."""

    name = "mirage.join"

    axis: IntAttr
    size: IntAttr
    threads: IntAttr

    def verify(self) -> None:
        if self.axis.data not in (0, 1, 2):
            raise VerifyException(f"a join's axis must be 0, 1 or 2, got {self.axis.data}")
        if self.size.data < 2:
            raise VerifyException(f"a join's clusters need 2 blocks or more, got {self.size.data}")
        if self.threads.data < 32 or self.threads.data % 32:
            raise VerifyException(
                f"a join's threads must be a positive multiple of 32, got {self.threads.data}"
            )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<axis {self.axis.data}, size {self.size.data}, threads {self.threads.data}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        values: list[Attribute] = []
        for i, key in enumerate(("axis", "size", "threads")):
            if i:
                parser.parse_punctuation(",")
            parser.parse_keyword(key)
            values.append(IntAttr(parser.parse_integer()))
        parser.parse_punctuation(">")
        return values


_A = TypeVar("_A", bound=Attribute)


def _expect(parser: AttrParser, kind: type[_A]) -> _A:
    attr = parser.parse_attribute()
    if not isinstance(attr, kind):
        parser.raise_error(f"expected {kind.name}, got {attr}")
    return attr


MirageAttrs = Dialect(
    "mirage", [], [TileAttr, MmaAttr, TaskAttr, PlanAttr, TensorMapAttr, JoinAttr]
)
"""The plan's attributes (and the namespace of `mirage.*` discardable attributes)."""

TILE, FUSED, MMA, PLAN = "mirage.tile", "mirage.fused", "mirage.mma", "mirage.plan"
TENSOR_MAPS = "mirage.tensor_maps"
"""On a `gpu.launch_func`: the `TensorMapAttr`s its kernel takes after the pointers."""
STAGES, SMEM_BYTES, BARRIERS = "mirage.stages", "mirage.smem_bytes", "mirage.barriers"
JOIN = "mirage.join"
"""On a `kernel.graph`: `JoinAttr`, it runs in the previous graph's launch."""
DEPENDENT = "mirage.dependent"
"""On a `gpu.launch_func`: launched programmatically after the launch before it (its kernel
waits for that one with griddepcontrol.wait, `Target.dependent_launches`)."""
REMARKS = "mirage.remarks"
"""On a `kernel.graph` (and its `gpu.launch_func`): what the planner did otherwise than
asked, and why (for the reader)."""


def encode(plan: Plan, set_attr: Callable[[int, str, Attribute], None]) -> PlanAttr:
    """Calls `set_attr(op index, name, attribute)` for what each block op carries, and
    gives the graph's own `PlanAttr`."""
    g = plan.graph
    first: dict[int, int] = {}
    for index, (_, results) in enumerate(g.result_ids()):
        if results:
            first[results[0]] = index
    for v, tile in plan.tiles.items():
        if v in first:
            set_attr(first[v], TILE, TileAttr.of(tile))
    for v in plan.virtual:
        if v in first:
            set_attr(first[v], FUSED, UnitAttr())
    for index, mm in plan.matmuls.items():
        set_attr(index, MMA, MmaAttr.of(mm))
    extra = sorted(v for v in plan.tiles if v not in first)
    numbers = (
        plan.stages,
        plan.smem_bytes,
        LOADS.index(plan.loads),
        plan.scratch,
        plan.mbarriers,
        plan.next_value,
    )
    lists = (
        sorted(plan.hoisted),
        plan.streamed,
        sorted(plan.register_rows),
        sorted(v for v in plan.virtual if v not in first),
    )
    pairs = (
        [x for twin, src in sorted(plan.converts.items()) for x in (twin, src)],
        [x for acc, m in sorted(plan.rescale_max.items()) for x in (acc, m)],
        [x for norm, s in sorted(plan.norm_scales.items()) for x in (norm, s)],
        [x for r, e in sorted(plan.reduce_epilogues.items()) for x in (r, e)],
    )
    return PlanAttr(
        StringAttr(plan.target.name),
        _ints(numbers),
        ArrayAttr([_ints(v) for v in lists]),
        ArrayAttr([_ints(v) for v in pairs]),
        _ints(extra),
        ArrayAttr([TileAttr.of(plan.tiles[v]) for v in extra]),
        ArrayAttr(
            [
                ArrayAttr([TaskAttr.of(t) for t in tasks])
                for tasks in (plan.pre, plan.invariant, plan.loop, plan.post)
            ]
        ),
    )


def decode(graph_op: Op, attr: PlanAttr) -> Plan:
    """The plan of model op `graph_op` (a `graph` whose body ops carry their attributes,
    as `from_ir` keeps them)."""
    body = graph_op.body
    assert graph_op.kind == "graph" and body is not None
    grid = graph_op.ints_attr("grid")
    block = graph_op.ints_attr("block")
    join = graph_op.annotation(JOIN)
    plan = Plan(
        body,
        (grid[0], grid[1], grid[2]),
        join.threads.data if isinstance(join, JoinAttr) else block[0] * block[1] * block[2],
        graph_op.int_attr("forloop_range"),
        target_for(attr.arch.data),
    )
    for index, (op, results) in enumerate(body.result_ids()):
        if not results:
            continue
        tile = op.annotation(TILE)
        if isinstance(tile, TileAttr):
            plan.tiles[results[0]] = tile.tile()
        if op.annotation(FUSED) is not None:
            plan.virtual.add(results[0])
        mma = op.annotation(MMA)
        if isinstance(mma, MmaAttr):
            plan.matmuls[index] = mma.matmul(body, index, results[0])
    stages, smem, loads, scratch, mbarriers, values = _values(attr.numbers)
    plan.stages, plan.smem_bytes, plan.loads = stages, smem, LOADS[loads]
    plan.scratch, plan.mbarriers, plan.next_value = scratch, mbarriers, values
    hoisted, streamed, rows, fused = (_values(a) for a in attr.lists.data)
    plan.hoisted, plan.streamed = set(hoisted), list(streamed)
    plan.register_rows = set(rows)
    plan.virtual.update(fused)
    converts, rescale, norms, epilogues = (_values(a) for a in attr.pairs.data)
    plan.converts = {converts[i]: converts[i + 1] for i in range(0, len(converts), 2)}
    plan.rescale_max = {rescale[i]: rescale[i + 1] for i in range(0, len(rescale), 2)}
    plan.norm_scales = {norms[i]: norms[i + 1] for i in range(0, len(norms), 2)}
    plan.reduce_epilogues = {epilogues[i]: epilogues[i + 1] for i in range(0, len(epilogues), 2)}
    for v, tile in zip(attr.tile_values.data, attr.tiles.data, strict=True):
        plan.tiles[v.data] = tile.tile()
    plan.tiles = dict(sorted(plan.tiles.items()))  # the planner's order: by value
    pre, invariant, loop, post = ([t.task() for t in ts.data] for ts in attr.tasks.data)
    plan.pre, plan.invariant, plan.loop, plan.post = pre, invariant, loop, post
    return plan


def stages_override(op: Op) -> int | None:
    """A hand-set pipeline depth (`mirage.stages` on the graph op), wherever it stands."""
    attr = op.annotation(STAGES)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


__all__ = [
    "JOIN",
    "PLAN",
    "REMARKS",
    "JoinAttr",
    "MirageAttrs",
    "MmaAttr",
    "PlanAttr",
    "TaskAttr",
    "TileAttr",
    "decode",
    "encode",
    "stages_override",
]
