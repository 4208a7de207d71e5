"""Generation of block graphs (the body of one graph-defined op), paper Algorithm 1 at the
block level, in two steps.

1. The *structure*: ops on whole tensors, as if the grid had one block and the loop one
   iteration. Input iterators are made when an op first needs a device tensor; ops run in
   the loop until it is closed, accumulators carrying values out of it; then ops run after
   the loop, where a device tensor the loop does not read may be read once (an epilogue
   operand: a bias added to an accumulated product); finishing stores every value nothing
   uses. Each candidate op is checked,
   cheapest first: canonical order (`op_order.py`), op budget, shape rules, then the
   pruner on the whole prefix (abstract expressions do not depend on how the grid and the
   loop cut the tensors, up to sums that split into sums of tiles).
2. The *parallelization* of a finished structure (`parallelize.py`): the imaps, forloop
   dims and omaps under which it still computes the same, and their extents.

Searching structures once, not once per imap, is what makes the search tractable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from mirage.dialects.opkinds import ACCUMULATORS, BINARY, CONCATS, CONTRACTIONS, LOOP_SUM
from mirage.dialects.shapes import REPLICATE, ShapeError
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.pruning import Term
from mirage.passes.superoptimize import op_order
from mirage.passes.superoptimize.dims import DimMismatch, Dims, DimTypes
from mirage.passes.superoptimize.fusion import FUSIBLE
from mirage.passes.superoptimize.infer import result_shape
from mirage.passes.superoptimize.prefix_exprs import block_op_term
from mirage.passes.superoptimize.vocabulary import Vocabulary

COMPUTE_DTYPE = "f32"
"""Block-level values are computed and kept in f32; input tiles keep their tensor's dtype."""
THREADS = (128, 1, 1)
MAX_MERGED = 3
"""Ops merged into fused chains may exceed the block-op budget by this many (a chain
counts once; the cap keeps the space finite)."""
NO_MAP = (REPLICATE, REPLICATE, REPLICATE)


@dataclass(frozen=True, slots=True)
class BlockOp:
    kind: str
    operands: tuple[int, ...]
    """Refs: -(i + 1) is input i, j >= 0 is op j."""
    attrs: tuple[tuple[str, object], ...]
    type: TensorType
    dims: Dims
    term: Term


@dataclass(frozen=True, slots=True)
class BlockState:
    inputs: tuple[int, ...] = ()
    """The kernel values read, one input iterator each, in the order first used."""
    ops: tuple[BlockOp, ...] = ()
    loop_end: int | None = None
    """Index of the first post-loop op once the loop is closed."""
    loop_inputs: int | None = None
    """Once the loop is closed: how many of `inputs` it reads; those after them are read
    after the loop (epilogue operands, with forloop_dim -1)."""
    last_key: op_order.OpKey | None = None
    last_op: int | None = None
    op_uses: tuple[int, ...] = ()
    signatures: frozenset[tuple[object, ...]] = frozenset()
    unused: int = 0
    """Values of the current segment that still need a use: in the loop, ops other than
    accumulators; after it, accumulators and ops (each becomes an output if never used)."""
    accumulators: int = 0
    merged: frozenset[int] = frozenset()
    """Ops that thread-level fusion merges into their one reader (`fusion.py`: an
    elementwise op read once, by an elementwise op of its loop segment)."""

    @property
    def in_loop(self) -> bool:
        return self.loop_end is None

    @property
    def size(self) -> int:
        """The ops that count against the budget: a fused chain counts once."""
        return len(self.inputs) + len(self.ops) - len(self.merged)


@dataclass(frozen=True, slots=True)
class FinishedGraph:
    """A complete structure: one block, no loop, whole tensors (`op` evaluates to what
    every parallelization of it computes)."""

    operands: tuple[int, ...]
    op: Op
    dims: tuple[Dims, ...]
    """The program dims of each output."""
    terms: tuple[Term, ...]
    """The abstract expression of each output."""


@dataclass(frozen=True, slots=True)
class _Fresh:
    value: int
    type: TensorType


Operand = int | _Fresh


@dataclass
class BlockStats:
    generated: int = 0
    pruned: int = 0
    rejected: int = 0
    bounded: int = 0


_DISTINCT_OPERANDS = BINARY | CONCATS


@dataclass
class BlockGenerator:
    """Generates the children of block states, for one kernel-level context."""

    kernel_types: Sequence[TensorType]
    kernel_dims: Sequence[Dims]
    kernel_terms: Sequence[Term]
    dim_types: DimTypes
    vocabulary: Vocabulary
    max_ops: int
    keep: Callable[[Term], bool]
    """The pruner, on the abstract expression of each new value."""
    stats: BlockStats = field(default_factory=BlockStats)
    final_shapes: tuple[tuple[int, ...], ...] | None = None
    """When this graph op is the last kernel op the budget allows: the shapes of the
    outputs it must give (every value nobody uses then must be merged into them)."""
    max_outputs: int = 2
    """Otherwise, the most outputs it may give."""
    required: frozenset[int] = frozenset()
    """Kernel values it must read (results of earlier kernel ops nothing else reads)."""
    affordable: Callable[[frozenset[int]], bool] = lambda reads: True
    """Whether reading these kernel values may still lead to a candidate cheaper than the
    best known (a lower bound of the cost against it)."""

    # --- materializing -------------------------------------------------------------

    def graph_op(self, state: BlockState, outputs: Sequence[int] = ()) -> Op:
        """The structure as a graph-defined op of one block and one iteration (without
        outputs while it grows)."""
        values = sorted(state.inputs)
        arg_of = {v: i for i, v in enumerate(values)}
        number: dict[int, int] = {}
        ops: list[Op] = []
        n = len(values)
        n_loop_inputs = len(state.inputs) if state.loop_inputs is None else state.loop_inputs

        def read(post: bool) -> None:
            nonlocal n
            for v in values:
                i = state.inputs.index(v)
                if (i >= n_loop_inputs) != post:
                    continue
                ty = self.kernel_types[v]
                ops.append(make_op("input", [arg_of[v]], [ty], imap=NO_MAP, forloop_dim=-1))
                number[-(i + 1)] = n
                n += 1

        in_loop_ops = len(state.ops) if state.loop_end is None else state.loop_end
        read(post=False)
        for j, bop in enumerate(state.ops):
            if j == in_loop_ops:
                read(post=True)
            ops.append(Op(bop.kind, tuple(number[r] for r in bop.operands), (bop.type,), bop.attrs))
            number[j] = n
            n += 1
        if in_loop_ops == len(state.ops):
            read(post=True)
        loop_end = n_loop_inputs + in_loop_ops
        outs: list[int] = []
        out_types: list[TensorType] = []
        for ref in outputs:
            ty = state.ops[ref].type
            ops.append(make_op("output", [number[ref]], [ty], omap=NO_MAP))
            outs.append(n)
            out_types.append(ty)
            n += 1
        body = Graph(tuple(self.kernel_types[v] for v in values), tuple(ops), tuple(outs), loop_end)
        return make_op(
            "graph", values, out_types, body=body, grid=(1, 1, 1), block=THREADS, forloop_range=1
        )

    # --- children --------------------------------------------------------------------

    def _operand_choices(self, state: BlockState, taken: Sequence[Operand]) -> Iterator[Operand]:
        if state.in_loop:
            for i in range(len(state.inputs)):
                yield -(i + 1)
            for j, op in enumerate(state.ops):
                if op.kind not in ACCUMULATORS:
                    yield j
            read = set(state.inputs) | {t.value for t in taken if isinstance(t, _Fresh)}
            for v, ty in enumerate(self.kernel_types):
                if v not in read:
                    yield _Fresh(v, ty)
        else:
            assert state.loop_end is not None and state.loop_inputs is not None
            for j in range(state.loop_end):
                if state.ops[j].kind in ACCUMULATORS:
                    yield j
            yield from range(state.loop_end, len(state.ops))
            for i in range(state.loop_inputs, len(state.inputs)):
                yield -(i + 1)
            # a device tensor the loop does not read, read once after it
            read = set(state.inputs) | {t.value for t in taken if isinstance(t, _Fresh)}
            for v, ty in enumerate(self.kernel_types):
                if v not in read:
                    yield _Fresh(v, ty)

    def _sizes(self, extent: int, dim: int | None) -> list[int]:
        """Sizes a reduction of this dim may reduce to: 1, and for a dim of partial
        results the program's extents that divide it (summing the partials only)."""
        if not self.dim_types.is_partial(dim):
            return [1]
        return [s for s in self.vocabulary.reduce_sizes if s < extent and extent % s == 0]

    def _dims(self, state: BlockState, operand: Operand) -> Dims:
        if isinstance(operand, _Fresh):
            return self.kernel_dims[operand.value]
        return (
            self.kernel_dims[state.inputs[-operand - 1]] if operand < 0 else state.ops[operand].dims
        )

    def _term(self, state: BlockState, operand: Operand) -> Term:
        if isinstance(operand, _Fresh):
            return self.kernel_terms[operand.value]
        return (
            self.kernel_terms[state.inputs[-operand - 1]]
            if operand < 0
            else state.ops[operand].term
        )

    def _type(self, state: BlockState, operand: Operand) -> TensorType:
        if isinstance(operand, _Fresh):
            return operand.type
        return (
            self.kernel_types[state.inputs[-operand - 1]]
            if operand < 0
            else state.ops[operand].type
        )

    def children(self, state: BlockState) -> list[BlockState | FinishedGraph]:
        out: list[BlockState | FinishedGraph] = []
        vocab = self.vocabulary
        unary: list[tuple[str, tuple[tuple[str, object], ...]]] = [(k, ()) for k in vocab.unary]
        unary += vocab.scaled
        unary += [(k, a) for k in vocab.norms for a in vocab.eps_variants(k)]
        if state.in_loop:
            unary += [(k, a) for k in vocab.accumulators for a in vocab.eps_variants(k)]
        binary = [*vocab.contractions, *vocab.binary, *vocab.concats]
        if state.size + 2 <= self.max_ops:  # an op and at least one output
            firsts = list(self._operand_choices(state, ()))
            for a in firsts:
                a_shape = self._type(state, a).shape
                fa = 1 if self._frees(state, a) else 0
                na = 1 if isinstance(a, _Fresh) else 0
                ra = frozenset({a.value}) if isinstance(a, _Fresh) else frozenset[int]()
                for kind, attrs in unary:
                    m = self._merged(state, kind, (a,))
                    if self._room(state, fa, kind in ACCUMULATORS, na, ra, m):
                        self._try(state, kind, (a,), attrs, out)
                if self._room(state, fa, False, na, ra, self._merged(state, "reduce_sum", (a,))):
                    a_dims = self._dims(state, a)
                    for kind in vocab.reductions:
                        for dim in range(len(a_shape)):
                            for size in self._sizes(a_shape[dim], a_dims[dim]):
                                self._try(state, kind, (a,), (("dim", dim), ("size", size)), out)
                if not binary:
                    continue
                seconds = self._operand_choices(state, (a,)) if isinstance(a, _Fresh) else firsts
                for b in seconds:
                    fb = 1 if b != a and self._frees(state, b) else 0
                    nb = 1 if isinstance(b, _Fresh) else 0
                    rb = ra | {b.value} if isinstance(b, _Fresh) else ra
                    # as an elementwise op, which merges the most (the exact check is _make's)
                    m = self._merged(state, "add", (a, b))
                    if not self._room(state, fa + fb, False, na + nb, rb, m):
                        continue
                    b_shape = self._type(state, b).shape
                    if len(b_shape) != len(a_shape):
                        continue
                    for kind in binary:
                        if kind in CONTRACTIONS:
                            if len(a_shape) >= 2 and a_shape[-1] == b_shape[-2]:
                                self._try(state, kind, (a, b), (), out)
                        elif kind in CONCATS:
                            for dim in range(len(a_shape)):
                                self._try(state, kind, (a, b), (("dim", dim),), out)
                        elif all(
                            x == y or x == 1 or y == 1
                            for x, y in zip(a_shape, b_shape, strict=True)
                        ):
                            self._try(state, kind, (a, b), (), out)
        if state.in_loop:
            closed = self._close(state)
            if closed is not None:
                out.append(closed)
        else:
            finished = self._finish(state)
            if finished is not None:
                out.append(finished)
        return out

    def _merges(self, state: BlockState, kind: str, operands: Sequence[Operand]) -> frozenset[int]:
        """The ops merged once an op of `kind` reads `operands`: an elementwise reader
        merges each fusible operand of its segment it is the first to read; an operand
        read a second time leaves its chain."""
        merged = set(state.merged)
        refs = [o for o in operands if not isinstance(o, _Fresh) and o >= 0]
        # fusion leaves a chain with an f16 input tile as it is (one dtype per chain)
        fusible = kind in FUSIBLE and not self._reads_narrow(state, operands)
        for r in set(refs):
            same_segment = state.in_loop or (state.loop_end is not None and r >= state.loop_end)
            first = state.op_uses[r] == 0 and refs.count(r) == 1
            producer = state.ops[r]
            if (
                fusible
                and first
                and same_segment
                and producer.kind in FUSIBLE
                and not self._reads_narrow(state, producer.operands)
            ):
                merged.add(r)
            else:
                merged.discard(r)
        return frozenset(merged)

    def _reads_narrow(self, state: BlockState, operands: Sequence[Operand]) -> bool:
        return any(
            (isinstance(o, _Fresh) or o < 0) and self._type(state, o).dtype != COMPUTE_DTYPE
            for o in operands
        )

    def _merged(self, state: BlockState, kind: str, operands: Sequence[Operand]) -> int:
        """How many more ops are merged once this op reads `operands` (negative when it
        breaks a chain)."""
        return len(self._merges(state, kind, operands)) - len(state.merged)

    def _frees(self, state: BlockState, operand: Operand) -> bool:
        """Using this operand gives a value that nobody uses yet its first use."""
        return (
            not isinstance(operand, _Fresh)
            and operand >= 0
            and state.op_uses[operand] == 0
            and (not state.in_loop or state.ops[operand].kind not in ACCUMULATORS)
        )

    def _room(
        self,
        state: BlockState,
        freed: int,
        accumulator: bool,
        new_inputs: int,
        reads: frozenset[int] = frozenset(),
        merged: int = 0,
    ) -> bool:
        """Whether the op budget has room for this op, its new inputs (of kernel values
        `reads`), and a lower bound of the ops that must follow it: every value nobody
        uses must end in an output, and a binary op merges two such values into one at
        best; each required kernel value not read yet needs an input and an op."""
        unused = state.unused - freed + (0 if accumulator and state.in_loop else 1)
        sinks = unused + (state.accumulators + (1 if accumulator else 0) if state.in_loop else 0)
        if self.final_shapes is not None:
            n_out = len(self.final_shapes)
            outputs = n_out
        else:
            n_out = self.max_outputs
            outputs = max(1, min(sinks, n_out))
        needed = max(0, sinks - n_out) + outputs
        if state.in_loop and unused:
            needed += 1  # an accumulator
        missing = len(self.required - reads - set(state.inputs))
        size = state.size - merged
        raw = len(state.inputs) + len(state.ops) + new_inputs + 1
        return (
            size + new_inputs + 1 + needed + 2 * missing <= self.max_ops
            and raw + needed <= self.max_ops + MAX_MERGED
        )

    def _try(
        self,
        state: BlockState,
        kind: str,
        operands: tuple[Operand, ...],
        attrs: tuple[tuple[str, object], ...],
        out: list[BlockState | FinishedGraph],
    ) -> None:
        child = self._make(state, kind, operands, attrs)
        if child is not None:
            out.append(child)

    def _make(
        self,
        state: BlockState,
        kind: str,
        operands: tuple[Operand, ...],
        attrs: tuple[tuple[str, object], ...],
    ) -> BlockState | None:
        self.stats.generated += 1
        accumulator = kind in ACCUMULATORS
        new_inputs = [o.value for o in operands if isinstance(o, _Fresh)]
        existing = {o for o in operands if not isinstance(o, _Fresh)}
        if kind in LOOP_SUM and any(isinstance(o, _Fresh) or o < 0 for o in operands):
            # An input tile summed over iterations means anything only without a loop,
            # and then its ops may as well run in the loop (the canonical place).
            self.stats.rejected += 1
            return None
        freed = sum(1 for r in existing if self._frees(state, r))
        merged = self._merges(state, kind, operands)
        if not self._room(
            state,
            freed,
            accumulator,
            len(new_inputs),
            frozenset(new_inputs),
            len(merged) - len(state.merged),
        ):
            self.stats.rejected += 1
            return None
        if new_inputs and not self.affordable(frozenset(state.inputs) | set(new_inputs)):
            self.stats.bounded += 1
            return None
        inputs = state.inputs + tuple(new_inputs)
        refs = tuple(-(inputs.index(o.value) + 1) if isinstance(o, _Fresh) else o for o in operands)
        # Inputs rank by the kernel value they read, op results by position.
        keys = tuple((0, inputs[-r - 1]) if r < 0 else (1, r) for r in refs)
        if (
            len(keys) == 2
            and kind in _DISTINCT_OPERANDS
            and (keys[0] == keys[1] or (kind in op_order.COMMUTATIVE and keys[0] > keys[1]))
        ):
            self.stats.rejected += 1
            return None
        signature = (kind, keys, attrs)
        if signature in state.signatures:
            self.stats.rejected += 1
            return None
        key = op_order.op_key(kind, keys, attrs)
        uses_last = state.last_op is not None and state.last_op in existing
        if not op_order.in_order(key, uses_last, state.last_key):
            self.stats.rejected += 1
            return None
        shapes = [self._type(state, o).shape for o in operands]
        try:
            shape = result_shape(kind, dict(attrs), shapes)
            dims = self.dim_types.infer(
                kind, dict(attrs), [self._dims(state, o) for o in operands], shapes, shape
            )
        except (ShapeError, DimMismatch):
            self.stats.rejected += 1
            return None
        op_uses = list(state.op_uses)
        unused = state.unused
        for r in set(refs):
            if r < 0:
                continue
            if op_uses[r] == 0 and (not state.in_loop or state.ops[r].kind not in ACCUMULATORS):
                unused -= 1
            op_uses[r] += refs.count(r)
        if not accumulator:
            unused += 1
        result = TensorType(shape, COMPUTE_DTYPE)
        term = block_op_term(
            Op(kind, tuple(range(len(operands))), (result,), attrs),
            [self._type(state, o) for o in operands],
            [self._term(state, o) for o in operands],
            post=not state.in_loop,
        )
        if not self.keep(term):
            self.stats.pruned += 1
            return None
        child = BlockState(
            inputs=inputs,
            ops=(*state.ops, BlockOp(kind, refs, attrs, result, dims, term)),
            loop_end=state.loop_end,
            loop_inputs=state.loop_inputs,
            last_key=key,
            last_op=len(state.ops),
            op_uses=(*op_uses, 0),
            signatures=state.signatures | {signature},
            unused=unused,
            accumulators=state.accumulators + (1 if accumulator else 0),
            merged=merged,
        )
        return child

    # --- closing the loop and finishing ------------------------------------------------

    def _close(self, state: BlockState) -> BlockState | None:
        if not state.accumulators or state.unused:
            return None
        return replace(
            state,
            loop_end=len(state.ops),
            loop_inputs=len(state.inputs),
            last_key=None,
            last_op=None,
            unused=state.accumulators,
        )

    def _finish(self, state: BlockState) -> FinishedGraph | None:
        assert state.loop_end is not None
        sinks = [
            j
            for j, op in enumerate(state.ops)
            if state.op_uses[j] == 0 and (j >= state.loop_end or op.kind in ACCUMULATORS)
        ]
        raw = len(state.inputs) + len(state.ops) + len(sinks)
        if not sinks or state.size + len(sinks) > self.max_ops or raw > self.max_ops + MAX_MERGED:
            return None
        if self.final_shapes is not None:
            if self.final_shapes != tuple(sorted(state.ops[j].type.shape for j in sinks)):
                return None
        elif len(sinks) > self.max_outputs:
            return None
        if not self.required <= set(state.inputs):
            return None
        return FinishedGraph(
            tuple(sorted(state.inputs)),
            self.graph_op(state, sinks),
            tuple(state.ops[j].dims for j in sinks),
            tuple(state.ops[j].term for j in sinks),
        )
