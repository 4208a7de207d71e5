"""The search tree: kernel-level generation (paper Algorithm 1), with the block-level
generator nested in it for graph-defined ops.

A node is a kernel-level prefix (ops, their fingerprints, which program outputs they
already give) and, while a graph-defined op is being built, its block state. Children are
moves, listed in a fixed order so that a path of child indices names a subtree (the unit
of parallel work); `step` applies one move and evaluates the fingerprints it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace

from mirage.dialects.hardware import Target
from mirage.dialects.opkinds import LAUNCHES
from mirage.dialects.shapes import ShapeError
from mirage.dialects.ugraph.graph import Graph, Op, TensorType, make_op
from mirage.passes.pruning import AbstractExprs, Term
from mirage.passes.superoptimize import op_order
from mirage.passes.superoptimize.blockgen import (
    COMPUTE_DTYPE,
    BlockGenerator,
    BlockState,
    BlockStats,
    FinishedGraph,
)
from mirage.passes.superoptimize.cost import kernel_lower_bound, op_cost
from mirage.passes.superoptimize.dims import DimMismatch, Dims, DimTypes
from mirage.passes.superoptimize.fingerprint import (
    Array,
    Evaluator,
    same,
    same_signature,
    sample_inputs,
    signature,
    usable,
)
from mirage.passes.superoptimize.infer import result_shape
from mirage.passes.superoptimize.interfaces import PruneCheck
from mirage.passes.superoptimize.parallelize import Parallelized, parallelizations
from mirage.passes.superoptimize.precision import storage_dtype, stored_in
from mirage.passes.superoptimize.prefix_exprs import op_terms
from mirage.passes.superoptimize.vocabulary import Vocabulary, vocabulary_of


@dataclass(frozen=True, slots=True)
class SearchLimits:
    max_kernel_ops: int
    max_block_ops: int
    target: Target
    seed: int


@dataclass(frozen=True, slots=True)
class StartGraph:
    """Begin a graph-defined op."""


@dataclass(frozen=True, slots=True)
class AddOp:
    """Append a kernel-level op (pre-defined, or a finished graph-defined one)."""

    op: Op
    key: op_order.OpKey
    dims: tuple[Dims, ...]
    """The program dims of its results."""
    terms: tuple[Term, ...]
    """The abstract expressions of its results."""
    same_as: Op | None = None
    """An op that computes the same and is cheaper to evaluate (a graph op's structure on
    whole tensors)."""
    deferred: bool = False
    """A structure, to be parallelized once the candidate is finished."""


@dataclass(frozen=True, slots=True)
class GrowBlock:
    state: BlockState


Move = StartGraph | AddOp | GrowBlock


@dataclass
class KernelNode:
    ops: tuple[Op, ...]
    types: tuple[TensorType, ...]
    values: tuple[Array, ...]
    keys: tuple[Hashable, ...]
    """Names of the values for memoized evaluation."""
    sigs: tuple[Array, ...]
    dims: tuple[Dims, ...]
    terms: tuple[Term, ...]
    matched: tuple[int, ...]
    last_key: op_order.OpKey | None = None
    deferred: frozenset[int] = frozenset()
    """Ops that are structures still to parallelize."""
    seconds: float = 0.0
    """The cost model's estimate of the ops so far."""
    deps: tuple[frozenset[int], ...] = ()
    """The program arguments each value depends on."""
    block: BlockState | None = None
    block_gen: BlockGenerator | None = None

    @property
    def complete(self) -> bool:
        return all(m >= 0 for m in self.matched)


@dataclass
class SearchStats:
    explored: int = 0
    pruned: int = 0
    rejected: int = 0
    finished_graphs: int = 0
    candidates: int = 0
    transposed: int = 0
    bounded: int = 0
    block: BlockStats = field(default_factory=BlockStats)

    def as_dict(self) -> dict[str, int]:
        return {
            "explored": self.explored,
            "pruned": self.pruned + self.block.pruned,
            "rejected": self.rejected + self.block.rejected,
            "generated": self.block.generated,
            "finished_graphs": self.finished_graphs,
            "transposed": self.transposed,
            "bounded": self.bounded + self.block.bounded,
            "candidates": self.candidates,
        }


class SearchSpace:
    """Children and steps of the search tree of one program."""

    def __init__(
        self,
        program: Graph,
        limits: SearchLimits,
        pruner: PruneCheck,
        vocabulary: Vocabulary | None = None,
    ) -> None:
        self.program = program
        self.limits = limits
        self.pruner = pruner
        self.vocabulary = vocabulary or vocabulary_of(program)
        self.inputs, self.outputs = sample_inputs(program, limits.seed)
        self.output_sigs = [signature(o) for o in self.outputs]
        self.evaluator = Evaluator()
        self.dim_types = DimTypes(program)
        self._seen: dict[tuple[object, ...], float] = {}
        self.bound = float("inf")
        self.storage = storage_dtype(program)
        """The type the results of a graph op that is not the last are stored in."""
        self.output_deps = _output_deps(program)
        """Seconds of the cheapest candidate known: a prefix that cannot beat it is cut."""
        self.stats = SearchStats()

    # --- the root ----------------------------------------------------------------------

    def root(self) -> KernelNode:
        values = tuple(self.inputs)
        keys = tuple(("arg", i) for i in range(len(values)))
        sigs = tuple(signature(v) for v in values)
        matched = tuple(
            self._match(values, sigs, range(len(values)), (-1,) * len(self.program.outputs))
        )
        dims = tuple(self.dim_types.args)
        terms = AbstractExprs.of(self.program).terms[: len(values)]
        deps = tuple(frozenset({i}) for i in range(len(values)))
        return KernelNode(
            (), self.program.args, values, keys, sigs, dims, terms, matched, deps=deps
        )

    def _match(
        self,
        values: Sequence[Array],
        sigs: Sequence[Array],
        new: Sequence[int],
        matched: tuple[int, ...],
    ) -> list[int]:
        out = list(matched)
        for i, target in enumerate(self.outputs):
            if out[i] >= 0:
                continue
            for v in new:
                if (
                    values[v].shape == target.shape
                    and same_signature(sigs[v], self.output_sigs[i])
                    and same(values[v], target)
                ):
                    out[i] = v
                    break
        return out

    # --- children ------------------------------------------------------------------------

    def prefix(self, ops: Sequence[Op]) -> Graph:
        return Graph(self.program.args, tuple(ops), ())

    def children(self, node: KernelNode) -> list[Move]:
        if node.complete:
            return []
        if node.block is None:
            if len(node.ops) >= self.limits.max_kernel_ops:
                return []
            return [StartGraph(), *self._predefined(node)]
        gen = node.block_gen
        assert gen is not None
        moves: list[Move] = []
        for child in gen.children(node.block):
            if isinstance(child, BlockState):
                moves.append(GrowBlock(child))
            else:
                moves.extend(self._finished(node, child))
        return moves

    def _kernel_key(self, node: KernelNode, op: Op) -> op_order.OpKey | None:
        """The op's canonical key, or None if it breaks the canonical order."""
        keys = tuple((v,) for v in op.operands)
        attrs = repr((op.attrs, op.body)) if op.body is not None else op.attrs
        key = op_order.op_key(op.kind, keys, (attrs,))
        last = len(self.program.args) + sum(len(o.results) for o in node.ops[:-1])
        uses_last = bool(node.ops) and any(v >= last for v in op.operands)
        return key if op_order.in_order(key, uses_last, node.last_key) else None

    def _predefined(self, node: KernelNode) -> list[Move]:
        vocab = self.vocabulary
        n = len(node.types)
        specs: list[tuple[str, tuple[int, ...], dict[str, object]]] = []
        for v in range(n):
            for k in vocab.unary:
                specs.append((k, (v,), {}))
            for k, attrs in vocab.scaled:
                specs.append((k, (v,), dict(attrs)))
            for k in vocab.norms:
                specs += [(k, (v,), dict(a)) for a in vocab.eps_variants(k)]
            for k in vocab.reductions:
                for dim, extent in enumerate(node.types[v].shape):
                    partial = self.dim_types.is_partial(node.dims[v][dim])
                    for size in vocab.reduce_sizes if partial else (1,):
                        if size < extent and extent % size == 0:
                            specs.append((k, (v,), {"dim": dim, "size": size}))
            for w in range(n):
                for k in vocab.contractions:
                    specs.append((k, (v, w), {}))
                for k in vocab.binary:
                    if v == w or (k in op_order.COMMUTATIVE and v > w):
                        continue
                    specs.append((k, (v, w), {}))
                for k in vocab.concats:
                    if v != w:
                        for dim in range(len(node.types[v].shape)):
                            specs.append((k, (v, w), {"dim": dim}))
        existing = {(o.kind, o.operands, o.attrs) for o in node.ops}
        moves: list[Move] = []
        for kind, operands, attrs in specs:
            shapes = [node.types[v].shape for v in operands]
            try:
                shape = result_shape(kind, attrs, shapes)
                dims = self.dim_types.infer(
                    kind, attrs, [node.dims[v] for v in operands], shapes, shape
                )
            except (ShapeError, DimMismatch):
                self.stats.rejected += 1
                continue
            op = make_op(kind, operands, [TensorType(shape, COMPUTE_DTYPE)], None, **attrs)
            if (op.kind, op.operands, op.attrs) in existing or not self._fits_last(node, op):
                self.stats.rejected += 1
                continue
            key = self._kernel_key(node, op)
            if key is None:
                self.stats.rejected += 1
                continue
            terms = op_terms(
                op, [node.types[v] for v in operands], [node.terms[v] for v in operands]
            )
            if not all(self.pruner.keep_term(t) for t in terms):
                self.stats.pruned += 1
                continue
            moves.append(AddOp(op, key, (dims,), terms))
        return moves

    def _unmatched_shapes(self, node: KernelNode) -> list[tuple[int, ...]]:
        return sorted(
            t.shape for t, m in zip(self.program.output_types, node.matched, strict=True) if m < 0
        )

    def _last(self, node: KernelNode) -> bool:
        return len(node.ops) + 1 >= self.limits.max_kernel_ops

    def _dangling(self, node: KernelNode) -> frozenset[int]:
        """Results of kernel ops that no op reads and that are no output."""
        used = {v for op in node.ops for v in op.operands} | set(node.matched)
        return frozenset(range(len(self.program.args), len(node.types))) - used

    def _fits_last(self, node: KernelNode, op: Op) -> bool:
        """The last op the budget allows must give every output still missing, and read
        every result nothing reads yet."""
        if not self._last(node):
            return True
        return sorted(t.shape for t in op.results) == self._unmatched_shapes(
            node
        ) and self._dangling(node) <= set(op.operands)

    def _finished(self, node: KernelNode, finished: FinishedGraph) -> list[Move]:
        """The structure itself, parallelized when a candidate is finished (what it
        computes does not depend on how), and its parallelizations with partial outputs
        (each a tensor of its own)."""
        self.stats.finished_graphs += 1
        moves: list[Move] = []
        op = finished.op
        if self._fits_last(node, op):
            if not self._last(node) and self.storage is not None:
                op = stored_in(op, self.storage)  # a later kernel reads what it writes
            key = self._kernel_key(node, op)
            if key is not None:
                moves.append(AddOp(op, key, finished.dims, finished.terms, op, deferred=True))
        operand_types = [node.types[v] for v in finished.operands]
        for par in parallelizations(op, operand_types, self.limits.target, partial=True):
            if not self._fits_last(node, par.op):
                continue
            key = self._kernel_key(node, par.op)
            if key is None:
                continue
            dims = self._partial_dims(par, finished.dims)
            terms = op_terms(par.op, operand_types, [node.terms[v] for v in finished.operands])
            if not all(self.pruner.keep_term(t) for t in terms):
                self.stats.pruned += 1
                continue
            moves.append(AddOp(par.op, key, dims, terms))
        if not moves:
            self.stats.rejected += 1
        return moves

    def _partial_dims(self, par: Parallelized, logical: tuple[Dims, ...]) -> tuple[Dims, ...]:
        """The dims of partial outputs: those that hold partial results side by side get
        a variable of their own (summed over later, by linear ops only)."""
        body = par.op.body
        assert body is not None
        out: list[Dims] = []
        for k, (dims, holders) in enumerate(zip(logical, par.pattern.partial_dims, strict=True)):
            saver = body.ops[body.outputs[k] - len(body.args)]
            tile = body.type_of(saver.operands[0]).shape
            out.append(
                tuple(
                    self.dim_types.partial_var(tile[d]) if d in holders else x
                    for d, x in enumerate(dims)
                )
            )
        return tuple(out)

    # --- steps ---------------------------------------------------------------------------

    def step(self, node: KernelNode, move: Move) -> KernelNode | None:
        self.stats.explored += 1
        if isinstance(move, StartGraph):
            if (
                node.seconds
                + self._kernel_floor(self._missing_bytes(node, frozenset()))
                + (0.0 if self._last(node) else self._kernel_floor(0))
                > self.bound
            ):
                self.stats.bounded += 1
                return None
            gen = BlockGenerator(
                node.types,
                node.dims,
                node.terms,
                self.dim_types,
                self.vocabulary,
                self.limits.max_block_ops,
                self.pruner.keep_term,
                self.stats.block,
                final_shapes=tuple(self._unmatched_shapes(node)) if self._last(node) else None,
                required=self._dangling(node) if self._last(node) else frozenset(),
                affordable=self._affordable(node),
            )
            return replace(node, block=BlockState(), block_gen=gen)
        if isinstance(move, GrowBlock):
            return replace(node, block=move.state)
        op = move.op
        types = [node.types[v] for v in op.operands]
        values = [node.values[v] for v in op.operands]
        keys = [node.keys[v] for v in op.operands]
        missing = self._missing_bytes(node, frozenset(op.operands))
        rest = 0.0 if not missing and self._completes(node, move) else self._kernel_floor(missing)
        if move.deferred:
            moved = sum(t.nbytes for t in types) + sum(t.nbytes for t in op.results)
            if node.seconds + kernel_lower_bound(moved, self.limits.target) + rest > self.bound:
                self.stats.bounded += 1
                return None
        # Evaluate first: most ops prove useless there, before their cost is worked out.
        if move.same_as is not None:
            results, names = self.evaluator.structure(move.same_as, types, values, keys)
        else:
            results, names = self.evaluator.kernel_op(op, types, values, keys)
        new_sigs = tuple(signature(r) for r in results)
        for r, sig in zip(results, new_sigs, strict=True):
            if not usable(r) or any(
                v.shape == r.shape and same_signature(sig, s) and same(r, v)
                for v, s in zip(node.values, node.sigs, strict=True)
            ):
                self.stats.rejected += 1
                return None
        all_values = node.values + tuple(results)
        all_sigs = node.sigs + new_sigs
        first = len(node.values)
        matched = self._match(all_values, all_sigs, range(first, len(all_values)), node.matched)
        if self._last(node) and any(m < 0 for m in matched):
            self.stats.rejected += 1  # the last op the budget allows, and outputs missing
            return None
        seconds = self._op_seconds(op, types, move.deferred)
        if seconds is None:
            self.stats.rejected += 1
            return None
        if node.seconds + seconds + rest > self.bound:
            self.stats.bounded += 1
            return None
        node2 = KernelNode(
            (*node.ops, op),
            node.types + op.results,
            all_values,
            node.keys + names,
            all_sigs,
            node.dims + move.dims,
            node.terms + move.terms,
            tuple(matched),
            move.key,
            node.deferred | (frozenset({len(node.ops)}) if move.deferred else frozenset[int]()),
            node.seconds + seconds,
            node.deps + (self._deps_of(node, op.operands),) * len(op.results),
        )
        if node2.complete:
            self.stats.candidates += 1
        elif not self._fresh(node2):
            self.stats.transposed += 1
            return None
        return node2

    def _kernel_floor(self, dram_bytes: int) -> float:
        return kernel_lower_bound(dram_bytes, self.limits.target)

    def _completes(self, node: KernelNode, move: AddOp) -> bool:
        """Whether the op may give every output still missing (by shapes)."""
        shapes = [t.shape for t in move.op.results]
        return all(s in shapes for s in self._unmatched_shapes(node))

    def _deps_of(self, node: KernelNode, values: Sequence[int]) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for v in values:
            out |= node.deps[v]
        return out

    def _missing_bytes(self, node: KernelNode, reads: frozenset[int]) -> int:
        """Bytes of the program arguments that the missing outputs depend on and that no
        op has read yet (not even through a value computed from them), if `reads` are
        read too: some op still has to read them whole."""
        needed: set[int] = set()
        for deps, m in zip(self.output_deps, node.matched, strict=True):
            if m < 0:
                needed |= deps
        covered = self._deps_of(node, [v for op in node.ops for v in op.operands])
        covered |= self._deps_of(node, list(reads))
        return sum(self.program.args[a].nbytes for a in needed - covered)

    def _affordable(self, node: KernelNode) -> Callable[[frozenset[int]], bool]:
        """The bound on a graph op being built after `node`: it reads these kernel values
        and the arguments still unread (or a later op does); if last, it writes the missing
        outputs; if not, its partial results need one more kernel."""
        last = self._last(node)
        outputs = (
            sum(
                t.nbytes
                for t, m in zip(self.program.output_types, node.matched, strict=True)
                if m < 0
            )
            if last
            else 0
        )
        base = node.seconds + (0.0 if last else self._kernel_floor(0))
        types = node.types

        def affordable(reads: frozenset[int]) -> bool:
            moved = outputs + sum(types[v].nbytes for v in reads)
            moved += self._missing_bytes(node, reads)
            return base + self._kernel_floor(moved) <= self.bound

        return affordable

    def _op_seconds(self, op: Op, types: list[TensorType], deferred: bool) -> float | None:
        """The op's cost (a structure's at its best parallelization; None if none fits)."""
        target = self.limits.target
        if deferred:
            found = parallelizations(op, types, target, partial=False)
            return found[0].seconds if found else None
        return op_cost(op, types, target).seconds

    def _fresh(self, node: KernelNode) -> bool:
        """Whether no prefix explored before gives the same values (same roles) at no
        more cost: the subtrees below two such prefixes are the same."""
        used = {v for op in node.ops for v in op.operands}
        matched = set(node.matched)
        items: list[tuple[object, ...]] = []
        for v, (value, sig) in enumerate(zip(node.values, node.sigs, strict=True)):
            role = 0 if v in matched else 1 if v in used or v < len(self.program.args) else 2
            items.append((value.shape, role, tuple(float(f"{x:.6g}") for x in sig)))
        key = tuple(sorted(items, key=repr))
        best = self._seen.get(key)
        if best is not None and best <= node.seconds:
            return False
        self._seen[key] = node.seconds
        return True

    # --- candidates ----------------------------------------------------------------------

    def candidate(self, node: KernelNode) -> Graph | None:
        """The finished μGraph of a complete node: structures parallelized, dead ops
        removed, outputs in the program's dtypes (None if a structure fits no
        parallelization on the target)."""
        ops = list(node.ops)
        for j in sorted(node.deferred):
            op = ops[j]
            found = parallelizations(
                op, [node.types[v] for v in op.operands], self.limits.target, partial=False
            )
            if not found:
                self.stats.rejected += 1
                return None
            ops[j] = found[0].op
        graph = Graph(self.program.args, tuple(ops), node.matched)
        return with_output_types(strip_dead(graph), self.program.output_types)


def _output_deps(program: Graph) -> list[frozenset[int]]:
    """The arguments each output of the program depends on."""
    deps: list[frozenset[int]] = [frozenset({i}) for i in range(len(program.args))]
    for op in program.ops:
        d: frozenset[int] = frozenset()
        for v in op.operands:
            d |= deps[v]
        deps.extend([d] * len(op.results))
    return [deps[v] for v in program.outputs]


def strip_dead(graph: Graph) -> Graph:
    n_args = len(graph.args)
    live: set[int] = set(graph.outputs)
    producers = list(graph.result_ids())
    keep: list[bool] = [False] * len(graph.ops)
    for j in range(len(graph.ops) - 1, -1, -1):
        op, results = producers[j]
        if any(r in live for r in results):
            keep[j] = True
            live.update(op.operands)
    renumber: dict[int, int] = {i: i for i in range(n_args)}
    ops: list[Op] = []
    n = n_args
    for j, (op, results) in enumerate(producers):
        if not keep[j]:
            continue
        ops.append(
            Op(op.kind, tuple(renumber[v] for v in op.operands), op.results, op.attrs, op.body)
        )
        for r in results:
            renumber[r] = n
            n += 1
    return Graph(graph.args, tuple(ops), tuple(renumber[v] for v in graph.outputs))


def with_output_types(graph: Graph, types: Sequence[TensorType]) -> Graph:
    """Results that are outputs take the dtype of the program's output."""
    want: dict[int, str] = {}
    for v, t in zip(graph.outputs, types, strict=True):
        want.setdefault(v, t.dtype)
    ops: list[Op] = []
    for op, results in graph.result_ids():
        if not any(r in want for r in results):
            ops.append(op)
            continue
        new_results = tuple(
            TensorType(t.shape, want.get(r, t.dtype))
            for t, r in zip(op.results, results, strict=True)
        )
        body = op.body
        if op.kind in LAUNCHES and body is not None:
            body_ops = list(body.ops)
            for out_value, t in zip(body.outputs, new_results, strict=True):
                j = out_value - len(body.args)
                saver = body_ops[j]
                body_ops[j] = Op(saver.kind, saver.operands, (t,), saver.attrs)
            body = Graph(body.args, tuple(body_ops), body.outputs, body.loop_end)
        ops.append(Op(op.kind, op.operands, new_results, op.attrs, body))
    return Graph(graph.args, tuple(ops), graph.outputs)
