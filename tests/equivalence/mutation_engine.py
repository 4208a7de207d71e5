"""Random single mutations of μGraphs and random kernel-level programs: the adversary of
the verifier's tests. A mutation changes one thing (an op kind, an operand, a map, an
accumulator, a constant, an inserted or deleted op); `campaign` checks that every valid
mutant that computes something else in float64 is rejected by the verifier.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

from mirage.dialects import shapes
from mirage.dialects.opkinds import BINARY_KINDS, UNARY_KINDS
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import ACCUMULATOR_KINDS, Graph, Op, TensorType, make_op

Path = tuple[int, ...]
"""Op indices from the kernel graph down: (kernel op, block op, thread op)."""

_UNARY = [k.name for k in UNARY_KINDS]
_BINARY = [k.name for k in BINARY_KINDS]
_SAME_SHAPE_ACCUMULATORS = ("accum_sum", "accum_max")
_LAST_DIM_ACCUMULATORS = ("accum_sum_last", "accum_mean_last", "accum_rms_last")
_SCALARS = (0.5, 2.0, -1.0, 0.25, 3.0, 1.5)


@dataclass(frozen=True)
class Mutant:
    graph: Graph
    description: str


# --- navigating nested graphs -------------------------------------------------------------


def _sites(graph: Graph, path: Path = ()) -> Iterator[tuple[Path, Graph, int]]:
    """(path of the op, the graph holding it, its index) for every op, nested ones too."""
    for i, op in enumerate(graph.ops):
        yield (*path, i), graph, i
        if op.body is not None:
            yield from _sites(op.body, (*path, i))


def _replace_graph(graph: Graph, path: Path, new: Graph) -> Graph:
    """`graph` with the graph that holds the op at `path` replaced by `new`."""
    if len(path) == 1:
        return new
    ops = list(graph.ops)
    outer = ops[path[0]]
    assert outer.body is not None
    ops[path[0]] = replace(outer, body=_replace_graph(outer.body, path[1:], new))
    return replace(graph, ops=tuple(ops))


def _with_op(graph: Graph, index: int, op: Op) -> Graph:
    ops = list(graph.ops)
    ops[index] = op
    return replace(graph, ops=tuple(ops))


def _with_attr(op: Op, name: str, value: object) -> Op:
    return replace(op, attrs=tuple(sorted({**dict(op.attrs), name: value}.items())))  # type: ignore[arg-type]


def _result_ids(graph: Graph) -> list[int]:
    """The first value number of each op's results."""
    ids: list[int] = []
    n = len(graph.args)
    for op in graph.ops:
        ids.append(n)
        n += len(op.results)
    return ids


def _in_scope(graph: Graph, index: int) -> list[int]:
    """Values op `index` may use: earlier ones, respecting the block-graph loop (in-loop
    ops use in-loop values, post-loop ops use accumulators and post-loop values)."""
    starts = _result_ids(graph)
    is_block = graph.loop_end > 0
    allowed: list[int] = []
    if not is_block:
        allowed.extend(range(len(graph.args)))
    for j in range(index):
        other = graph.ops[j]
        if is_block:
            if other.kind == "output":
                continue
            accumulator = other.kind in ACCUMULATOR_KINDS
            if index < graph.loop_end and accumulator:
                continue
            if index >= graph.loop_end and j < graph.loop_end and not accumulator:
                continue
        allowed.extend(range(starts[j], starts[j] + len(other.results)))
    return allowed


def _shift(graph: Graph, start: int, delta: int, skip: int | None = None) -> Graph:
    """Renumber values >= start by delta (in operands, outputs), except in op `skip`."""

    def move(v: int) -> int:
        return v + delta if v >= start else v

    ops = tuple(
        op if i == skip else replace(op, operands=tuple(move(v) for v in op.operands))
        for i, op in enumerate(graph.ops)
    )
    return replace(graph, ops=ops, outputs=tuple(move(v) for v in graph.outputs))


# --- the mutations ----------------------------------------------------------------------

Mutation = Callable[[Graph, int, np.random.Generator], tuple[Graph, str] | None]


def _swap_kind(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    op = graph.ops[i]
    pool = _UNARY if op.kind in _UNARY else _BINARY if op.kind in _BINARY else None
    if op.kind in ("reduce_sum", "reduce_max"):
        pool = ["reduce_sum", "reduce_max"]
    elif op.kind in _SAME_SHAPE_ACCUMULATORS:
        pool = list(_SAME_SHAPE_ACCUMULATORS)
    elif op.kind in _LAST_DIM_ACCUMULATORS:
        pool = list(_LAST_DIM_ACCUMULATORS)
    if pool is None:
        return None
    kind = str(rng.choice([k for k in pool if k != op.kind]))
    return _with_op(graph, i, replace(op, kind=kind)), f"{op.kind} -> {kind}"


def _swap_operands(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    op = graph.ops[i]
    if len(op.operands) != 2 or op.operands[0] == op.operands[1]:
        return None
    if op.kind not in _BINARY and op.kind != "matmul":
        return None
    new = replace(op, operands=op.operands[::-1])
    return _with_op(graph, i, new), f"{op.kind}: operands swapped"


def _replace_operand(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    op = graph.ops[i]
    if not op.operands:
        return None
    k = int(rng.integers(len(op.operands)))
    old = op.operands[k]
    if op.kind == "input":
        choices = [a for a in range(len(graph.args)) if a != old]
    else:
        choices = [v for v in _in_scope(graph, i) if v != old]
    choices = [v for v in choices if graph.type_of(v).shape == graph.type_of(old).shape]
    if not choices:
        return None
    new = int(rng.choice(choices))
    operands = list(op.operands)
    operands[k] = new
    return (
        _with_op(graph, i, replace(op, operands=tuple(operands))),
        f"{op.kind}: operand {k} %{old} -> %{new}",
    )


def _change_attr(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    op = graph.ops[i]
    names = [
        n for n, _ in op.attrs if n in ("dim", "size", "scalar", "imap", "omap", "forloop_dim")
    ]
    if not names:
        return None
    name = str(rng.choice(names))
    old = op.attr(name)
    rank = len(graph.type_of(op.operands[0]).shape) if op.operands else 0
    new: object
    if name == "scalar":
        new = float(rng.choice([s for s in _SCALARS if s != old]))
    elif name in ("dim", "forloop_dim"):
        low = -1 if name == "forloop_dim" else 0
        options = [d for d in range(low, rank) if d != old]
        if not options:
            return None
        new = int(rng.choice(options))
    elif name == "size":
        extent = graph.type_of(op.operands[0]).shape[op.int_attr("dim")]
        options = [s for s in range(1, extent + 1) if extent % s == 0 and s != old]
        if not options:
            return None
        new = int(rng.choice(options))
    else:
        assert isinstance(old, tuple)
        g = int(rng.integers(3))
        options = [d for d in range(-1, rank) if d != old[g]]
        entries = list(op.ints_attr(name))
        entries[g] = int(rng.choice(options))
        new = tuple(entries)
    return _with_op(graph, i, _with_attr(op, name, new)), f"{op.kind}: {name} {old} -> {new}"


def _insert_unary(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    """A new unary op on op i's first result, whose later uses (and outputs) take it."""
    op = graph.ops[i]
    if op.kind in ("input", "output", "graph", "fuse") or op.kind in ACCUMULATOR_KINDS:
        return None
    if len(op.results) != 1 or (graph.loop_end and i == graph.loop_end - 1):
        return None
    value = _result_ids(graph)[i]
    kind = str(rng.choice(_UNARY))
    shifted = _shift(graph, value + 1, 1)
    new_op = make_op(kind, [value], [op.results[0]])
    ops = list(shifted.ops)
    ops.insert(i + 1, new_op)

    def redirect(v: int) -> int:
        return value + 1 if v == value else v

    ops = [
        o if j <= i + 1 else replace(o, operands=tuple(redirect(v) for v in o.operands))
        for j, o in enumerate(ops)
    ]
    loop_end = graph.loop_end + (1 if i < graph.loop_end else 0)
    outputs = tuple(redirect(v) for v in shifted.outputs)
    return (
        Graph(graph.args, tuple(ops), outputs, loop_end),
        f"inserted {kind} after {op.kind}",
    )


def _delete_op(graph: Graph, i: int, rng: np.random.Generator) -> tuple[Graph, str] | None:
    """Remove op i; its uses take an operand of the same type instead."""
    op = graph.ops[i]
    if len(op.results) != 1 or op.kind in ("input", "output", "graph"):
        return None
    if op.kind in ACCUMULATOR_KINDS:
        return None
    same = [v for v in op.operands if graph.type_of(v).shape == op.results[0].shape]
    if not same:
        return None
    value = _result_ids(graph)[i]
    target = same[0]
    ops = [
        replace(o, operands=tuple(target if v == value else v for v in o.operands))
        for o in graph.ops
    ]
    outputs = tuple(target if v == value else v for v in graph.outputs)
    del ops[i]
    loop_end = graph.loop_end - (1 if i < graph.loop_end else 0)
    pruned = Graph(graph.args, tuple(ops), outputs, loop_end)
    return _shift(pruned, value + 1, -1), f"deleted {op.kind}"


def _replace_output(graph: Graph, rng: np.random.Generator) -> tuple[Graph, str] | None:
    j = int(rng.integers(len(graph.outputs)))
    old = graph.outputs[j]
    want = graph.type_of(old).shape
    choices = [v for v in range(graph.num_values) if v != old and graph.type_of(v).shape == want]
    if not choices:
        return None
    outputs = list(graph.outputs)
    outputs[j] = int(rng.choice(choices))
    return replace(graph, outputs=tuple(outputs)), f"output {j} %{old} -> %{outputs[j]}"


MUTATIONS: tuple[Mutation, ...] = (
    _swap_kind,
    _swap_operands,
    _replace_operand,
    _change_attr,
    _insert_unary,
    _delete_op,
)


def mutate(graph: Graph, rng: np.random.Generator, tries: int = 50) -> Mutant | None:
    """One random single mutation of `graph` (not necessarily a valid program)."""
    sites = list(_sites(graph))
    for _ in range(tries):
        if rng.random() < 0.05:
            outer = _replace_output(graph, rng)
            if outer is not None:
                return Mutant(outer[0], outer[1])
            continue
        path, holder, index = sites[int(rng.integers(len(sites)))]
        mutation = MUTATIONS[int(rng.integers(len(MUTATIONS)))]
        done = mutation(holder, index, rng)
        if done is None:
            continue
        new_holder, what = done
        where = ".".join(str(p) for p in path)
        return Mutant(_replace_graph(graph, path, new_holder), f"op {where}: {what}")
    return None


def is_valid(graph: Graph) -> bool:
    """The program converts to IR that verifies (shapes, maps, loop structure)."""
    from mirage.dialects.ugraph.to_ir import func_from_graph

    try:
        func_from_graph("mutant", graph).verify()
    except Exception:
        return False
    return True


# --- random programs --------------------------------------------------------------------


def random_program(rng: np.random.Generator, ops: int = 5) -> Graph:
    """A random kernel-level program over small tensors: elementwise ops (all kinds),
    matmuls, reductions, scalings, rms_norm and concat. Inputs are made as needed."""
    dims = (2, 3, 4, 6, 8)
    args: list[TensorType] = []
    body: list[Op] = []
    values: list[tuple[str, int, tuple[int, ...]]] = []  # ("arg" | "op", index, shape)

    def operand(shape: tuple[int, ...] | None = None) -> int:
        matching = [v for v, (_, _, s) in enumerate(values) if shape is None or s == shape]
        if matching and rng.random() < 0.8:
            return int(rng.choice(matching))
        new_shape = shape or (int(rng.choice(dims)), int(rng.choice(dims)))
        args.append(TensorType(new_shape, "f32"))
        values.append(("arg", len(args) - 1, new_shape))
        return len(values) - 1

    def emit(kind: str, operands: list[int], shape: tuple[int, ...], **attrs: float | int) -> None:
        body.append(make_op(kind, operands, [TensorType(shape, "f32")], None, **attrs))
        values.append(("op", len(body) - 1, shape))

    operand()
    for _ in range(ops):
        choice = rng.random()
        a = int(rng.integers(len(values))) if rng.random() < 0.3 else len(values) - 1
        sa = values[a][2]
        if choice < 0.3:
            emit(str(rng.choice(_UNARY)), [a], sa)
        elif choice < 0.55:
            sb = sa if rng.random() < 0.7 else (sa[0], 1)
            emit(str(rng.choice(_BINARY)), [a, operand(sb)], shapes.broadcast(sa, sb))
        elif choice < 0.7:
            n = int(rng.choice(dims))
            emit("matmul", [a, operand((sa[1], n))], (sa[0], n))
        elif choice < 0.8:
            dim = int(rng.integers(2))
            emit("reduce_sum", [a], shapes.reduce(sa, dim, 1), dim=dim, size=1)
        elif choice < 0.9:
            emit("mul_scalar", [a], sa, scalar=float(rng.choice(_SCALARS)))
        elif choice < 0.95:
            emit("rms_norm", [a], sa)
        else:
            emit("concat", [a, operand(sa)], (2 * sa[0], sa[1]), dim=0)

    def number(v: int) -> int:
        where, index, _ = values[v]
        return index if where == "arg" else len(args) + index

    numbered = tuple(replace(op, operands=tuple(number(v) for v in op.operands)) for op in body)
    return Graph(tuple(args), numbered, (number(len(values) - 1),))


# --- the campaign -----------------------------------------------------------------------

Arrays = list[NDArray[np.float64]]


def float_inputs(graph: Graph, seed: int) -> Arrays:
    """Random inputs away from zero (so divisions and square roots stay tame)."""
    rng = np.random.default_rng(seed)
    return [
        rng.uniform(0.1, 1.0, size=t.shape) * rng.choice([-1.0, 1.0], size=t.shape)
        for t in graph.args
    ]


def differs(want: Sequence[NDArray[np.float64]], got: Sequence[NDArray[np.float64]]) -> bool:
    """True when, somewhere the reference's result `want` is finite, `got` is not finite or
    not within float64 rounding of it. (Where the reference is undefined, e.g. a square
    root of a negative value, any result may stand in for it.)"""
    for w, g in zip(want, got, strict=True):
        w = np.asarray(w, dtype=np.float64)
        g = np.broadcast_to(np.asarray(g, dtype=np.float64), w.shape)
        finite = np.isfinite(w)
        if not finite.any():
            continue
        if not np.all(np.isfinite(g[finite])):
            return True
        scale = max(float(np.max(np.abs(w[finite]))), 1e-300)
        if float(np.max(np.abs(w[finite] - g[finite]))) > 1e-9 * scale:
            return True
    return False


def evaluate_float(graph: Graph, inputs: Arrays) -> Arrays:
    with np.errstate(all="ignore"):
        return evaluate(graph, inputs, FloatDomain(np.float64))


@dataclass
class CampaignReport:
    mutants: int = 0
    """Valid mutants verified."""
    invalid: int = 0
    """Mutations that gave no valid program (skipped)."""
    differing: int = 0
    """Mutants whose float64 results differ from the reference's on random inputs."""
    differing_rejected: int = 0
    same: int = 0
    same_accepted: int = 0
    untestable: int = 0
    """Mutants not judged: the reference met zero denominators in too many random tests."""
    escaped: list[str] = field(default_factory=lambda: list[str]())
    """Differing mutants the verifier accepted (must stay empty)."""

    def merge(self, other: CampaignReport) -> None:
        for f in dataclasses.fields(self):
            if f.name == "escaped":
                self.escaped.extend(other.escaped)
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def campaign(
    reference: Graph,
    seed_graph: Graph,
    count: int,
    rng: np.random.Generator,
    verify: Callable[[Graph], object],
    label: str = "",
) -> CampaignReport:
    """`count` valid single mutants of `seed_graph` checked against `reference`."""
    report = CampaignReport()
    inputs = [float_inputs(reference, s) for s in (1, 2)]
    wants = [evaluate_float(reference, x) for x in inputs]
    attempts = 0
    while report.mutants < count and attempts < 20 * count:
        attempts += 1
        mutant = mutate(seed_graph, rng)
        if mutant is None or not is_valid(mutant.graph):
            report.invalid += 1
            continue
        try:
            gots = [evaluate_float(mutant.graph, x) for x in inputs]
        except (ValueError, IndexError):
            report.invalid += 1
            continue
        try:
            accepted = bool(verify(mutant.graph))
        except ValueError:  # the reference cannot be fingerprinted on more tests
            report.untestable += 1
            continue
        report.mutants += 1
        if any(differs(w, g) for w, g in zip(wants, gots, strict=True)):
            report.differing += 1
            if accepted:
                report.escaped.append(f"{label}: {mutant.description}")
            else:
                report.differing_rejected += 1
        else:
            report.same += 1
            report.same_accepted += int(accepted)
    return report


def run_campaign(
    pairs: Sequence[tuple[str, Graph, Graph]],
    total: int,
    seed: int = 0,
    options: object | None = None,
) -> CampaignReport:
    """About `total` valid mutants spread over (name, reference, seed graph) pairs; one
    verifier per reference, so its fingerprint and cached op results are shared."""
    from mirage.passes.equivalence.verifier import Verifier, VerifierOptions

    rng = np.random.default_rng(seed)
    report = CampaignReport()
    per_pair = -(-total // len(pairs))
    verifiers: dict[int, Verifier] = {}
    for name, reference, graph in pairs:
        verifier = verifiers.get(id(reference))
        if verifier is None:
            assert options is None or isinstance(options, VerifierOptions)
            verifier = verifiers[id(reference)] = Verifier(reference, options)
        report.merge(campaign(reference, graph, per_pair, rng, verifier.verify, name))
    return report


def random_pairs(count: int, seed: int) -> list[tuple[str, Graph, Graph]]:
    """`count` valid random programs, each its own reference (programs that divide by
    zero in every random test, e.g. by relu's stand-in, are skipped)."""
    from mirage.passes.equivalence.verifier import (
        ReferenceFingerprint,
        VerificationError,
        VerifierOptions,
    )

    rng = np.random.default_rng(seed)
    pairs: list[tuple[str, Graph, Graph]] = []
    while len(pairs) < count:
        graph = random_program(rng, int(rng.integers(2, 8)))
        if not is_valid(graph):
            continue
        try:
            options = VerifierOptions(stability=None)
            fingerprint = ReferenceFingerprint(graph, options)
            if fingerprint.facts.unsound_ops:
                fingerprint.test(options.unsound_tests - 1)
        except VerificationError:
            continue
        pairs.append((f"random program {len(pairs)}", graph, graph))
    return pairs
