"""The roles the search relies on, as small protocols: pruning of prefixes, equivalence
verification of finished candidates, and measuring candidates on a GPU."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from mirage.dialects.ugraph.graph import Graph
from mirage.passes.pruning import Term


class PruneCheck(Protocol):
    """Keeps a new value only if its abstract expression (`mirage.passes.pruning.terms`)
    can still be part of a μGraph equivalent to the program (`Pruner.keep_term`). The
    search asks once per value, as the value is made."""

    def keep_term(self, term: Term) -> bool: ...


class Verdict(Protocol):
    """What a verification says (its text says why)."""

    @property
    def equivalent(self) -> bool: ...

    @property
    def stopped(self) -> bool:
        """Stopped before it decided (not equivalent, not shown different either)."""
        ...

    @property
    def storage_fit(self) -> bool:
        """Finite with narrow storage wherever the float64 result fits (an equivalent
        candidate of a program that is not may be only as finite as the program)."""
        ...


class EquivalenceCheck(Protocol):
    """Decides whether a finished candidate computes what the program computes
    (`mirage.passes.equivalence.verifier.Verifier` is one)."""

    def verify(self, candidate: Graph, stop: Callable[[], bool] | None = None) -> Verdict:
        """`stop` is polled during the verification: once true, it ends with a stopped
        verdict."""
        ...

    def storage_check(self, candidate: Graph) -> str | None:
        """Why `candidate` is not finite with its tensors stored in their narrow dtypes
        where the float64 result is; None where it is (or the check is not asked)."""
        ...


class Profiler(Protocol):
    """Measures candidates on a GPU: seconds per call of each."""

    def measure(self, candidates: Sequence[Graph]) -> list[float]: ...


class KeepAll:
    """A `PruneCheck` that keeps every value: the search without pruning (for tests of
    the generator on its own, and to measure what pruning saves)."""

    def keep_term(self, term: Term) -> bool:
        del term
        return True


def no_pruning(program: Graph) -> PruneCheck:
    """A pruner factory (picklable, for worker processes) that never prunes."""
    del program
    return KeepAll()
