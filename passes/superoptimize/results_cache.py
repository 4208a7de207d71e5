"""Results of searches on disk, by (program, options, target): a repeat run answers at once.

One JSON file per key under `<cache>/results/`, written atomically (a temporary file
renamed), holding the chosen μGraphs as MLIR text and what the search found out. The
key hashes the program's model, every option that changes what the search finds, and a
version of the search, so an older search's answers are never reused. The cache is not
trusted: a μGraph read back is verified against the program before it is used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func, FuncOp
from xdsl.parser import Parser

from mirage.dialects.block import BlockDialect
from mirage.dialects.kernel import KernelDialect
from mirage.dialects.thread import ThreadDialect
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph

SEARCH_VERSION = "superoptimize-11"
"""Changes with what a search would find: -5, narrow tiles priced with tensor-map loads;
-6, online-softmax loops kept in registers (priced as such); -7, online chains on wgmma
with a ring of stages (priced as the planner plans them); -8, that ring kept on grids of
more blocks than multiprocessors; -9, norms scaled where read and loops of one iteration
without accumulator tiles (less shared memory), products a matmul reads stored in 16 bits;
-11, split-KV pairs priced as two launches (clusters off by default)."""


@dataclass(frozen=True)
class CachedEntry:
    graphs: list[Graph]
    seconds: list[float]
    measured: list[float | None]
    baseline: float
    stats: dict[str, Any]


def cache_key(program: Graph, options: dict[str, object]) -> str:
    text = json.dumps(
        {"version": SEARCH_VERSION, "program": repr(program), "options": options},
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _context() -> Context:
    """What the cached functions are written in: func and the three μGraph dialects."""
    ctx = Context()
    for dialect in (Builtin, Func, KernelDialect, BlockDialect, ThreadDialect):
        ctx.load_dialect(dialect)
    return ctx


class ResultsCache:
    """The entries of one cache folder. An entry that cannot be read back as it was
    written (a damaged file, edited fields, a directory in its place) is a miss; whether
    its μGraphs compute the program is for the caller to verify (`module_pass.py` does
    it before an entry may change the output)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory).expanduser() / "results"

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> CachedEntry | None:
        try:
            data = json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None
        try:
            return _entry(data)
        except Exception:  # whatever the file holds, it is not an entry this code wrote
            return None

    def put(self, key: str, entry: CachedEntry) -> str | None:
        """Store `entry`; the reason it could not be stored, or None."""
        data = {
            "functions": [str(ModuleOp([func_from_graph("ugraph", g)])) for g in entry.graphs],
            "seconds": entry.seconds,
            "measured": entry.measured,
            "baseline": entry.baseline,
            "stats": entry.stats,
        }
        tmp: str | None = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
            os.replace(tmp, self._path(key))
        except OSError as e:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            return f"{e.strerror or e}: {e.filename2 or e.filename or self.directory}"
        return None


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError("not a number")
    return float(value)


def _entry(data: object) -> CachedEntry:
    """The entry that `data` (parsed JSON) holds; TypeError/KeyError/ValueError when it
    is not one."""

    if not isinstance(data, dict):
        raise TypeError("not an object")
    data = cast(dict[str, Any], data)
    functions, seconds, measured = data["functions"], data["seconds"], data["measured"]
    if not (isinstance(functions, list) and isinstance(seconds, list)):
        raise TypeError("functions and seconds must be lists")
    if not isinstance(measured, list):
        raise TypeError("measured must be a list")
    functions = cast(list[object], functions)
    seconds = cast(list[object], seconds)
    measured = cast(list[object], measured)
    if not len(functions) == len(seconds) == len(measured):
        raise TypeError("functions, seconds and measured must be of one length")
    stats = data["stats"]
    if not isinstance(stats, dict):
        raise TypeError("stats must be an object")
    stats = cast(dict[str, Any], stats)
    ctx = _context()
    graphs: list[Graph] = []
    for text in functions:
        if not isinstance(text, str):
            raise TypeError("a function must be MLIR text")
        module = Parser(ctx, text).parse_module()
        module.verify()
        funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
        if len(funcs) != 1:
            raise ValueError("one function per entry")
        graphs.append(graph_from_func(funcs[0]))
    return CachedEntry(
        graphs,
        [_number(x) for x in seconds],
        [None if x is None else _number(x) for x in measured],
        _number(data["baseline"]),
        dict(stats),
    )
