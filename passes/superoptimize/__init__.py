"""The superoptimize pass: μGraph generation (kernel and block levels), pruning, verification
and ranking. `SuperoptimizePass` is the pass; `Search` runs one program's search."""

from mirage.passes.superoptimize.module_pass import SuperoptimizePass
from mirage.passes.superoptimize.search import Search, SearchOptions, SearchResult

__all__ = ["Search", "SearchOptions", "SearchResult", "SuperoptimizePass"]
