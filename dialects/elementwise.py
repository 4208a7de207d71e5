"""Op classes for the rows of the elementwise table, one per dialect level."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition

from mirage.dialects.opkinds import BINARY_KINDS, UNARY_KINDS


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
