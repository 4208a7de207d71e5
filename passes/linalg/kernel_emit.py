"""Tensor terms -> a `func.func` of kernel-dialect ops.

Each term is emitted once per element type it is needed in. An elementwise term is covered
by the largest computation `scalar_match` recognizes under it (one kernel op for `x *
sigmoid(x)`); what no kind matches is emitted primitive by primitive. Casts cost nothing
where that is exact: a widening cast hands the narrower value on (kernel ops take operands
of any supported type), a narrowing cast of a value used once becomes the result type of
the op computing it; elsewhere a cast is `kernel.mul_scalar` by 1 into the new type. Ops
that come out the same (equal kind, operands, properties and types) are merged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.transforms.common_subexpression_elimination import cse

from mirage.dialects import kernel
from mirage.dialects.opkinds import BINARY, COMMUTATIVE_KINDS, SCALAR_FORMS, UNARY
from mirage.dialects.types import as_tensor
from mirage.dialects.ugraph.convert import element_type
from mirage.passes.linalg.conversion_errors import ConversionError
from mirage.passes.linalg.interpret import Imported
from mirage.passes.linalg.scalar_match import Match, NormMatch, match_norm, match_region
from mirage.passes.linalg.term_graph import Shape, TermGraph, wider_or_equal

KERNEL_DTYPES = ("f16", "bf16", "f32")
_COMPUTED = ("ew", "matmul", "reduce", "concat")


def _dtype(v: SSAValue) -> str:
    elem = as_tensor(v.type).element_type
    return {"f16": "f16", "bf16": "bf16", "f32": "f32"}.get(str(elem), "f64")


def _shape(v: SSAValue) -> Shape:
    ty = v.type
    assert isinstance(ty, TensorType)
    return tuple(int(d) for d in ty.get_shape())


class Emitter:
    """Builds the kernel function of one imported function."""

    def __init__(
        self,
        imported: Imported,
        name: str,
        arg_types: Sequence[Attribute],
        result_types: Sequence[Attribute],
        source: Operation,
    ) -> None:
        self.imported = imported
        self.g: TermGraph = imported.graph
        self.source = source
        self.func = func.FuncOp(name, (list(arg_types), list(result_types)))
        self.block = self.func.body.block
        for new, old in zip(self.block.args, source.regions[0].block.args, strict=False):
            new.name_hint = old.name_hint
        for c in imported.constants:
            self.block.args[c.index].name_hint = c.op.result.name_hint
        self.memo: dict[tuple[int, str | None], SSAValue] = {}
        self.consts: dict[tuple[float, Shape, str], SSAValue] = {}
        self.uses = self.g.use_counts(imported.outputs)
        self.result_types = list(result_types)

    def build(self) -> func.FuncOp:
        results: list[SSAValue] = []
        for t, ty in zip(self.imported.outputs, self.result_types, strict=True):
            v = self.emit(t)
            results.append(self.retype(v, str(as_tensor(ty).element_type), t))
        self.block.add_op(func.ReturnOp(*results))
        self._erase_dead()
        # Terms that differ only in their type (torch's f64 statistics beside the same ones
        # in f32, both f32 here) become the same kernel op: merged, one launch each.
        cse(self.func)
        return self.func

    # --- helpers ----------------------------------------------------------------------

    def _origin(self, t: int) -> Operation:
        found = self.g.origins.get(t)
        return found if isinstance(found, Operation) else self.source

    def _type(self, shape: Shape, dtype: str, t: int) -> TensorType:
        if dtype == "f64":
            # Intermediates that the source computes in f64 (torch's layer_norm statistics)
            # are computed in f32, the widest type of the kernel dialect.
            dtype = "f32"
        if dtype not in KERNEL_DTYPES:
            raise ConversionError(
                self._origin(t),
                f"computes a tensor of {dtype}; the kernel dialect supports f16, bf16 and f32",
            )
        return TensorType(element_type(dtype), shape)

    def _add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def constant(self, value: float, shape: Shape, dtype: str, t: int) -> SSAValue:
        dtype = dtype if dtype in KERNEL_DTYPES else "f32"
        key = (value, shape, dtype)
        if key not in self.consts:
            self.consts[key] = self._add(kernel.ConstantOp(value, self._type(shape, dtype, t)))
        return self.consts[key]

    def retype(self, v: SSAValue, dtype: str, t: int) -> SSAValue:
        """`v` where a tensor of `dtype` is wanted: as is when that is exact, else cast."""
        if _dtype(v) == dtype:
            return v
        return self._add(kernel.MulScalarOp(v, 1.0, self._type(_shape(v), dtype, t)))

    # --- terms ------------------------------------------------------------------------

    def emit(self, t: int, dtype: str | None = None) -> SSAValue:
        """The kernel value of term t, of the term's type or of `dtype` if given."""
        key = (t, dtype)
        found = self.memo.get(key)
        if found is None:
            found = self._emit(t, dtype)
            self.memo[key] = found
        return found

    def _emit(self, t: int, dtype: str | None) -> SSAValue:
        term = self.g[t]
        want = dtype or term.dtype
        kind = term.kind
        if kind == "arg":
            return self.block.args[term.attr]  # type: ignore[index]
        if kind == "const":
            return self.constant(term.attr, term.shape, want, t)  # type: ignore[arg-type]
        if kind == "broadcast":
            inner = self.g[term.operands[0]]
            if inner.kind == "const":
                return self.constant(inner.attr, term.shape, want, t)  # type: ignore[arg-type]
            v = self.emit(term.operands[0])
            ones = self.constant(1.0, term.shape, _dtype(v), t)
            return self._add(
                kernel.ELEMENTWISE_OPS["mul"].create(
                    operands=[v, ones], result_types=[self._type(term.shape, want, t)]
                )
            )
        if kind == "reshape":
            v = self.emit(term.operands[0])
            return self.reshape(v, term.shape, t)
        if kind == "transpose":
            v = self.emit(term.operands[0])
            return self.transpose(v, term.attr, t)  # type: ignore[arg-type]
        if kind == "matmul":
            a, b = (self.emit(o) for o in term.operands)
            return self._add(kernel.MatmulOp(a, b, self._type(term.shape, want, t)))
        if kind == "reduce":
            red, dims = cast("tuple[str, tuple[int, ...]]", term.attr)
            v = self.emit(term.operands[0])
            cls = kernel.ReduceSumOp if red == "sum" else kernel.ReduceMaxOp
            shape = list(_shape(v))
            for d in dims:
                shape[d] = 1
                v = self._add(cls(v, d, 1, self._type(tuple(shape), want, t)))
            return v
        if kind == "slice":
            v = self.emit(term.operands[0])
            return self._add(
                kernel.SliceOp(v, term.attr, result_type=self._type(term.shape, _dtype(v), t))  # type: ignore[arg-type]
            )
        if kind == "concat":
            vs = [self.emit(o) for o in term.operands]
            return self._add(kernel.ConcatOp(vs, term.attr, self._type(term.shape, want, t)))  # type: ignore[arg-type]
        if kind == "ew":
            return self._emit_ew(t, want)
        raise ConversionError(self._origin(t), f"has no kernel form (term kind {kind})")

    def reshape(self, v: SSAValue, shape: Shape, t: int) -> SSAValue:
        owner = v.owner
        if isinstance(owner, kernel.ReshapeOp):
            v = owner.input
        if _shape(v) == shape:
            return v
        return self._add(kernel.ReshapeOp(v, self._type(shape, _dtype(v), t)))

    def transpose(self, v: SSAValue, perm: Sequence[int], t: int) -> SSAValue:
        owner = v.owner
        if isinstance(owner, kernel.TransposeOp):
            inner = [int(p) for p in owner.permutation.get_values()]
            perm = [inner[p] for p in perm]
            v = owner.input
        if list(perm) == list(range(len(perm))):
            return v
        shape = _shape(v)
        new = tuple(shape[p] for p in perm)
        moved = [p for p in perm if shape[p] != 1]
        if moved == sorted(moved):
            return self.reshape(v, new, t)
        return self._add(kernel.TransposeOp(v, perm, self._type(new, _dtype(v), t)))

    # --- elementwise ------------------------------------------------------------------

    def _operand(self, o: int | None, c: float | None, rank: int, dtype: str, t: int) -> SSAValue:
        if o is None:
            assert c is not None
            return self.constant(c, (1,) * rank, dtype, t)
        return self.emit(o)

    def _emit_ew(self, t: int, want: str) -> SSAValue:
        term = self.g[t]
        if term.attr == "cast" and wider_or_equal(term.dtype, self.g[term.operands[0]].dtype):
            # the narrower value itself: its op keeps the type it is stored in (an f16
            # product read by a matmul as f32 stays f16, and the matmul on tensor cores)
            return self._narrow(term.operands[0], want, t)
        norm = match_norm(self.g, t)
        if norm is not None:
            return self._emit_norm(t, norm, want)
        m = match_region(self.g, t)
        if m is not None:
            return self._emit_match(t, m, want)
        return self._emit_prim(t, want)

    def _emit_norm(self, t: int, m: NormMatch, want: str) -> SSAValue:
        """kernel.rms_norm (of x - mean(x) for a layer norm); a bias without a gain is an
        add after it."""
        term = self.g[t]
        x = self.emit(m.x)
        if m.centered:
            # The statistics in f32, whatever x is (as torch computes them).
            shape = _shape(x)
            rows = self._type((*shape[:-1], 1), "f32", t)
            total = self._add(kernel.ReduceSumOp(x, len(shape) - 1, 1, rows))
            mean = self._add(kernel.MulScalarOp(total, 1.0 / shape[-1], rows))
            x = self._binary("sub", x, mean, "f32", t)
        gain = None if m.gain is None else self.emit(m.gain)
        bias = None if m.bias is None else self.emit(m.bias)
        ty = self._type(term.shape, want, t)
        if gain is None and bias is not None:
            normed = self._add(kernel.RmsNormOp(x, self._type(term.shape, "f32", t), eps=m.eps))
            return self._binary("add", normed, bias, want, t)
        return self._add(kernel.RmsNormOp(x, ty, gain=gain, bias=bias, eps=m.eps))

    def _emit_match(self, t: int, m: Match, want: str) -> SSAValue:
        term = self.g[t]
        ty = self._type(term.shape, want, t)
        if m.kind == "identity":
            (x,) = m.operands
            assert x is not None
            return self._narrow(x, want, t)
        if m.kind == "scale":
            (x,) = m.operands
            assert x is not None and m.const is not None
            return self._add(kernel.MulScalarOp(self.emit(x), m.const, ty))
        immediate = self._scalar_form(m.kind, m.operands, m.const, term.shape, want, t)
        if immediate is not None:
            return immediate
        ops = [self._operand(o, m.const, term.rank, want, t) for o in m.operands]
        if m.kind == "min":
            return self._min(ops[0], ops[1], want, t)
        cls = kernel.ELEMENTWISE_OPS[m.kind]
        return self._add(cls.create(operands=ops, result_types=[ty]))

    def _scalar_form(
        self,
        kind: str,
        operands: Sequence[int | None],
        const: float | None,
        shape: Shape,
        want: str,
        t: int,
    ) -> SSAValue | None:
        """`x <kind> c`, the constant c an operand None, as the kind's immediate form
        (`opkinds.SCALAR_FORMS`: no constant tensor, no launch to fill it), where c is in
        the place the form keeps it (second, or either of a commutative kind) and x has the
        result's shape; None otherwise."""
        form = SCALAR_FORMS.get(kind)
        if form is None or const is None or len(operands) != 2:
            return None
        for k in (0, 1) if kind in COMMUTATIVE_KINDS else (1,):
            x = operands[1 - k]
            if operands[k] is None and x is not None and self.g[x].shape == shape:
                cls = kernel.SCALAR_OPS[form]
                return self._add(cls(self.emit(x), const, self._type(shape, want, t)))
        return None

    def _negate(self, v: SSAValue, dtype: str, t: int) -> SSAValue:
        owner = v.owner
        if isinstance(owner, kernel.ConstantOp):
            return self.constant(-owner.value.value.data, _shape(v), _dtype(v), t)
        return self._scale(v, -1.0, dtype, t)

    def _min(self, a: SSAValue, b: SSAValue, dtype: str, t: int) -> SSAValue:
        """min(a, b) = -max(-a, -b)."""
        na, nb = (self._negate(v, dtype, t) for v in (a, b))
        return self._scale(self._binary("max", na, nb, dtype, t), -1.0, dtype, t)

    def _narrow(self, x: int, want: str, t: int) -> SSAValue:
        """Term x (the same values as t) as a tensor of `want`."""
        src = self.g[x]
        if wider_or_equal(want, src.dtype):
            return self.emit(x)
        if src.kind in _COMPUTED and self.uses.get(x, 0) <= 1:
            return self.emit(x, want)
        return self.retype(self.emit(x), want, t)

    def _binary(self, kind: str, a: SSAValue, b: SSAValue, dtype: str, t: int) -> SSAValue:
        shape = tuple(max(x, y) for x, y in zip(_shape(a), _shape(b), strict=True))
        cls = kernel.ELEMENTWISE_OPS[kind]
        return self._add(cls.create(operands=[a, b], result_types=[self._type(shape, dtype, t)]))

    def _unary(self, kind: str, a: SSAValue, dtype: str, t: int) -> SSAValue:
        cls = kernel.ELEMENTWISE_OPS[kind]
        return self._add(cls.create(operands=[a], result_types=[self._type(_shape(a), dtype, t)]))

    def _scale(self, a: SSAValue, c: float, dtype: str, t: int) -> SSAValue:
        return self._add(kernel.MulScalarOp(a, c, self._type(_shape(a), dtype, t)))

    def _emit_prim(self, t: int, want: str) -> SSAValue:
        """One primitive, for what no kind covers: a composition of kernel ops, or an
        error naming the op that has none."""
        term = self.g[t]
        prim = str(term.attr)
        rank = term.rank
        consts = [self.g.const_value(o) for o in term.operands]
        if len(consts) == 2 and consts.count(None) == 1:
            immediate = self._scalar_form(
                prim,
                [o if c is None else None for o, c in zip(term.operands, consts, strict=True)],
                next(c for c in consts if c is not None),
                term.shape,
                want,
                t,
            )
            if immediate is not None:
                return immediate
        args = [
            self.constant(c, (1,) * rank, want, t)
            if (c := self.g.const_value(o)) is not None
            else self.emit(o)
            for o in term.operands
        ]
        # a primitive that is itself an elementwise kind of the registry
        if prim in BINARY:
            return self._binary(prim, args[0], args[1], want, t)
        if prim in UNARY:
            return self._unary(prim, args[0], want, t)
        if prim == "neg":
            return self._scale(args[0], -1.0, want, t)
        if prim == "min":
            return self._min(args[0], args[1], want, t)
        if prim == "abs":
            return self._binary("max", args[0], self._scale(args[0], -1.0, want, t), want, t)
        if prim == "cast":
            return self._narrow(term.operands[0], want, t)
        what = {
            "log": "a logarithm",
            "erf": "erf outside the gelu pattern",
            "select": "a selection other than max, min or relu",
        }.get(prim, f"'{prim}'")
        if prim.startswith("cmp_"):
            what = "a comparison other than inside max, min or relu"
        raise ConversionError(
            self._origin(t), f"computes {what}, which the kernel dialect cannot express"
        )

    def _erase_dead(self) -> None:
        changed = True
        while changed:
            changed = False
            for op in reversed(list(self.block.ops)):
                if isinstance(op, func.ReturnOp):
                    continue
                if all(not r.uses for r in op.results):
                    op.detach()
                    op.erase()
                    changed = True
