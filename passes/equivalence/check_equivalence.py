"""`check-equivalence{reference=NAME candidate=NAME}`: proves two functions of a module
equivalent by random tests over finite fields, or fails with a counterexample."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from mirage.dialects.ugraph.footprint import check_footprint
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.stability import StabilityOptions
from mirage.passes.equivalence.verifier import VerificationError, Verifier, VerifierOptions


@dataclass(frozen=True)
class CheckEquivalencePass(ModulePass):
    """Leaves the module unchanged when @candidate is equivalent to @reference; fails with
    the seed, output and first differing index of a random test that tells them apart."""

    name = "check-equivalence"

    reference: str
    candidate: str
    seed: int = 0
    error_bound: float = 1e-12
    stability: bool = True
    """Also reject numerically unstable rewrites (float32 drift beyond the dtype bound)."""
    storage: bool = False
    """With stability: also reject a candidate whose result, with its f16/bf16 tensors
    stored in their dtypes, is not finite where the float64 result fits (the search asks
    this of what it returns)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not 0.0 < self.error_bound < 1.0:
            raise PassFailedException(
                f"{self.name}: error-bound must be between 0 and 1 (exclusive), "
                f"got {self.error_bound}"
            )
        if self.seed < 0:
            raise PassFailedException(f"{self.name}: seed must be at least 0, got {self.seed}")
        reference = self._graph(op, self.reference)
        candidate = self._graph(op, self.candidate)
        ref_types = [t.dtype for t in (*reference.args, *reference.output_types)]
        cand_types = [t.dtype for t in (*candidate.args, *candidate.output_types)]
        if ref_types != cand_types:
            # Equivalence over a finite field says nothing of precision: the two compute
            # the same function with other roundings, which the user should know.
            sys.stderr.write(
                f"remark: {self.name}: @{self.candidate} and @{self.reference} differ in "
                f"element types ({_signature(candidate)} vs {_signature(reference)}); "
                "they are compared as exact functions\n"
            )
        options = VerifierOptions(
            seed=self.seed,
            error_bound=self.error_bound,
            stability=StabilityOptions(storage=self.storage) if self.stability else None,
        )
        try:
            verdict = Verifier(reference, options).verify(candidate)
        except VerificationError as e:
            raise PassFailedException(f"{self.name}: @{self.reference}: {e}") from None
        if not verdict.equivalent:
            raise PassFailedException(
                f"{self.name}: @{self.candidate} is not equivalent to @{self.reference}: "
                f"{verdict.counterexample or verdict.reason}"
            )

    def _graph(self, module: ModuleOp, name: str) -> Graph:
        for op in module.ops:
            if isinstance(op, FuncOp) and op.sym_name.data == name:
                if op.is_declaration:
                    raise PassFailedException(
                        f"{self.name}: @{name} is a declaration; it has no body to compare"
                    )
                try:
                    check_footprint(op, 8, "the random tests")
                    return graph_from_func(op)
                except ValueError as e:
                    raise PassFailedException(f"{self.name}: @{name}: {e}") from None
        raise PassFailedException(f"{self.name}: no function @{name} in the module")


def _signature(graph: Graph) -> str:
    args = ", ".join(str(t) for t in graph.args)
    outs = ", ".join(str(t) for t in graph.output_types)
    return f"({args}) -> ({outs})"
