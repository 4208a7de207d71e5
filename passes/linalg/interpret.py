"""linalg-on-tensors -> tensor terms: what each op of a function computes.

A structured op (linalg.generic or a named op) is read through its indexing maps: each
input is laid out in the iteration space (transposed, with extent 1 where its map omits a
loop, which is a broadcast), the body is interpreted symbolically over those tensors, and
each yielded value becomes the op's result: directly when every loop is parallel, reduced
over the reduction loops otherwise (the combiner is found by what the body computes).

Only live ops are read, so an unused result (the argmax half of a max reduction) never
has to be expressible. Large constants become extra arguments of the function, numbered
after its own arguments in the order their `arith.constant` ops appear.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, func, tensor
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import ConvOperation, NamedOperation, PoolingOperation
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from mirage.dialects import shapes
from mirage.dialects.types import tensor_or_none
from mirage.passes.linalg.conversion_errors import ConversionError
from mirage.passes.linalg.scalar_match import find_combiner
from mirage.passes.linalg.term_graph import Shape, Term, TermGraph

_DTYPES = {
    "f16": "f16",
    "bf16": "bf16",
    "f32": "f32",
    "f64": "f64",
    "i1": "i1",
}

_BINARY: dict[type[Operation], str] = {
    arith.AddfOp: "add",
    arith.SubfOp: "sub",
    arith.MulfOp: "mul",
    arith.DivfOp: "div",
    arith.MaximumfOp: "max",
    arith.MaxnumfOp: "max",
    arith.MinimumfOp: "min",
    arith.MinnumfOp: "min",
    xmath.PowFOp: "pow",
}
_UNARY: dict[type[Operation], str] = {
    arith.NegfOp: "neg",
    xmath.ExpOp: "exp",
    xmath.LogOp: "log",
    xmath.SqrtOp: "sqrt",
    xmath.RsqrtOp: "rsqrt",
    xmath.AbsFOp: "abs",
    xmath.ErfOp: "erf",
    xmath.TanhOp: "tanh",
    arith.ExtFOp: "cast",
    arith.TruncFOp: "cast",
}
_CMPF = {
    1: "eq", 2: "gt", 3: "ge", 4: "lt", 5: "le", 6: "ne",
    8: "eq", 9: "gt", 10: "ge", 11: "lt", 12: "le", 13: "ne",
}  # fmt: skip
"""arith.cmpf predicates by number: ordered and unordered forms agree away from NaN."""

_IDENTITY = {"sum": 0.0, "max": -math.inf, "min": math.inf}
_COMBINE = {"sum": "add", "max": "max", "min": "min"}

EMPTY = -1
"""The term id of a `tensor.empty` value: it may only be overwritten."""


def dtype_of(ty: Attribute) -> str | None:
    return _DTYPES.get(str(ty))


@dataclass
class LiftedConstant:
    """A tensor constant that became function argument `index`."""

    op: arith.ConstantOp
    index: int


@dataclass
class Imported:
    """A function read as terms."""

    graph: TermGraph
    args: list[int]
    outputs: list[int]
    constants: list[LiftedConstant] = field(default_factory=list[LiftedConstant])


def _static_shape(
    ty: Attribute, op: Operation, what: str, kernel_types: bool = False
) -> tuple[Shape, str]:
    tensor_ty = tensor_or_none(ty)
    if tensor_ty is None:
        raise ConversionError(op, f"{what} has type {ty}; only ranked tensors are supported")
    shape = tuple(int(d) for d in tensor_ty.get_shape())
    if any(d < 0 for d in shape):
        raise ConversionError(
            op, f"{what} has a dynamic shape ({ty}); only static shapes are supported"
        )
    dtype = dtype_of(tensor_ty.element_type)
    if dtype is None or (kernel_types and dtype in ("i1", "f64")):
        raise ConversionError(
            op,
            f"{what} has element type {tensor_ty.element_type}; only f16, bf16, f32 are supported",
        )
    return shape, dtype


def _static_window(
    op: Operation,
    tensor_value: SSAValue,
    offsets: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
    strides: Sequence[SSAValue],
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The static offsets and sizes of a tensor.extract_slice or tensor.insert_slice of unit
    strides, each checked against the tensor it windows."""
    assert isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp)
    if offsets or sizes or strides:
        raise ConversionError(
            op, "has dynamic offsets, sizes or strides; only static ones are supported"
        )
    steps = [int(s) for s in op.static_strides.get_values()]
    if any(s != 1 for s in steps):
        raise ConversionError(op, f"has strides {steps}; only unit strides are supported")
    shape, _ = _static_shape(tensor_value.type, op, "sliced tensor")
    window_offsets = tuple(int(o) for o in op.static_offsets.get_values())
    window_sizes = tuple(int(n) for n in op.static_sizes.get_values())
    try:
        shapes.slice_(shape, window_offsets, window_sizes)
    except shapes.ShapeError as e:
        raise ConversionError(op, str(e)) from None
    return window_offsets, window_sizes


def _live_ops(block: Block) -> set[Operation]:
    """Ops whose results reach the terminator (through nested bodies too)."""
    live: set[Operation] = set()
    term = block.last_op
    assert term is not None
    stack: list[Operation] = [term]
    while stack:
        op = stack.pop()
        if op in live:
            continue
        live.add(op)
        for nested in op.walk():
            for v in nested.operands:
                owner = v.owner
                if isinstance(owner, Operation) and owner.parent_block() is block:
                    stack.append(owner)
    return live


class Interpreter:
    """Reads one `func.func` of linalg-on-tensors into a `TermGraph`."""

    def __init__(self, function: func.FuncOp) -> None:
        self.func = function
        self.graph = TermGraph()
        self.values: dict[SSAValue, int] = {}
        self.scalars: dict[SSAValue, float] = {}
        self.constants: list[LiftedConstant] = []
        self.deferred: dict[SSAValue, ConversionError] = {}
        self.partials: dict[SSAValue, tuple[int, list[tuple[int, int, int]]]] = {}
        """Tensors built by tensor.insert_slice that still hold undefined parts: the dim
        they are cut along and their parts (start, stop, term or EMPTY)."""

    # --- the function -----------------------------------------------------------------

    def run(self) -> Imported:
        fn = self.func
        if not fn.body.blocks:
            raise ConversionError(fn, "has no body")
        if len(fn.body.blocks) > 1:
            raise ConversionError(fn, "has more than one block (control flow is not supported)")
        block = fn.body.block
        g = self.graph
        args: list[int] = []
        for i, a in enumerate(block.args):
            shape, dtype = _static_shape(a.type, fn, f"argument {i}", kernel_types=True)
            t = g.arg(i, shape, dtype)
            self.values[a] = t
            args.append(t)
        for i, ty in enumerate(fn.function_type.outputs.data):
            _static_shape(ty, fn, f"result {i}", kernel_types=True)
        live = _live_ops(block)
        outputs: list[int] = []
        for op in block.ops:
            if op not in live:
                continue
            g.origin = op
            if isinstance(op, func.ReturnOp):
                outputs = [self.value(v, op) for v in op.arguments]
                break
            self.op(op)
        g.origin = None
        return Imported(g, args, outputs, self.constants)

    def value(self, v: SSAValue, user: Operation) -> int:
        if v in self.deferred:
            raise self.deferred[v]
        t = self.values.get(v)
        if t is None:
            raise ConversionError(user, "uses a value that is not a tensor of this function")
        if t == EMPTY:
            raise ConversionError(user, "reads a tensor.empty, whose contents are undefined")
        return t

    def op(self, op: Operation) -> None:
        """Reads one op; an op that cannot be read fails only if a result is used."""
        try:
            self._op(op)
        except ConversionError as e:
            if not op.results:
                raise
            for r in op.results:
                self.deferred[r] = e

    def _op(self, op: Operation) -> None:
        for i, r in enumerate(op.results):
            tensor_ty = tensor_or_none(r.type)
            if tensor_ty is not None and any(d < 0 for d in tensor_ty.get_shape()):
                raise ConversionError(
                    op,
                    f"result {i} has a dynamic shape ({r.type}); only static shapes are supported",
                )
        if isinstance(op, arith.ConstantOp):
            self.constant(op)
        elif isinstance(op, tensor.EmptyOp):
            self.values[op.tensor] = EMPTY
        elif isinstance(op, linalg_ops.FillOp):
            self.fill(op)
        elif isinstance(op, linalg_ops.TransposeOp):
            perm = [int(p) for p in op.permutation.get_values()]
            src = self.value(op.inputs[0], op)
            self.values[op.res[0]] = self.graph.transpose(src, perm)
        elif isinstance(op, linalg_ops.BroadcastOp):
            self.broadcast(op)
        elif isinstance(op, linalg_ops.ReduceOp):
            self.reduce(op)
        elif isinstance(op, ConvOperation | PoolingOperation):
            raise ConversionError(
                op, "is a convolution or pooling; the kernel dialect cannot express it"
            )
        elif isinstance(op, linalg_ops.GenericOp | NamedOperation):
            maps = [m.data for m in op.get_indexing_maps().data]
            iters = [str(it.data) for it in op.get_iterator_types().data]
            results = self.structured(
                op, list(op.inputs), list(op.outputs), maps, iters, op.body.block
            )
            for r, t in zip(op.res, results, strict=True):
                if t is not None:
                    self.values[r] = t
        elif isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            shape, _ = _static_shape(op.result.type, op, "result")
            self.values[op.result] = self.graph.reshape(self.value(op.src, op), shape)
        elif isinstance(op, tensor.CastOp):
            self.values[op.dest] = self.value(op.source, op)
        elif isinstance(op, tensor.ConcatOp):
            dim = op.dim.value.data
            ins = [self.value(v, op) for v in op.inputs]
            self.values[op.result] = self.graph.concat(ins, dim)
        elif isinstance(op, tensor.ExtractSliceOp):
            self.extract_slice(op)
        elif isinstance(op, tensor.InsertSliceOp):
            self.insert_slice(op)
        elif op.dialect_name() in ("scf", "cf") or isinstance(op, func.CallOp):
            raise ConversionError(op, "is control flow; only straight-line programs are supported")
        else:
            raise ConversionError(op, "is not supported by convert-linalg-to-kernel")

    # --- slices -----------------------------------------------------------------------

    def extract_slice(self, op: tensor.ExtractSliceOp) -> None:
        offsets, sizes = _static_window(op, op.source, op.offsets, op.sizes, op.strides)
        shape, _ = _static_shape(op.result.type, op, "result")
        window = self.graph.slice(self.value(op.source, op), offsets, sizes)
        # a rank-reducing slice (x[..., 0]) drops unit dims: a reshape
        self.values[op.result] = self.graph.reshape(window, shape)

    def insert_slice(self, op: tensor.InsertSliceOp) -> None:
        """dest with a window replaced by source: a concatenation along the one dim that
        the window does not cover whole, of dest's parts before and after it and source.
        Parts of a tensor.empty stay undefined until every element is written."""
        offsets, sizes = _static_window(op, op.dest, op.offsets, op.sizes, op.strides)
        shape, _ = _static_shape(op.dest.type, op, "destination")
        cut = [d for d in range(len(shape)) if sizes[d] != shape[d]]
        if len(cut) > 1:
            raise ConversionError(
                op,
                f"inserts a window {list(sizes)} of {list(shape)} cut in dims {cut}; only a "
                "window cut in one dim (a concatenation) is supported",
            )
        source = self.graph.reshape(self.value(op.source, op), sizes)
        if not cut:
            self.values[op.result] = source
            self.partials.pop(op.result, None)
            return
        dim = cut[0]
        parts = self._parts(op.dest, dim, shape[dim], op)
        lo, hi = offsets[dim], offsets[dim] + sizes[dim]
        out: list[tuple[int, int, int]] = []
        for start, stop, t in parts:
            for a, b in ((start, min(stop, lo)), (max(start, hi), stop)):
                if a < b:
                    out.append((a, b, self._window(t, dim, a - start, b - a, shape)))
        out.append((lo, hi, source))
        out.sort()
        if any(t == EMPTY for _, _, t in out):
            self.partials[op.result] = (dim, out)
            self.values[op.result] = EMPTY
            return
        self.partials.pop(op.result, None)
        terms = [t for _, _, t in out]
        self.values[op.result] = terms[0] if len(terms) == 1 else self.graph.concat(terms, dim)

    def _parts(
        self, dest: SSAValue, dim: int, extent: int, user: Operation
    ) -> list[tuple[int, int, int]]:
        """dest as consecutive parts along `dim`: (start, stop, term or EMPTY)."""
        partial = self.partials.get(dest)
        if partial is not None:
            pdim, parts = partial
            if pdim != dim:
                raise ConversionError(
                    user,
                    f"inserts along dim {dim} into a tensor partly written along dim {pdim}; "
                    "only a concatenation along one dim is supported",
                )
            return parts
        t = self.values.get(dest)
        if t is None:
            raise ConversionError(user, "uses a value that is not a tensor of this function")
        return [(0, extent, t)]

    def _window(self, t: int, dim: int, offset: int, size: int, shape: Shape) -> int:
        if t == EMPTY:
            return EMPTY
        offsets = [offset if d == dim else 0 for d in range(len(shape))]
        sizes = [size if d == dim else n for d, n in enumerate(shape)]
        term = self.graph[t]
        if term.shape[dim] == size:
            return t
        return self.graph.slice(t, offsets, sizes)

    # --- leaves -----------------------------------------------------------------------

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        if isinstance(value, FloatAttr | IntegerAttr):
            self.scalars[op.result] = float(value.value.data)
            return
        shape, dtype = _static_shape(op.result.type, op, "result")
        if isinstance(value, DenseIntOrFPElementsAttr):
            data = value.get_values()
            first = data[0]
            if isinstance(first, tuple):
                raise ConversionError(op, "has a complex constant; only real ones are supported")
            if len(data) == 1 or all(x == first for x in data):
                c = self.graph.const(float(first), len(shape), dtype)
                self.values[op.result] = self.graph.broadcast(c, shape)
                return
        index = len(self.func.body.block.args) + len(self.constants)
        self.constants.append(LiftedConstant(op, index))
        self.values[op.result] = self.graph.arg(index, shape, dtype)

    def fill(self, op: linalg_ops.FillOp) -> None:
        scalar = op.inputs[0]
        if scalar not in self.scalars:
            raise ConversionError(op, "fills with a value that is not a constant")
        shape, dtype = _static_shape(op.res[0].type, op, "result")
        c = self.graph.const(self.scalars[scalar], len(shape), dtype)
        self.values[op.res[0]] = self.graph.broadcast(c, shape)

    def broadcast(self, op: linalg_ops.BroadcastOp) -> None:
        shape, _ = _static_shape(op.init.type, op, "init")
        added = {int(d) for d in op.dimensions.get_values()}
        src = self.value(op.input, op)
        kept = iter(self.graph[src].shape)
        spread = tuple(1 if d in added else next(kept) for d in range(len(shape)))
        self.values[op.result[0]] = self.graph.broadcast(self.graph.reshape(src, spread), shape)

    def reduce(self, op: linalg_ops.ReduceOp) -> None:
        in_shape, _ = _static_shape(op.input.type, op, "input")
        rank = len(in_shape)
        dims = {int(d) for d in op.dimensions.get_values()}
        kept = [d for d in range(rank) if d not in dims]
        identity = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank)))
        out_map = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))
        iters = ["reduction" if d in dims else "parallel" for d in range(rank)]
        (result,) = self.structured(
            op, [op.input], [op.init], [identity, out_map], iters, op.region.block
        )
        if result is not None:
            self.values[op.result[0]] = result

    # --- structured ops ---------------------------------------------------------------

    def structured(
        self,
        op: Operation,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        maps: Sequence[AffineMap],
        iters: Sequence[str],
        body: Block,
    ) -> list[int | None]:
        g = self.graph
        n = len(iters)
        if any(it not in ("parallel", "reduction") for it in iters):
            raise ConversionError(op, f"has iterator types {list(iters)}; not supported")
        operands = [*inputs, *outputs]
        extents = self._extents(op, operands, maps, n)
        env: dict[SSAValue, int] = {}
        for i, (v, m, arg) in enumerate(zip(inputs, maps, body.args, strict=False)):
            if isinstance(v.type, TensorType):
                env[arg] = self._align(op, self.value(v, op), m, extents)
            elif v in self.scalars:
                env[arg] = g.const(self.scalars[v], n, self._scalar_dtype(op, arg.type))
            else:
                raise ConversionError(op, f"input {i} is a scalar that is not a constant")
        placeholders: list[int] = []
        for k, arg in enumerate(body.args[len(inputs) :]):
            dtype = dtype_of(arg.type) or str(arg.type)
            p = g.intern(Term("out", (), (1,) * n, dtype, (id(op), k)))
            env[arg] = p
            placeholders.append(p)
        yielded = body.last_op
        assert yielded is not None
        reductions = [d for d in range(n) if iters[d] == "reduction"]
        results: list[int | None] = []
        for k, res in enumerate(op.results):
            if not res.uses:
                results.append(None)
                continue
            out_map = maps[len(inputs) + k]
            out_shape, out_dtype = _static_shape(res.type, op, f"result {k}")
            y = self._body_value(op, yielded.operands[k], env, n)
            init = self.values.get(outputs[k], EMPTY)
            if reductions:
                kind, x = self._combiner(op, y, placeholders[k])
                if self._reads(x, set(placeholders)):
                    raise ConversionError(op, "reads an output inside a reduction")
                r = g.reduce(kind, x, reductions, extents, out_dtype)
                if init == EMPTY:
                    raise ConversionError(
                        op, "reduces into a tensor.empty, whose contents are undefined"
                    )
                start = self._align(op, init, out_map, extents)
                if g.const_value(g.strip(start)) != _IDENTITY[kind]:
                    r = g.ew(_COMBINE[kind], [start, r], out_dtype)
            else:
                r = y
                if self._reads(y, set(placeholders)):
                    bound = dict(env)
                    for j, arg in enumerate(body.args[len(inputs) :]):
                        o = self.values.get(outputs[j], EMPTY)
                        if o == EMPTY:
                            continue
                        bound[arg] = self._align(op, o, maps[len(inputs) + j], extents)
                    r = self._body_value(op, yielded.operands[k], bound, n)
                    if self._reads(r, set(placeholders)):
                        raise ConversionError(
                            op, "reads a tensor.empty output, whose contents are undefined"
                        )
            r = g.cast(r, out_dtype)
            results.append(self._scatter(op, r, out_map, extents, out_shape))
        return results

    def _scalar_dtype(self, op: Operation, ty: Attribute) -> str:
        dtype = dtype_of(ty)
        if dtype is None:
            raise ConversionError(
                op, f"has a body argument of type {ty}; only floats are supported"
            )
        return dtype

    def _extents(
        self, op: Operation, operands: Sequence[SSAValue], maps: Sequence[AffineMap], n: int
    ) -> Shape:
        extents: list[int | None] = [None] * n
        for v, m in zip(operands, maps, strict=True):
            tensor_ty = tensor_or_none(v.type)
            if tensor_ty is None:
                continue
            shape = tuple(int(d) for d in tensor_ty.get_shape())
            if m.num_symbols:
                raise ConversionError(op, f"has an indexing map with symbols ({m})")
            for j, e in enumerate(m.results):
                if isinstance(e, AffineDimExpr):
                    if extents[e.position] not in (None, shape[j]):
                        raise ConversionError(
                            op, f"has operands that disagree on loop d{e.position}"
                        )
                    extents[e.position] = shape[j]
                elif isinstance(e, AffineConstantExpr) and e.value == 0 and shape[j] == 1:
                    continue
                else:
                    raise ConversionError(
                        op,
                        f"has indexing map {AffineMapAttr(m)} that is not a projected "
                        "permutation (a sliding window, as in a convolution); not supported",
                    )
        if any(e is None for e in extents):
            raise ConversionError(op, "has a loop that no operand spans")
        return tuple(e for e in extents if e is not None)

    def _align(self, op: Operation, t: int, m: AffineMap, extents: Shape) -> int:
        """A tensor read through map `m`, laid out in the iteration space."""
        g = self.graph
        u = g.strip(t)
        natural = g[u].shape
        loops: list[int] = []
        dims: list[int] = []
        for j, e in enumerate(m.results):
            if isinstance(e, AffineDimExpr):
                loops.append(e.position)
                dims.append(natural[j])
        if len(set(loops)) != len(loops):
            raise ConversionError(
                op, f"reads a diagonal through map {AffineMapAttr(m)}; not supported"
            )
        u = g.reshape(u, tuple(dims))
        order = sorted(range(len(loops)), key=lambda i: loops[i])
        u = g.transpose(u, order)
        present = {loops[i]: dims[i] for i in range(len(loops))}
        return g.reshape(u, tuple(present.get(d, 1) for d in range(len(extents))))

    def _scatter(
        self, op: Operation, r: int, m: AffineMap, extents: Shape, out_shape: Shape
    ) -> int:
        """A value of the iteration space written through output map `m`."""
        g = self.graph
        r = g.strip(r)
        shape = g[r].shape
        loops = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        if len(set(loops)) != len(loops):
            raise ConversionError(op, "writes a diagonal; not supported")
        for d in range(len(extents)):
            if d not in loops and shape[d] != 1:
                raise ConversionError(op, f"has a parallel loop d{d} that its output omits")
        r = g.reshape(r, tuple(shape[d] for d in sorted(loops)))
        ranks = sorted(loops)
        r = g.transpose(r, [ranks.index(loop) for loop in loops])
        natural = iter(g[r].shape)
        full = tuple(next(natural) if isinstance(e, AffineDimExpr) else 1 for e in m.results)
        return g.broadcast(g.reshape(r, full), out_shape)

    def _combiner(self, op: Operation, y: int, placeholder: int) -> tuple[str, int]:
        found = find_combiner(self.graph, y, placeholder)
        if found is None:
            raise ConversionError(
                op, "has a reduction body that is not a sum, max or min of its input"
            )
        return found

    def _reads(self, t: int, targets: set[int]) -> bool:
        stack, seen = [t], set[int]()
        while stack:
            x = stack.pop()
            if x in targets:
                return True
            if x not in seen:
                seen.add(x)
                stack.extend(self.graph[x].operands)
        return False

    # --- bodies -----------------------------------------------------------------------

    def _body_value(self, op: Operation, v: SSAValue, env: dict[SSAValue, int], n: int) -> int:
        memo: dict[SSAValue, int] = dict(env)
        body = op.regions[0].block

        def visit(v: SSAValue) -> int:
            found = memo.get(v)
            if found is not None:
                return found
            if isinstance(v, BlockArgument) or v.owner.parent_block() is not body:
                if v in self.scalars:
                    ty = v.type
                    return self.graph.const(self.scalars[v], n, dtype_of(ty) or "f64")
                raise ConversionError(
                    op, "uses a value from outside its body that is not a constant"
                )
            inner = v.owner
            assert isinstance(inner, Operation)
            self.graph.origin = inner
            t = self._scalar_op(inner, [visit(o) for o in inner.operands], n)
            self.graph.origin = op
            memo[v] = t
            return t

        return visit(v)

    def _scalar_op(self, op: Operation, args: list[int], n: int) -> int:
        g = self.graph
        ty = op.results[0].type if op.results else None
        dtype = dtype_of(ty) if ty is not None else None
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, FloatAttr | IntegerAttr):
            return g.const(float(op.value.value.data), n, dtype or "f64")
        if dtype is None:
            raise ConversionError(
                op, "computes a non-float value; only float arithmetic can be expressed"
            )
        prim = _BINARY.get(type(op)) or _UNARY.get(type(op))
        if prim is not None:
            return g.ew(prim, args, dtype)
        if isinstance(op, xmath.FPowIOp):
            exponent = g.const_value(args[1])
            if exponent is None:
                raise ConversionError(op, "has an exponent that is not a constant")
            return g.ew("pow", [args[0], g.const(exponent, n, dtype)], dtype)
        if isinstance(op, arith.CmpfOp):
            pred = _CMPF.get(op.predicate.value.data)
            if pred is None:
                raise ConversionError(op, "has a predicate that cannot be expressed")
            return g.ew(f"cmp_{pred}", args, "i1")
        if isinstance(op, arith.SelectOp):
            return g.ew("select", args, dtype)
        if op.dialect_name() in ("scf", "cf"):
            raise ConversionError(op, "is control flow; only straight-line bodies are supported")
        raise ConversionError(op, "cannot be expressed in the kernel dialect")


def interpret_function(function: func.FuncOp) -> Imported:
    return Interpreter(function).run()
