"""`convert-kernel-to-linalg`: kernel-dialect functions back to linalg-on-tensors.

For a flow that does not want our kernels: every kernel op of a function that no
superoptimization touched becomes `linalg.generic` (elementwise ops with broadcasting
maps, reductions, contractions), `linalg.fill`, `linalg.transpose` or `tensor` ops, with
bodies of `arith` and `math`. A `kernel.graph` (a superoptimized kernel) has no linalg
form and is an error naming it. Importing the result again gives the same program, up to
scalars (a mul_scalar's f64 factor is a constant of the tensor's element type in a body).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass

from mirage.dialects.opkinds import ELEMENTWISE_KINDS, OP_KINDS, Family, LinalgOps, OpKind
from mirage.passes.linalg.conversion_errors import ConversionError

Scalar = Callable[[Block, list[SSAValue], Attribute], SSAValue]
"""Builds the scalar body of an elementwise kind into a block; returns the value."""


def _add(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _const(block: Block, value: float, ty: Attribute) -> SSAValue:
    return _add(block, arith.ConstantOp(FloatAttr(value, ty)))  # type: ignore[arg-type]


_BODY_OPS: dict[str, Callable[..., Operation]] = {
    cls.name: cls for cls in (*arith.Arith.operations, *xmath.Math.operations)
}
"""Every arith and math op by its MLIR name, for the bodies the registry's records build."""


class _Body(LinalgOps[SSAValue]):
    """Builds a record's `linalg` body into one block, constants of element type `ty`."""

    def __init__(self, block: Block, ty: Attribute) -> None:
        self.block = block
        self.ty = ty

    def const(self, value: float) -> SSAValue:
        return _const(self.block, value, self.ty)

    def op(self, name: str, *args: SSAValue) -> SSAValue:
        return _add(self.block, _BODY_OPS[name](*args))


def _body_of(kind: OpKind, params: Sequence[float] = ()) -> Scalar:
    linalg = kind.linalg
    assert linalg is not None
    return lambda b, a, t: linalg(_Body(b, t), a, params)


SCALAR_BODIES: dict[str, Scalar] = {k: _body_of(r) for k, r in ELEMENTWISE_KINDS.items()}
"""The linalg body of every elementwise kind (its record's `linalg`)."""


def _float_prop(op: Operation, name: str) -> float:
    attr = op.properties[name]
    assert isinstance(attr, FloatAttr)
    return float(attr.value.data)  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]


def _eps_prop(op: Operation) -> float:
    """A norm's optional `eps` (absent: 0)."""
    return _float_prop(op, "eps") if "eps" in op.properties else 0.0


def _int_prop(op: Operation, name: str) -> int:
    attr = op.properties[name]
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


def _shape(v: SSAValue) -> tuple[int, ...]:
    ty = v.type
    assert isinstance(ty, TensorType)
    return tuple(int(d) for d in ty.get_shape())


def _element(v: SSAValue | Attribute) -> Attribute:
    ty = v.type if isinstance(v, SSAValue) else v
    assert isinstance(ty, TensorType)
    return cast("TensorType[Attribute]", ty).element_type


def _cast(block: Block, v: SSAValue, ty: Attribute) -> SSAValue:
    """A body value converted to float type `ty`."""
    if v.type == ty:
        return v
    wider = ty.bitwidth > v.type.bitwidth  # type: ignore[attr-defined]
    return _add(block, arith.ExtFOp(v, ty) if wider else arith.TruncFOp(v, ty))  # type: ignore[arg-type]


def _map(rank: int, exprs: Sequence[AffineExpr]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(rank, 0, tuple(exprs)))


def _bcast_map(shape: Sequence[int], full: Sequence[int]) -> AffineMapAttr:
    """Reads `shape` in the iteration space `full` (same rank): extents of 1 broadcast."""
    return _map(
        len(full),
        [
            AffineConstantExpr(0) if n == 1 and f != 1 else AffineDimExpr(d)
            for d, (n, f) in enumerate(zip(shape, full, strict=True))
        ],
    )


def _iterators(kinds: Sequence[str]) -> list[Attribute]:
    return [
        linalg_attrs.IteratorTypeAttr.reduction()
        if k == "reduction"
        else linalg_attrs.IteratorTypeAttr.parallel()
        for k in kinds
    ]


@dataclass
class _Builder:
    """Appends linalg ops to one block."""

    block: Block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def empty(self, ty: Attribute) -> SSAValue:
        return self.add(tensor.EmptyOp((), ty))

    def filled(self, value: float, ty: TensorType) -> SSAValue:
        scalar = self.add(arith.ConstantOp(FloatAttr(value, ty.element_type)))  # type: ignore[arg-type]
        return self.add(linalg_ops.FillOp([scalar], [self.empty(ty)], [ty]))

    def generic(
        self,
        inputs: Sequence[SSAValue],
        maps: Sequence[AffineMapAttr],
        init: SSAValue,
        iterators: Sequence[str],
        body: Callable[[Block, list[SSAValue]], SSAValue],
    ) -> SSAValue:
        arg_types = [_element(v) for v in inputs] + [_element(init)]
        block = Block(arg_types=arg_types)
        block.add_op(linalg_ops.YieldOp(body(block, list(block.args))))
        op = linalg_ops.GenericOp(
            list(inputs), [init], Region(block), list(maps), _iterators(iterators), [init.type]
        )
        return self.add(op)


class _Converter:
    def __init__(self, f: func.FuncOp) -> None:
        self.source = f
        self.func = func.FuncOp(f.sym_name.data, f.function_type)
        self.b = _Builder(self.func.body.block)
        self.values: dict[SSAValue, SSAValue] = dict(
            zip(f.body.block.args, self.func.body.block.args, strict=True)
        )
        for new, old in zip(self.func.body.block.args, f.body.block.args, strict=True):
            new.name_hint = old.name_hint

    def run(self) -> func.FuncOp:
        for op in self.source.body.block.ops:
            if isinstance(op, func.ReturnOp):
                self.b.block.add_op(func.ReturnOp(*[self.values[v] for v in op.arguments]))
            else:
                self.values[op.results[0]] = self.op(op, [self.values[v] for v in op.operands])
        return self.func

    def op(self, op: Operation, args: list[SSAValue]) -> SSAValue:
        ty = op.results[0].type if op.results else None
        if not isinstance(ty, TensorType) or op.dialect_name() != "kernel":
            raise ConversionError(op, "is not a kernel-level op on tensors")
        ty = cast("TensorType[Attribute]", ty)
        kind = OP_KINDS.get(op.name.removeprefix("kernel."))
        if kind is None:
            raise ConversionError(op, "has no linalg form")
        elem = ty.element_type
        if kind.linalg is not None:
            body = _body_of(kind, kind.param_values(lambda name: _float_prop(op, name)))
            return self.elementwise(args, ty, lambda blk, a: body(blk, a, elem))
        family = kind.family
        if family is Family.CONSTANT:
            return self.b.filled(_float_prop(op, "value"), ty)
        if family is Family.CONTRACTION:
            return self.matmul(args[0], args[1], ty)
        if family is Family.REDUCTION:
            assert kind.reduce is not None
            dim, size = _int_prop(op, "dim"), _int_prop(op, "size")
            return self.reduce(kind.reduce, args[0], dim, size, ty)
        if family is Family.NORM:
            return self.rms_norm(args[0], args[1:], _eps_prop(op), ty)
        if family is Family.PERMUTE:
            perm = op.properties["permutation"]
            assert isinstance(perm, DenseArrayBase)
            return self.b.add(linalg_ops.TransposeOp(args[0], self.b.empty(ty), perm, ty))  # pyright: ignore[reportUnknownArgumentType]
        if family is Family.RESHAPE:
            return self.reshape(args[0], ty)
        if family is Family.CONCAT:
            return self.b.add(tensor.ConcatOp(args, _int_prop(op, "dim"), ty))
        if family is Family.SLICE:
            offsets_attr = op.properties["offsets"]
            assert isinstance(offsets_attr, DenseArrayBase)
            offsets = [int(o) for o in offsets_attr.get_values()]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            sizes = list(ty.get_shape())
            return self.b.add(tensor.ExtractSliceOp(args[0], offsets, sizes, [1] * len(sizes), ty))
        if kind.body is not None:
            raise ConversionError(
                op,
                "is a superoptimized kernel; only kernel ops without a block graph have a "
                "linalg form",
            )
        raise ConversionError(op, "has no linalg form")

    def elementwise(
        self,
        args: list[SSAValue],
        ty: TensorType,
        body: Callable[[Block, list[SSAValue]], SSAValue],
    ) -> SSAValue:
        full = tuple(int(d) for d in ty.get_shape())
        elem = ty.element_type
        return self.b.generic(
            args,
            [
                *(_bcast_map(_shape(a), full) for a in args),
                _map(len(full), [AffineDimExpr(d) for d in range(len(full))]),
            ],
            self.b.empty(ty),
            ["parallel"] * len(full),
            lambda blk, a: body(blk, [_cast(blk, v, elem) for v in a[: len(args)]]),
        )

    def matmul(self, lhs: SSAValue, rhs: SSAValue, ty: TensorType) -> SSAValue:
        out = tuple(int(d) for d in ty.get_shape())
        rank = len(out)
        nb = rank - 2
        m, n, k = AffineDimExpr(nb), AffineDimExpr(nb + 1), AffineDimExpr(nb + 2)

        def batch(shape: tuple[int, ...]) -> list[AffineExpr]:
            return [
                AffineConstantExpr(0) if shape[d] == 1 and out[d] != 1 else AffineDimExpr(d)
                for d in range(nb)
            ]

        maps = [
            _map(rank + 1, [*batch(_shape(lhs)), m, k]),
            _map(rank + 1, [*batch(_shape(rhs)), k, n]),
            _map(rank + 1, [*(AffineDimExpr(d) for d in range(nb)), m, n]),
        ]
        elem = ty.element_type

        def body(blk: Block, a: list[SSAValue]) -> SSAValue:
            prod = _add(blk, arith.MulfOp(_cast(blk, a[0], elem), _cast(blk, a[1], elem)))
            return _add(blk, arith.AddfOp(a[2], prod))

        init = self.b.filled(0.0, ty)
        return self.b.generic([lhs, rhs], maps, init, ["parallel"] * rank + ["reduction"], body)

    def reduce(self, red: str, x: SSAValue, dim: int, size: int, ty: TensorType) -> SSAValue:
        shape = _shape(x)
        if size != 1:  # element j combines j, j+size, ...: group (n/size, size), reduce the first
            split = (*shape[:dim], shape[dim] // size, size, *shape[dim + 1 :])
            x = self.reshape(x, TensorType(_element(x), split))
            reduced = TensorType(ty.element_type, (*shape[:dim], 1, size, *shape[dim + 1 :]))
            return self.reshape(self.reduce(red, x, dim, 1, reduced), ty)
        rank = len(shape)
        out_map = _map(
            rank, [AffineConstantExpr(0) if d == dim else AffineDimExpr(d) for d in range(rank)]
        )
        elem = ty.element_type
        init = self.b.filled(0.0 if red == "sum" else -math.inf, ty)
        combine = arith.AddfOp if red == "sum" else arith.MaximumfOp
        iters = ["reduction" if d == dim else "parallel" for d in range(rank)]
        identity = _map(rank, [AffineDimExpr(d) for d in range(rank)])
        return self.b.generic(
            [x],
            [identity, out_map],
            init,
            iters,
            lambda blk, a: _add(blk, combine(_cast(blk, a[0], elem), a[1])),
        )

    def rms_norm(
        self, x: SSAValue, affine: Sequence[SSAValue], eps: float, ty: TensorType
    ) -> SSAValue:
        shape = _shape(x)
        rank = len(shape)
        elem = ty.element_type
        sums_ty = TensorType(elem, (*shape[:-1], 1))
        identity = _map(rank, [AffineDimExpr(d) for d in range(rank)])
        keep = _map(rank, [*(AffineDimExpr(d) for d in range(rank - 1)), AffineConstantExpr(0)])

        def square_sum(blk: Block, a: list[SSAValue]) -> SSAValue:
            v = _cast(blk, a[0], elem)
            return _add(blk, arith.AddfOp(_add(blk, arith.MulfOp(v, v)), a[1]))

        iters = ["parallel"] * (rank - 1) + ["reduction"]
        sums = self.b.generic([x], [identity, keep], self.b.filled(0.0, sums_ty), iters, square_sum)
        n = float(shape[-1])

        def normalize(blk: Block, a: list[SSAValue]) -> SSAValue:
            mean = _add(blk, arith.DivfOp(a[1], _const(blk, n, elem)))
            if eps:
                mean = _add(blk, arith.AddfOp(mean, _const(blk, eps, elem)))
            y = _add(blk, arith.DivfOp(a[0], _add(blk, xmath.SqrtOp(mean))))
            for k, w in enumerate(a[2:]):
                w = _cast(blk, w, elem)
                y = _add(blk, arith.MulfOp(y, w) if k == 0 else arith.AddfOp(y, w))
            return y

        return self.elementwise([x, sums, *affine], ty, normalize)

    def reshape(self, x: SSAValue, ty: TensorType) -> SSAValue:
        """Row-major: collapse to one dim, then expand to the new shape."""
        src, dst = _shape(x), tuple(int(d) for d in ty.get_shape())
        if src == dst:
            return x
        flat = TensorType(_element(x), (math.prod(src),))
        if len(src) != 1:
            x = self.b.add(
                tensor.CollapseShapeOp.create(
                    operands=[x],
                    result_types=[flat],
                    properties={"reassociation": _reassociation(len(src))},
                )
            )
        if len(dst) == 1:
            return x
        return self.b.add(tensor.ExpandShapeOp(x, [], _reassociation(len(dst)), dst, ty))


def _reassociation(rank: int) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in range(rank)])])


@dataclass(frozen=True)
class ConvertKernelToLinalgPass(ModulePass):
    """kernel ops -> linalg-on-tensors (functions without superoptimized kernels)."""

    name = "convert-kernel-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        todo = [
            f
            for f in op.ops
            if isinstance(f, func.FuncOp)
            and f.body.blocks
            and any(o.dialect_name() == "kernel" for o in f.body.block.ops)
        ]
        converted = [(f, _Converter(f).run()) for f in todo]
        for f, new in converted:
            block = f.parent_block()
            assert block is not None
            block.insert_op_before(new, f)
            f.detach()
            f.erase()
