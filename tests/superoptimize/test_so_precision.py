"""Matmul operands computed in a block are stored in the other operand's f16/bf16 type, so
that the matmul runs on tensor cores; the cost model charges an f32 matmul to the CUDA
cores."""

from __future__ import annotations

import dataclasses

from superoptimize.so_helpers import load_ugraph

from mirage.dialects.hardware import SM_90
from mirage.dialects.ugraph.graph import Graph, Op, TensorType
from mirage.passes.superoptimize.cost import program_cost
from mirage.passes.superoptimize.precision import narrow_matmul_operands


def _with_exp_dtype(graph: Graph, dtype: str) -> Graph:
    """The μGraph with its block exp results of type `dtype`."""
    ops: list[Op] = []
    for op in graph.ops:
        if op.kind == "graph" and op.body is not None:
            body = op.body
            inner = tuple(
                dataclasses.replace(o, results=(TensorType(o.results[0].shape, dtype),))
                if o.kind == "exp"
                else o
                for o in body.ops
            )
            op = dataclasses.replace(op, body=dataclasses.replace(body, ops=inner))
        ops.append(op)
    return dataclasses.replace(graph, ops=tuple(ops))


def _exp_dtypes(graph: Graph) -> list[str]:
    return [
        o.results[0].dtype
        for op in graph.ops
        if op.body is not None
        for o in op.body.ops
        if o.kind == "exp"
    ]


def test_an_f32_exp_feeding_a_matmul_becomes_f16_and_the_kernel_gets_cheaper() -> None:
    hand = load_ugraph("gqa_b1")  # exp(Q K) is f16 there, as in the program
    assert _exp_dtypes(hand) == ["f16"]
    wide = _with_exp_dtype(hand, "f32")
    narrowed = narrow_matmul_operands(wide)
    assert _exp_dtypes(narrowed) == ["f16"]
    assert narrowed == hand
    # f32 x f16 runs on the CUDA cores: the model charges it so
    assert program_cost(wide, SM_90).seconds > 2 * program_cost(hand, SM_90).seconds


def test_values_that_no_matmul_reads_and_accumulators_stay_f32() -> None:
    graph = load_ugraph("rmsnorm_linear_b1")
    assert narrow_matmul_operands(graph) == graph
    gqa = load_ugraph("gqa_b1")
    for op in narrow_matmul_operands(gqa).ops:
        assert op.body is not None
        for o in op.body.ops:
            if o.kind.startswith("accum_") or o.kind in ("matmul", "div", "reduce_sum"):
                assert o.results[0].dtype == "f32", o.kind


def test_a_product_that_a_matmul_reads_becomes_f16() -> None:
    # LoRA's (x A) B: x A is f16 in the hand-written μGraph, as in the program
    hand = load_ugraph("lora")
    body = next(op.body for op in hand.ops if op.body is not None)
    n = len(body.args)
    firsts = [
        i
        for i, o in enumerate(body.ops)
        if o.kind == "matmul" and any(u.kind == "matmul" and n + i in u.operands for u in body.ops)
    ]
    assert len(firsts) == 1 and body.ops[firsts[0]].results[0].dtype == "f16"
    widened_ops = tuple(
        dataclasses.replace(o, results=(TensorType(o.results[0].shape, "f32"),))
        if i == firsts[0]
        else o
        for i, o in enumerate(body.ops)
    )
    wide = hand.with_bodies(lambda b: dataclasses.replace(b, ops=widened_ops))
    assert wide != hand
    assert narrow_matmul_operands(wide) == hand
    assert program_cost(wide, SM_90).seconds > program_cost(hand, SM_90).seconds
