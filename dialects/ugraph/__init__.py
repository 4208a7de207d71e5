"""The compact, immutable, hashable model of a μGraph that the search, the verifier, the
abstract expressions and the cost model work on. `from_ir` and `to_ir` convert."""

from mirage.dialects.ugraph.graph import Graph, Op, TensorType

__all__ = ["Graph", "Op", "TensorType"]
