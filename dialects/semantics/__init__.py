"""Reference semantics of the μGraph dialects: one evaluator over a value domain."""

from mirage.dialects.semantics.domain import Domain, FloatDomain
from mirage.dialects.semantics.evaluate import evaluate, evaluate_function

__all__ = ["Domain", "FloatDomain", "evaluate", "evaluate_function"]
