"""Export the six benchmark programs (docs/MEASURING.md) from PyTorch to linalg-on-tensors MLIR.

    python benchmarks/export_programs.py [--out DIR] [--only NAME ...] [--list]

Writes one file per case of `torch_programs.cases()` (default: tests/linalg/fixtures):
each program at its benchmark shapes (float32, and float16 as the paper runs them) and at
two other shapes, plus small shapes whose weights are module parameters, so the export
carries them as `dense_resource` constants. Needs torch and torch-mlir
(`pip install 'mirage-xdsl[torch]'`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from torch_programs import Case, cases  # noqa: E402

DEFAULT_OUT = HERE.parent / "tests" / "linalg" / "fixtures"


def header(case: Case) -> str:
    shapes = ", ".join("x".join(map(str, s)) for s in case.shapes)
    consts = (
        f"; arguments {list(case.constants)} are module parameters (constants)"
        if case.constants
        else ""
    )
    return (
        f"// {case.name} at shapes {shapes} ({case.tag}), {case.dtype}{consts}.\n"
        "// Exported from benchmarks/torch_programs.py by benchmarks/export_programs.py\n"
        "// (torch-mlir FX importer, linalg-on-tensors); do not edit.\n"
    )


def export(case: Case) -> str:
    from mirage.tools.from_torch import export_linalg

    module, args = case.module(case.tensors())
    return header(case) + export_linalg(module, args, func_name=case.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="programs to export")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    selected = [c for c in cases() if not args.only or c.name in args.only]
    if args.list:
        for c in selected:
            print(c.stem)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for c in selected:
        path = args.out / f"{c.stem}.mlir"
        path.write_text(export(c))
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
