"""Where a kernel's time goes: a built program timed whole and cut in two.

    python3 benchmarks/cut_gpu.py PROGRAM.json [PROGRAM.json ...] [--rounds 3] [--samples 20]

Each program (built by `mirage-opt F -t "cubin{function=ugraph}" -o PROGRAM.json`: one
launch whose tiles are copied by cp.async) is timed three ways in interleaved rounds by the
runtime's method (docs/MEASURING.md):

- as built;
- without its copies: every cp.async dropped, so the rest runs on whatever shared memory
  holds (launch, matmuls, reductions, barriers and stores);
- its copies only: the kernel returns at the first barrier after the copies' wait.

The cut kernels compute nothing meaningful, so no output is checked; time the program as
built with `run_gpu.py`, which checks it. A kernel that copies by tensor maps or bulk copies
waits on mbarriers that a cut would leave unsignalled: such programs are refused (build
them with `loads=cp-async`). Needs one GPU.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

CP_ASYNC = re.compile(r"^\s*(@%p\d+\s+)?cp\.async\.(cg|ca)\.shared\.global\b")
WAIT = re.compile(r"^\s*cp\.async\.wait_(group|all)\b")
BARRIER = re.compile(r"^\s*bar\.sync\b")
UNCUTTABLE = ("mbarrier", "cp.async.bulk")

VARIANTS = ("as built", "no copies", "copies only")


class CutError(Exception):
    """A program this script cannot cut; the message names what and where."""


def cut(ptx: str, what: str) -> str:
    """The PTX of one kernel with its copies dropped (`no copies`) or with everything after
    the barrier that follows the copies' first wait dropped (`copies only`)."""
    if what == "as built":
        return ptx
    for needle in UNCUTTABLE:
        if needle in ptx:
            raise CutError(f"the kernel uses {needle}: a cut would leave its waits unsignalled")
    lines = ptx.split("\n")
    if not any(CP_ASYNC.match(line) for line in lines):
        raise CutError("the kernel has no cp.async copy to cut")
    if what == "no copies":
        return "\n".join(line for line in lines if not CP_ASYNC.match(line))
    if what == "copies only":
        wait = next((i for i, line in enumerate(lines) if WAIT.match(line)), None)
        if wait is None:
            raise CutError("the kernel never waits for its copies")
        bar = next((i for i in range(wait, len(lines)) if BARRIER.match(lines[i])), None)
        if bar is None:
            raise CutError("no barrier follows the copies' wait")
        indent = lines[bar][: len(lines[bar]) - len(lines[bar].lstrip())]
        return "\n".join([*lines[: bar + 1], f"{indent}ret;", *lines[bar + 1 :]])
    raise CutError(f"unknown cut {what!r}; expected one of {', '.join(VARIANTS)}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="cut_gpu.py", description="Time built kernels whole and cut in two."
    )
    ap.add_argument("programs", nargs="+", type=Path, help="built programs (.json)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--samples", type=int, default=20, help="timed samples a round")
    args = ap.parse_args(argv)

    from mirage.lowering.runtime import CompiledProgram
    from mirage.lowering.runtime.errors import CudaError
    from mirage.lowering.runtime.loader import load
    from mirage.lowering.runtime.program import ProgramError
    from mirage.lowering.runtime.timing import TimingMethod, time_program

    builds: list[tuple[str, CompiledProgram]] = []
    for path in args.programs:
        try:
            program = CompiledProgram.from_json(path.read_text(), base_dir=path.parent)
            if len(program.launches) != 1:
                raise CutError(f"{len(program.launches)} launches; cut one kernel at a time")
            for what in VARIANTS:
                # the cut PTX is assembled anew: the stored cubin is the uncut kernel's
                variant = replace(program, ptx=cut(program.ptx, what), cubin=None)
                builds.append((f"{path.name}: {what}", variant))
        except OSError as e:
            print(f"cut_gpu.py: {path}: {e.strerror}", file=sys.stderr)
            return 1
        except (ProgramError, CutError) as e:
            print(f"cut_gpu.py: {path}: {e}", file=sys.stderr)
            return 1
    try:
        loaded = [(name, load(p)) for name, p in builds]
        method = TimingMethod(samples=args.samples)
        times: dict[str, list[float]] = {name: [] for name, _ in loaded}
        for _ in range(args.rounds):
            for name, lp in loaded:
                times[name].append(time_program(lp, method).median_us)
    except CudaError as e:
        print(f"cut_gpu.py: {e}", file=sys.stderr)
        return 1
    print("| kernel | µs, each round |\n|---|---|")
    for name, ts in times.items():
        print(f"| {name} | {' / '.join(f'{t:.2f}' for t in ts)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
