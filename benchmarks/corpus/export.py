"""Export the corpus (blocks.py) to linalg-on-tensors MLIR, with its manifest.

    python benchmarks/corpus/export.py [--only NAME ...] [--list]

Writes NAME_small.mlir (float32, small shapes) and NAME_f16.mlir (float16, realistic shapes)
beside this file, and manifest.json: per program its family, files, argument names and
shapes, expert launch count and reason. Parameters are function arguments (no weights in
the files). Needs torch and torch-mlir (`pip install -e '.[torch]'`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from blocks import BLOCKS, Block, random_like_inputs  # noqa: E402

SIZES = {"small": torch.float32, "f16": torch.float16}


def stem(b: Block, size: str) -> str:
    return f"{b.name}_{size}"


def export(b: Block, size: str) -> str:
    from mirage.tools.from_torch import export_linalg

    module, args, names = random_like_inputs(
        b, "small" if size == "small" else "realistic", SIZES[size]
    )
    shapes = ", ".join(
        f"{n} {'x'.join(map(str, a.shape))}" for n, a in zip(names, args, strict=True)
    )
    header = (
        f"// corpus {b.name} ({b.family}), {size}: {shapes}.\n"
        "// Exported from benchmarks/corpus/blocks.py by benchmarks/corpus/export.py;"
        " do not edit.\n"
    )
    return header + export_linalg(module, args, func_name=b.name)


def entry(b: Block) -> dict[str, Any]:
    out: dict[str, Any] = {"family": b.family, "expert": b.expert, "reason": b.reason}
    for size, dtype in SIZES.items():
        _, args, names = random_like_inputs(b, "small" if size == "small" else "realistic", dtype)
        out[size] = {
            "file": f"{stem(b, size)}.mlir",
            "dtype": str(dtype).removeprefix("torch."),
            "args": [[n, list(a.shape)] for n, a in zip(names, args, strict=True)],
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="programs to export")
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    args = parser.parse_args(argv)
    selected = [b for b in BLOCKS if not args.only or b.name in args.only]
    if args.list:
        for b in selected:
            print(b.name)
        return 0
    for b in selected:
        for size in SIZES:
            path = HERE / f"{stem(b, size)}.mlir"
            path.write_text(export(b, size))
            print(f"{path.name} ({path.stat().st_size} bytes)", flush=True)
    manifest = {b.name: entry(b) for b in BLOCKS}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
