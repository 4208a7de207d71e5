"""μGraphs as plain frozen dataclasses.

Values are numbered: a graph's arguments are 0..len(args)-1, then every op's results in op
order. An op names its operands by those numbers. Op kinds are the dialect op names without
the dialect prefix (`matmul`, `exp`, `reduce_sum`, `input`, `accum_sum`, `graph`, `fuse`, ...).

Levels:
- kernel graph: args are device tensors; ops are kernel ops, `graph` ops carry a block graph
  as `body` and attrs `grid`, `block`, `forloop_range`;
- block graph: args are the launch's device tensors; `ops[:loop_end]` run in every loop
  iteration (input iterators, per-iteration ops, accumulators), the rest once after the loop
  (post-loop ops, output savers); outputs are the output savers' results;
- thread graph (body of a `fuse` op): args are scalars (shape ()), ops are elementwise.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from mirage.dialects.opkinds import ACCUMULATORS, LAUNCHES
from mirage.dialects.strides import row_major

if TYPE_CHECKING:
    from xdsl.ir import Attribute

AttrValue = Hashable
ACCUMULATOR_KINDS = ACCUMULATORS


@dataclass(frozen=True, slots=True)
class TensorType:
    shape: tuple[int, ...]
    dtype: str
    """One of f16, bf16, f32 (f64 for reference-only programs)."""

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self) -> int:
        return self.numel * DTYPE_BYTES[self.dtype]

    def __str__(self) -> str:
        return "x".join([*(str(d) for d in self.shape), self.dtype])


DTYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}


@dataclass(frozen=True, slots=True)
class Op:
    kind: str
    operands: tuple[int, ...]
    results: tuple[TensorType, ...]
    attrs: tuple[tuple[str, AttrValue], ...] = ()
    """Sorted (name, value) pairs; values are ints, floats or tuples of ints."""
    body: Graph | None = None
    annotations: tuple[tuple[str, Attribute], ...] = field(default=(), repr=False)
    """The IR op's discardable attributes, sorted by name (plan decisions, hand-set
    overrides): they travel with the op, wherever it stands, from IR to IR."""

    def annotation(self, name: str) -> Attribute | None:
        for key, value in self.annotations:
            if key == name:
                return value
        return None

    def attr(self, name: str) -> AttrValue:
        for key, value in self.attrs:
            if key == name:
                return value
        raise KeyError(f"op {self.kind} has no attribute {name}")

    def int_attr(self, name: str) -> int:
        value = self.attr(name)
        assert isinstance(value, int)
        return value

    def ints_attr(self, name: str) -> tuple[int, ...]:
        value = self.attr(name)
        assert isinstance(value, tuple)
        return tuple(int(v) for v in value)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]

    def float_attr(self, name: str) -> float:
        value = self.attr(name)
        assert isinstance(value, int | float)
        return float(value)

    def layout(self, storage: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """An input iterator's or output saver's logical tensor (the `view` it reads or
        writes the device tensor of shape `storage` through) and its strides into that
        tensor's storage: the tensor itself, row-major, where it has no view."""
        attrs = dict(self.attrs)
        view, strides = attrs.get("view"), attrs.get("strides")
        if isinstance(view, tuple) and isinstance(strides, tuple):
            return tuple(int(n) for n in view), tuple(int(s) for s in strides)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        return storage, row_major(storage)

    @property
    def offset(self) -> int:
        """An input iterator's window offset into its tensor's storage (0 where unset)."""
        for key, value in self.attrs:
            if key == "offset":
                assert isinstance(value, int)
                return value
        return 0

    @property
    def viewed(self) -> bool:
        """An input iterator or output saver with a strided view."""
        return any(key == "view" for key, _ in self.attrs)

    @property
    def eps(self) -> float:
        """The eps of a kind of `opkinds.EPS_KINDS` (0 where unset)."""
        for key, value in self.attrs:
            if key == "eps":
                assert isinstance(value, int | float)
                return float(value)
        return 0.0


def make_op(
    kind: str,
    operands: tuple[int, ...] | list[int],
    results: tuple[TensorType, ...] | list[TensorType],
    body: Graph | None = None,
    **attrs: AttrValue,
) -> Op:
    return Op(kind, tuple(operands), tuple(results), tuple(sorted(attrs.items())), body)


@dataclass(frozen=True, slots=True)
class Graph:
    args: tuple[TensorType, ...]
    ops: tuple[Op, ...]
    outputs: tuple[int, ...]
    loop_end: int = 0
    """Block graphs only: ops[:loop_end] run in every for-loop iteration."""
    _types: tuple[TensorType, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        types = list(self.args)
        for op in self.ops:
            types.extend(op.results)
        object.__setattr__(self, "_types", tuple(types))

    @property
    def num_values(self) -> int:
        return len(self._types)

    def type_of(self, value: int) -> TensorType:
        return self._types[value]

    def result_ids(self) -> Iterator[tuple[Op, tuple[int, ...]]]:
        """Each op with the numbers of its results."""
        n = len(self.args)
        for op in self.ops:
            yield op, tuple(range(n, n + len(op.results)))
            n += len(op.results)

    def with_bodies(self, rewrite: Callable[[Graph], Graph]) -> Graph:
        """This kernel-level graph with `rewrite` applied to every graph-defined op's body."""
        ops = tuple(
            replace(op, body=rewrite(op.body))
            if op.kind in LAUNCHES and op.body is not None
            else op
            for op in self.ops
        )
        return Graph(self.args, ops, self.outputs, self.loop_end)

    def producers(self) -> dict[int, int]:
        """Each op result's number -> the index of the op that makes it."""
        return {r: j for j, (_, results) in enumerate(self.result_ids()) for r in results}

    @property
    def output_types(self) -> tuple[TensorType, ...]:
        return tuple(self._types[v] for v in self.outputs)
