"""Results of searches on disk, by (program, options, target): a repeat run answers at once.

One JSON file per key under `<cache>/results/`, written atomically (a temporary file
renamed), holding the chosen μGraphs as MLIR text and what the search found out. The
key hashes the program's model, every option that changes what the search finds, and a
version of the search, so an older search's answers are never reused.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

SEARCH_VERSION = "superoptimize-4"


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
    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory) / "results"

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> CachedEntry | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        ctx = _context()
        graphs: list[Graph] = []
        for text in data["functions"]:
            module = Parser(ctx, text).parse_module()
            funcs = [op for op in module.ops if isinstance(op, FuncOp)]
            graphs.append(graph_from_func(funcs[0]))
        return CachedEntry(
            graphs, data["seconds"], data["measured"], data["baseline"], data["stats"]
        )

    def put(self, key: str, entry: CachedEntry) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = {
            "functions": [str(ModuleOp([func_from_graph("ugraph", g)])) for g in entry.graphs],
            "seconds": entry.seconds,
            "measured": entry.measured,
            "baseline": entry.baseline,
            "stats": entry.stats,
        }
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, self._path(key))
