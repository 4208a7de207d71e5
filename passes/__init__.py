"""Passes over the μGraph dialects: import from linalg, superoptimize (search, pruning,
equivalence checking), canonicalization."""
