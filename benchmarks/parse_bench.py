"""Seconds to parse (and locate the ops of) generated kernel programs of growing size.

    python benchmarks/parse_bench.py [--sizes 1 2 4] [--per-op-locations]

Each program is a chain of elementwise kernel ops, about 68 bytes per op; `--sizes` are in
MB. `mirage-opt` parses with `LocatingParser`, which remembers where each op starts; with
`--per-op-locations` the line and column are asked of xDSL for every op as it is parsed
(what the parser did before: xDSL counts the newlines from the start of the file each
time, so the whole parse grew with the square of the file's length). The time that is
left, linear in the size, is xDSL's lexer and parser.
"""

from __future__ import annotations

import argparse
import time

from xdsl.ir import Operation

from mirage.tools.diagnostics import LocatingParser
from mirage.tools.registry import make_context


def program(ops: int) -> str:
    t = "tensor<8x64xf32>"
    lines = [f"func.func @f(%x0: {t}) -> {t} {{"]
    for i in range(ops):
        kind = "exp" if i % 2 == 0 else "sqrt"
        lines.append(f"  %x{i + 1} = kernel.{kind} %x{i} : {t} -> {t}")
    lines += [f"  func.return %x{ops} : {t}", "}"]
    return "\n".join(lines) + "\n"


class PerOpLocations(LocatingParser):
    def parse_operation(self) -> Operation:
        span = self._current_token.span  # pyright: ignore[reportPrivateUsage]
        op = super().parse_operation()
        span.get_location()
        return op


def seconds(text: str, per_op: bool) -> float:
    cls = PerOpLocations if per_op else LocatingParser
    began = time.perf_counter()
    parser = cls(make_context(), text, "bench.mlir")
    parser.parse_module()
    assert parser.op_locations
    return time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[0.25, 0.5, 1.0, 2.0])
    ap.add_argument("--per-op-locations", action="store_true")
    args = ap.parse_args()
    per_op = " (line and column per op)" if args.per_op_locations else ""
    print(f"size MB  ops     seconds{per_op}")
    for mb in args.sizes:
        ops = int(mb * 1e6 / 68)
        text = program(ops)
        took = seconds(text, args.per_op_locations)
        print(f"{len(text) / 1e6:7.2f}  {ops:6d}  {took:7.2f}")


if __name__ == "__main__":
    main()
