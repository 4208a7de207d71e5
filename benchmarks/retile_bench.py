"""Shape families at the benchmark shapes: how long a found μGraph takes to be carried over
to another shape of its program (re-tiled and re-verified), the path the PyTorch backend
takes for a batch size or sequence length it has not seen.

    python benchmarks/retile_bench.py [NAME ...] [--json FILE]

For each μGraph of benchmarks/found (default: all; NAME is a file stem such as gqa_b1), the
program is exported from its PyTorch function (benchmarks/torch_programs.py) at other
shapes of its family, the μGraph re-tiled for them (`mirage.passes.superoptimize.family.retile`) and
verified against the new program by the search's verifier. One row per new shape: the
seconds of each step and the verdict. The issue's target is at most 5 s a shape on the
2-core development machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from torch_programs import PROGRAMS, SHAPES  # noqa: E402


def _attention(b: int, n: int, d: int, kv: int) -> tuple[tuple[int, ...], ...]:
    return ((b, n, d), (b, d, kv), (b, kv, d))


FAMILY: dict[str, list[tuple[tuple[int, ...], ...]]] = {
    "gqa": [
        _attention(4, 256, 64, 4096),
        _attention(2, 512, 64, 4096),
        _attention(2, 256, 64, 8192),
    ],
    "rmsnorm_linear": [((4, 4096), (4096, 6144)), ((32, 4096), (4096, 6144))],
    "lora": [((32, 256), (256, 4096), (256, 16), (16, 4096))],
    "gated_mlp": [((16, 4096), (4096, 4096), (4096, 4096))],
    "ntrans": [((16, 4096),) * 3, ((128, 4096),) * 3],
}
FAMILY["qknorm"] = FAMILY["gqa"]


def found(stem: str) -> tuple[Any, Any]:
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.registry import make_context

    path = HERE / "found" / f"{stem}.mlir"
    module = Parser(make_context(), path.read_text(), str(path)).parse_module()
    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
    return graph_from_func(funcs["program"]), graph_from_func(funcs["ugraph"])


def program(name: str, shapes: tuple[tuple[int, ...], ...]) -> Any:
    import torch
    from xdsl.dialects.func import FuncOp

    from mirage.dialects.ugraph.from_ir import graph_from_func
    from mirage.tools.from_torch import import_module

    args = [torch.zeros(s, dtype=torch.float16) for s in shapes]
    module = import_module(PROGRAMS[name], args)
    (func,) = [f for f in module.ops if isinstance(f, FuncOp)]
    return graph_from_func(func)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks/found file stems (default: all)")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    from mirage.dialects.hardware import SM_90
    from mirage.passes.equivalence.verifier import Verifier
    from mirage.passes.superoptimize.family import family_key, retile

    stems = args.names or sorted(p.stem for p in (HERE / "found").glob("*.mlir"))
    rows: list[dict[str, Any]] = []
    print("| μGraph | new shapes | same family | retile s | verify s | total s | verdict |")
    print("|---|---|---|---|---|---|---|")
    for stem in stems:
        name = stem.rsplit("_", 1)[0] if stem.rsplit("_", 1)[0] in SHAPES else stem
        old, ugraph = found(stem)
        for shapes in FAMILY[name]:
            new = program(name, shapes)
            row: dict[str, Any] = {"ugraph": stem, "shapes": shapes}
            row["family"] = family_key(new) == family_key(old)
            began = time.monotonic()
            tiled = retile(ugraph, new, SM_90) if row["family"] else None
            row["retile_s"] = time.monotonic() - began
            if tiled is None:
                row["verify_s"], row["verdict"] = 0.0, "does not fit: a search"
            else:
                began = time.monotonic()
                verdict = Verifier(new).verify(tiled)
                row["verify_s"] = time.monotonic() - began
                row["verdict"] = "equivalent" if verdict.equivalent else "not equivalent"
            total = row["retile_s"] + row["verify_s"]
            text = " ".join("x".join(map(str, s)) for s in shapes)
            print(
                f"| {stem} | {text} | {'yes' if row['family'] else 'no'} | "
                f"{row['retile_s']:.2f} | {row['verify_s']:.2f} | {total:.2f} | {row['verdict']} |",
                flush=True,
            )
            rows.append(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
