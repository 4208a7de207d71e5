"""Fingerprints: every tensor of the search evaluated on fixed random inputs in float64,
through `mirage.dialects.semantics`. A kernel-level value whose fingerprint equals an
output of the program is taken as that output (the finished candidate is then verified);
one that equals a value already computed is redundant.

Evaluation is memoized per op: a value is named by the op that computes it and the names
of its operands, so the many structures of a search that share a matmul evaluate it once.
The structure of a graph-defined op (whole tensors, one block, one iteration) is evaluated
op by op, each block op as a one-op launch (its operands read whole, its result carried
out of a one-iteration loop by accum_sum, which then is the identity).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

from mirage.dialects.opkinds import ITERATORS
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.superoptimize.launch import one_op_launch

Array = NDArray[np.float64]
RTOL = 1e-7
_DOMAIN = FloatDomain(np.float64)


def sample_inputs(program: Graph, seed: int) -> tuple[list[Array], list[Array]]:
    """Random inputs on which the program's outputs are finite, and those outputs. Signed
    inputs tell more ops apart; a program that takes square roots of its raw inputs needs
    positive ones."""
    for low, high in ((-1.0, 1.0), (0.5, 1.5)):
        rng = np.random.default_rng(seed)
        inputs = [rng.uniform(low, high, size=t.shape) for t in program.args]
        outputs = [np.asarray(o) for o in evaluate(program, inputs, _DOMAIN)]
        if all(np.all(np.isfinite(o)) for o in outputs):
            return inputs, outputs
    raise ValueError("the program gives no finite result on random inputs")


class Evaluator:
    """Memoized evaluation of kernel-level ops and of graph-op structures."""

    def __init__(self, max_bytes: int = 1 << 29) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._memo: OrderedDict[Hashable, tuple[Array, ...]] = OrderedDict()

    def _run(
        self, key: Hashable, op: Op, types: Sequence[TensorType], values: Sequence[Array]
    ) -> tuple[Array, ...]:
        hit = self._memo.get(key)
        if hit is not None:
            self._memo.move_to_end(key)
            return hit
        k = len(values)
        local = Op(op.kind, tuple(range(k)), op.results, op.attrs, op.body)
        graph = Graph(tuple(types), (local,), tuple(range(k, k + len(op.results))))
        out = tuple(np.asarray(r) for r in evaluate(graph, list(values), _DOMAIN))
        self._memo[key] = out
        self.bytes += sum(a.nbytes for a in out)
        while self.bytes > self.max_bytes and self._memo:
            _, old = self._memo.popitem(last=False)
            self.bytes -= sum(a.nbytes for a in old)
        return out

    def kernel_op(
        self,
        op: Op,
        types: Sequence[TensorType],
        values: Sequence[Array],
        keys: Sequence[Hashable],
    ) -> tuple[tuple[Array, ...], tuple[Hashable, ...]]:
        """The results of a kernel-level op and their names."""
        key = ("kernel", op, tuple(keys))
        return self._run(key, op, types, values), tuple((key, j) for j in range(len(op.results)))

    def structure(
        self,
        op: Op,
        types: Sequence[TensorType],
        values: Sequence[Array],
        keys: Sequence[Hashable],
    ) -> tuple[tuple[Array, ...], tuple[Hashable, ...]]:
        """The results of a graph op of one block and one iteration (whole tensors), op
        by op."""
        body = op.body
        assert body is not None and op.ints_attr("grid") == (1, 1, 1)
        assert op.int_attr("forloop_range") == 1
        vals: list[Array] = list(values)
        names: list[Hashable] = list(keys)
        vtypes: list[TensorType] = list(types)
        for j, bop in enumerate(body.ops):
            src = [vals[v] for v in bop.operands]
            src_names = [names[v] for v in bop.operands]
            src_types = [vtypes[v] for v in bop.operands]
            if bop.kind in ITERATORS:
                vals.append(src[0])
                names.append(src_names[0])
            else:
                launch = one_op_launch(bop, src_types, post=j >= body.loop_end)
                name = ("block", bop.kind, bop.attrs, tuple(src_names))
                (result,) = self._run(name, launch, src_types, src)
                vals.append(result)
                names.append(name)
            vtypes.append(TensorType(vals[-1].shape, bop.results[0].dtype))
        return tuple(vals[v] for v in body.outputs), tuple(names[v] for v in body.outputs)


_SAMPLES = 32
_positions: dict[int, NDArray[np.int64]] = {}


def signature(a: Array) -> Array:
    """A few elements at fixed positions: values that differ there differ."""
    flat = a.reshape(-1)
    idx = _positions.get(flat.size)
    if idx is None:
        idx = np.random.default_rng(flat.size).integers(0, flat.size, _SAMPLES)
        _positions[flat.size] = idx
    return flat[idx]


def same_signature(a: Array, b: Array) -> bool:
    with np.errstate(invalid="ignore"):
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-8 * float(np.max(np.abs(b)) or 1.0)))


def same(a: Array, b: Array) -> bool:
    if a.shape != b.shape:
        return False
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    with np.errstate(invalid="ignore"):
        return bool(np.allclose(a, b, rtol=RTOL, atol=RTOL * max(scale, 1e-30)))


def usable(a: Array) -> bool:
    return bool(np.all(np.isfinite(a)))
