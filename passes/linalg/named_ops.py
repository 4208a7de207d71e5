"""Named linalg ops that torch-mlir emits and xDSL's linalg dialect lacks or mis-types.

xDSL 0.75 has no `linalg.batch_matmul`; its `linalg.matmul` builds a body that does not
verify when the inputs are narrower than the accumulator (f16 x f16 -> f32, which
torch-mlir emits for every half-precision matmul); and its `linalg.generic` cannot parse
the parenthesized result list of a generic with several results (torch-mlir's max
reductions). MLIR's semantics cast each matmul input to the output's element type,
multiply and accumulate; the bodies here say exactly that. `linalg_dialect()` is xDSL's
linalg dialect with these ops in place of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self, cast

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects import linalg as xlinalg
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, StringAttr
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.parser import Parser


def _contraction_body(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    arg_types = NamedOperation.body_arg_types((*inputs, *outputs))
    acc = arg_types[-1]

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        def widen(v: SSAValue) -> SSAValue:
            if v.type == acc:
                return v
            if isinstance(acc, AnyFloat) and isinstance(v.type, AnyFloat):
                if acc.bitwidth >= v.type.bitwidth:
                    return arith.ExtFOp(v, acc).result
                return arith.TruncFOp(v, acc).result
            return v  # integer contractions keep xDSL's (untyped) behaviour

        if isinstance(acc, AnyFloat):
            product = arith.MulfOp(widen(args[0]), widen(args[1]))
            total = arith.AddfOp(args[2], product)
        else:
            product = arith.MuliOp(args[0], args[1])
            total = arith.AddiOp(args[2], product)
        linalg_ops.YieldOp(total)

    return body


_MATMUL_MAPS = ArrayAttr(
    [
        AffineMapAttr(AffineMap.from_callable(lambda i, _, k: (i, k))),
        AffineMapAttr(AffineMap.from_callable(lambda _, j, k: (k, j))),
        AffineMapAttr(AffineMap.from_callable(lambda i, j, _: (i, j))),
    ]
)
_BATCH_MAPS = ArrayAttr(
    [
        AffineMapAttr(AffineMap.from_callable(lambda b, i, _, k: (b, i, k))),
        AffineMapAttr(AffineMap.from_callable(lambda b, _, j, k: (b, k, j))),
        AffineMapAttr(AffineMap.from_callable(lambda b, i, j, _: (b, i, j))),
    ]
)


class _ContractionOp(NamedOperation):
    """A matmul-like named op: its body multiplies the inputs (cast to the output's type)
    and adds the product to the output; `indexing_maps` may transpose the operands."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res if res is not None else [o.type for o in outputs],
            hidden_region=_contraction_body(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _contraction_body(inputs, outputs)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        # MLIR writes transposing maps before the operands: `indexing_maps = [...] ins(...)`
        maps = None
        if parser.parse_optional_characters("indexing_maps"):
            parser.parse_punctuation("=")
            maps = parser.parse_attribute()
        op = super().parse(parser)
        if maps is not None:
            op.properties["indexing_maps"] = maps
        return op

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        maps = self.properties["indexing_maps"]
        assert isinstance(maps, ArrayAttr)
        return tuple(m.data for m in maps.data)  # pyright: ignore

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return ArrayAttr(AffineMapAttr(m) for m in self.get_default_indexing_maps())

    def get_iterator_types(self) -> ArrayAttr[linalg_attrs.IteratorTypeAttr]:
        loops = self.get_default_indexing_maps()[0].num_dims
        par = linalg_attrs.IteratorTypeAttr.parallel()
        return ArrayAttr([*([par] * (loops - 1)), linalg_attrs.IteratorTypeAttr.reduction()])


@irdl_op_definition
class MatmulOp(_ContractionOp):
    """`linalg.matmul`: (m, k) x (k, n) -> (m, n)."""

    name = "linalg.matmul"
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_MATMUL_MAPS)


@irdl_op_definition
class BatchMatmulOp(_ContractionOp):
    """`linalg.batch_matmul`: (b, m, k) x (b, k, n) -> (b, m, n)."""

    name = "linalg.batch_matmul"
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_BATCH_MAPS)


class GenericOp(linalg_ops.GenericOp):
    """`linalg.generic` whose custom syntax also reads `-> (type, type, ...)`."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        attrs = dict(parser.expect(parser.parse_optional_attr_dict, "attribute dict expected"))
        for key in ("indexing_maps", "iterator_types"):
            if key not in attrs:
                parser.raise_error(f"expected {key} for linalg.generic", start, parser.pos)
        maps = attrs.pop("indexing_maps")
        iters: list[Attribute] = []
        for it in cast(ArrayAttr[Attribute], attrs.pop("iterator_types")).data:
            if isinstance(it, StringAttr):
                it = linalg_attrs.IteratorTypeAttr(linalg_attrs.IteratorType(it.data))
            iters.append(it)
        doc = attrs.pop("doc", None)
        library_call = attrs.pop("library_call", None)
        ins = _parse_operand_group(parser, "ins")
        outs = _parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            attrs |= parser.expect(parser.parse_optional_attr_dict, "attribute dict expected")
        body = parser.parse_region()
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            grouped = parser.parse_optional_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
            results = list(grouped) if grouped is not None else [parser.parse_type()]
        op = cls(
            ins,
            outs,
            body,
            cast(ArrayAttr[AffineMapAttr], maps),
            iters,
            results,
            cast(StringAttr | None, doc),
            cast(StringAttr | None, library_call),
        )
        op.attributes |= attrs
        return op


def _parse_operand_group(parser: Parser, keyword: str) -> Sequence[SSAValue]:
    """`keyword(%a, %b : type, type)`, or nothing."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return ()
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(names, types, pos)


REPLACED_OPS = (MatmulOp, GenericOp)
EXTRA_OPS = (BatchMatmulOp,)


def linalg_dialect() -> Dialect:
    """xDSL's linalg dialect with `MatmulOp` replaced and `BatchMatmulOp` added."""
    replaced = {op.name for op in REPLACED_OPS}
    ops = [op for op in xlinalg.Linalg.operations if op.name not in replaced]
    return Dialect(
        "linalg",
        [*ops, *REPLACED_OPS, *EXTRA_OPS],
        list(xlinalg.Linalg.attributes),
    )
