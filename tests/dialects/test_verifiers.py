"""Verifier cases that IR text cannot express (programs built or rewired in Python, shape
rules the model uses), and a check that every verifier message of the μGraph dialects has a
test: a CHECK line of an invalid lit file, or a case here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.utils.exceptions import VerifyException

from conftest import parse_module
from mirage.dialects import block, kernel, shapes, thread
from mirage.dialects.types import tensor_shape

ROOT = Path(__file__).resolve().parents[2]
DIALECT_MODULES = [
    "block.py",
    "kernel.py",
    "thread.py",
    "common.py",
    "types.py",
    "shapes.py",
    "scope.py",
    "smem.py",
    "elementwise.py",
]
INVALID_FILES = sorted((ROOT / "tests" / "filecheck" / "dialects").glob("*_invalid.mlir"))


def _messages() -> list[tuple[str, int, str]]:
    """(file, line, longest literal part) of every VerifyException / ShapeError raised."""
    found: list[tuple[str, int, str]] = []
    for name in DIALECT_MODULES:
        path = ROOT / "dialects" / name
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            if getattr(node.func, "id", None) not in ("VerifyException", "ShapeError"):
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                parts = [arg.value]
            elif isinstance(arg, ast.JoinedStr):
                parts = [
                    v.value
                    for v in arg.values
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                ]
            else:
                continue  # a message passed on from elsewhere
            literal = max(parts, key=len).strip()
            if literal:
                found.append((name, node.lineno, literal))
    return found


def test_every_verifier_message_has_a_test() -> None:
    checks = "\n".join(
        line for p in INVALID_FILES for line in p.read_text().splitlines() if "CHECK" in line
    )
    here = Path(__file__).read_text()
    missing = [
        f"dialects/{f}:{line}: {msg!r}"
        for f, line, msg in _messages()
        if msg not in checks and msg not in here
    ]
    assert not missing, "verifier messages without a test:\n" + "\n".join(missing)


def test_messages_are_found() -> None:
    assert len(_messages()) > 60


GRAPH = """
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %y = kernel.graph(%x) grid [1, 1, 1] block [128, 1, 1] forloop 2
      : (tensor<8x16xf32>) -> tensor<8x8xf32> {
  ^bb0(%X: tensor<8x16xf32>):
    %a = block.for_loop : tensor<8x8xf32> {
      %t = block.input %X imap [-1, -1, -1] forloop_dim 1 : tensor<8x16xf32> -> tensor<8x8xf32>
      %s = block.accum_sum %t : tensor<8x8xf32> -> tensor<8x8xf32>
      block.yield %s : tensor<8x8xf32>
    }
    %e = block.exp %a : tensor<8x8xf32> -> tensor<8x8xf32>
    %f = thread.fuse(%e) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb1(%p: f32):
      %q = thread.exp %p : f32
      thread.yield %q : f32
    }
    %g = thread.fuse(%f) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb2(%p: f32):
      %r = thread.sqrt %p : f32
      thread.yield %r : f32
    }
    %o = block.output %g omap [-1, -1, -1] : tensor<8x8xf32> -> tensor<8x8xf32>
    block.return %o : tensor<8x8xf32>
  }
  func.return %y : tensor<8x8xf32>
}
"""


def _ops(module: ModuleOp, name: str) -> list[object]:
    return [op for op in module.walk() if op.name == name]


def _graph_module() -> ModuleOp:
    return parse_module(GRAPH)


def test_fixture_program_verifies() -> None:
    _graph_module().verify()


def test_value_leaving_the_loop_without_accumulator() -> None:
    module = _graph_module()
    (exp,) = _ops(module, "block.exp")
    (tile,) = _ops(module, "block.input")
    assert isinstance(exp, block.ELEMENTWISE_OPS["exp"]) and isinstance(tile, block.InputOp)
    exp.operands = [tile.result]
    msg = "is defined inside the block.for_loop: values leave the loop only through accumulators"
    with pytest.raises(VerifyException, match=re.escape(msg)):
        module.verify()


def test_block_op_using_a_value_of_another_graph() -> None:
    module = parse_module(GRAPH + GRAPH.replace("@f(", "@g("))
    exps = [op for op in module.walk() if isinstance(op, block.ELEMENTWISE_OPS["exp"])]
    assert len(exps) == 2
    exps[1].operands = [exps[0].results[0]]
    with pytest.raises(VerifyException, match="must be defined by an earlier op of this block"):
        exps[1].verify()


def test_block_op_using_a_loop_body_argument() -> None:
    module = _graph_module()
    (loop,) = _ops(module, "block.for_loop")
    assert isinstance(loop, block.ForLoopOp)
    arg = loop.body.block.insert_arg(TensorType(f32, [8, 8]), 0)
    (acc,) = _ops(module, "block.accum_sum")
    assert isinstance(acc, block.AccumSumOp)
    acc.operands = [arg]
    with pytest.raises(VerifyException, match="must be defined by an earlier op of this block"):
        acc.verify()


def test_thread_op_using_another_fuse_body() -> None:
    module = _graph_module()
    sqrt = next(op for op in module.walk() if isinstance(op, thread.ELEMENTWISE_OPS["sqrt"]))
    first_exp = next(op for op in module.walk() if isinstance(op, thread.ELEMENTWISE_OPS["exp"]))
    fuse_arg = first_exp.operands[0]
    sqrt.operands = [fuse_arg]  # an argument of the other fuse's body
    with pytest.raises(VerifyException, match="must be defined by an earlier op of this block"):
        sqrt.verify()
    sqrt.operands = [first_exp.results[0]]  # a result in the other fuse's body
    with pytest.raises(VerifyException, match="must be defined by an earlier op of this block"):
        sqrt.verify()


def test_graph_body_without_return() -> None:
    """xDSL's terminator check fires first in a whole-module verify; the graph's own check
    stands behind it."""
    module = _graph_module()
    (graph,) = _ops(module, "kernel.graph")
    assert isinstance(graph, kernel.GraphOp)
    entry = graph.body.block
    for op in reversed(list(entry.ops)):
        if not isinstance(op, block.ForLoopOp):
            op.detach()
            op.erase(safe_erase=False)
    with pytest.raises(VerifyException, match=re.escape("body must end with block.return")):
        graph.verify_()


def test_tensor_shape_of_a_scalar() -> None:
    with pytest.raises(VerifyException, match="operand must be a ranked tensor, got f32"):
        tensor_shape(f32, "operand")


def test_reshape_rule_rejects_empty_extents() -> None:
    with pytest.raises(shapes.ShapeError, match="must have positive extents"):
        shapes.reshape((4,), (0, 4))


def test_every_op_has_a_round_trip_test() -> None:
    """Each op of the three dialects appears in an ops file (custom and generic round trips)."""
    from mirage.dialects.block import BlockDialect
    from mirage.dialects.kernel import KernelDialect
    from mirage.dialects.thread import ThreadDialect

    ops_files = (ROOT / "tests" / "filecheck" / "dialects").glob("*_ops.mlir")
    text = "\n".join(
        line for p in ops_files for line in p.read_text().splitlines() if "CHECK" not in line
    )
    missing = [
        op.name
        for dialect in (KernelDialect, BlockDialect, ThreadDialect)
        for op in dialect.operations
        if not re.search(rf"\b{re.escape(op.name)}\b", text)
    ]
    assert not missing, f"ops without a round-trip test: {missing}"
