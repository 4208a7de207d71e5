"""Where an op may take its operands from.

xDSL does not check dominance, so these checks do: an operand is defined before its use
(MLIR's rule for single-block regions), and inside a block graph values flow only through
the graph's structure (device tensors through input iterators, loop values through
accumulators), which is what makes "exactly one accumulator on each input-to-output path"
hold by construction.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException


def dominates(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is visible at `op`: defined in an enclosing block, before `op`'s
    ancestor in that block."""
    block = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
    user: Operation | None = op
    while user is not None:
        if user.parent_block() is block:
            owner = value.owner
            return not isinstance(owner, Operation) or owner.is_before_in_block(user)
        user = user.parent_op()
    return False


def check_dominance(op: Operation) -> None:
    for i, v in enumerate(op.operands):
        if not dominates(v, op):
            raise VerifyException(f"operand {i} is used before it is defined")


def check_local_operands(op: Operation, allow_block_args: bool) -> None:
    """Every operand is a result of an earlier op of `op`'s own block (or, if allowed, an
    argument of that block)."""
    here = op.parent_block()
    for i, v in enumerate(op.operands):
        if isinstance(v, BlockArgument):
            if allow_block_args and v.block is here:
                continue
            raise VerifyException(f"operand {i} must be defined by an earlier op of this block")
        owner = v.owner
        assert isinstance(owner, Operation)
        if owner.parent_block() is not here:
            raise VerifyException(f"operand {i} must be defined by an earlier op of this block")
        if not owner.is_before_in_block(op):
            raise VerifyException(f"operand {i} is used before it is defined")


class LaunchGraph(ABC):
    """An op whose body is a block graph, run by a grid of blocks (kernel.graph). The
    block and thread dialects check their ops against it through this interface: the
    kernel dialect's module imports theirs, not the other way."""

    @abstractmethod
    def launch(self) -> tuple[tuple[int, int, int], int] | None:
        """The grid and the loop range, or None where they are malformed (the launch
        reports them itself: its body is verified first)."""


class BlockLoop:
    """The loop of a block graph (block.for_loop)."""


def enclosing_graph(op: Operation) -> Operation:
    """The kernel.graph that holds `op`, or a VerifyException."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, LaunchGraph):
        parent = parent.parent_op()
    if parent is None:
        raise VerifyException(f"'{op.name}' must be inside a kernel.graph")
    return parent


def in_loop(op: Operation) -> bool:
    """Whether `op` is directly in a block graph's loop."""
    return isinstance(op.parent_op(), BlockLoop)


def check_block_operands(op: Operation) -> None:
    """A block-level op sits directly in a kernel.graph body or in its loop, and its values
    flow only through the graph's structure: device tensors through input iterators, and
    values of the loop out of it only through accumulators. So each operand is a result of
    an earlier op of the op's own block."""
    parent = op.parent_op()
    if not isinstance(parent, LaunchGraph | BlockLoop):
        raise VerifyException(
            f"'{op.name}' must be directly in a kernel.graph body or in its block.for_loop"
        )
    here = op.parent_block()
    for i, v in enumerate(op.operands):
        if isinstance(v, BlockArgument):
            if isinstance(v.block.parent_op(), LaunchGraph):
                raise VerifyException(
                    f"operand {i} is a device tensor (a kernel.graph argument): block-level "
                    "ops read device tensors only through block.input"
                )
            raise VerifyException(f"operand {i} must be defined by an earlier op of this block")
        owner = v.owner
        assert isinstance(owner, Operation)
        if owner.parent_block() is here:
            if not owner.is_before_in_block(op):
                raise VerifyException(f"operand {i} is used before it is defined")
        elif in_loop(op):
            raise VerifyException(
                f"operand {i} is defined outside the block.for_loop: ops in the loop use only "
                "values of the current iteration"
            )
        elif in_loop(owner):
            raise VerifyException(
                f"operand {i} is defined inside the block.for_loop: values leave the loop only "
                "through accumulators"
            )
        else:
            raise VerifyException(f"operand {i} must be defined by an earlier op of this block")
