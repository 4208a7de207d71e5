"""Where an op may take its operands from.

xDSL does not check dominance, so these checks do: an operand is defined before its use
(MLIR's rule for single-block regions), and inside a block graph values flow only through
the graph's structure (device tensors through input iterators, loop values through
accumulators), which is what makes "exactly one accumulator on each input-to-output path"
hold by construction.
"""

from __future__ import annotations

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
