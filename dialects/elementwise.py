"""Op classes for the rows of the elementwise and scaled kinds, one per dialect level."""

from __future__ import annotations

from typing import TypeVar, cast

from xdsl.irdl import IRDLOperation, irdl_op_definition

from mirage.dialects.opkinds import BINARY_KINDS, OP_KINDS, SCALED, UNARY_KINDS

Op = TypeVar("Op", bound=IRDLOperation)


def _class_name(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_")) + "Op"


def define_elementwise_ops(
    dialect: str, unary: type[IRDLOperation], binary: type[IRDLOperation]
) -> dict[str, type[IRDLOperation]]:
    """`{kind: op class}` for every elementwise kind, named `<dialect>.<kind>`, built on the
    dialect's unary and binary op families."""
    ops: dict[str, type[IRDLOperation]] = {}
    for kinds, family in ((UNARY_KINDS, unary), (BINARY_KINDS, binary)):
        for kind in kinds:
            cls = type(
                _class_name(kind.name),
                (family,),
                {
                    "name": f"{dialect}.{kind.name}",
                    "__doc__": f"{dialect}.{kind.name}: {kind.summary}.",
                    "__module__": f"mirage.dialects.{dialect}",
                },
            )
            ops[kind.name] = irdl_op_definition(cls)
    return ops


def define_scalar_ops(dialect: str, family: type[Op]) -> dict[str, type[Op]]:
    """`{kind: op class}` for every scaled kind (a tensor, or at thread level a scalar, and
    the constant `scalar`), named `<dialect>.<kind>`, built on the dialect's family."""
    ops: dict[str, type[Op]] = {}
    for name in sorted(SCALED):
        attrs = {
            "name": f"{dialect}.{name}",
            "__doc__": f"{dialect}.{name}: {OP_KINDS[name].summary}.",
            "__module__": f"mirage.dialects.{dialect}",
        }
        cls = cast("type[Op]", type(_class_name(name), (family,), attrs))
        ops[name] = irdl_op_definition(cls)
    return ops
