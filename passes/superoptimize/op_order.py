"""Canonical forms: each μGraph is generated in few orders, ideally one.

Ops are generated in a canonical topological order: a new op either uses the previous op's
result, or its key ranks above the previous op's key. The key is (operands, latest first;
kind; operands in order; attributes). Any DAG has such an order (add, at each step, the
ready op of the smallest key), so no μGraph is lost; two independent ops are generated in
one order only. Commutative binary ops take their operands in key order.
"""

from __future__ import annotations

from typing import Any

from mirage.dialects.opkinds import COMMUTATIVE_KINDS, SEARCH_ORDER

KIND_ORDER: tuple[str, ...] = SEARCH_ORDER
KIND_RANK = {k: i for i, k in enumerate(KIND_ORDER)}
COMMUTATIVE = COMMUTATIVE_KINDS

OpKey = tuple[Any, ...]


def op_key(kind: str, operand_keys: tuple[Any, ...], attrs: tuple[Any, ...]) -> OpKey:
    return (tuple(sorted(operand_keys, reverse=True)), KIND_RANK[kind], operand_keys, attrs)


def in_order(new_key: OpKey, uses_previous: bool, previous_key: OpKey | None) -> bool:
    return previous_key is None or uses_previous or new_key > previous_key
