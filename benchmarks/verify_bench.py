"""Time of verifying one candidate once the reference fingerprint exists.

    python benchmarks/verify_bench.py [--fixture rmsnorm_linear] [--repeat 10]
    python benchmarks/verify_bench.py --corpus silu_gate_f16

Builds the fingerprint of the fixture's @program (random tests, the reference's outputs on
them, its float runs, the products of its inputs), then verifies @ugraph `--repeat` times,
each time as a new candidate (the cache of op results is emptied, the fingerprint kept).
Prints the fingerprint time and the per-candidate time (min and median): with all checks,
with the finite-field tests only, and without the fingerprint's input products (the
candidate computes its products itself); then the bare BLAS products such a candidate
needs, timed in the same run.

With --corpus, one verification at the realistic shapes of benchmarks/corpus/NAME.mlir (as
the search asks it): the program against its normalized form restored (the same
computation, with other ops, so nothing comes from the cache), with the seconds and the
process's peak resident memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verifier, VerifierOptions
from mirage.tools.registry import make_context

ROOT = Path(__file__).resolve().parent.parent


def load(name: str) -> tuple[Graph, Graph]:
    from xdsl.dialects.func import FuncOp
    from xdsl.parser import Parser

    text = (ROOT / "tests" / "fixtures" / f"{name}.mlir").read_text()
    module = Parser(make_context(), text).parse_module()
    funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    return graph_from_func(funcs["program"]), graph_from_func(funcs["ugraph"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", default="rmsnorm_linear")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--corpus", help="a file stem of benchmarks/corpus, e.g. silu_gate_f16")
    args = parser.parse_args()
    if args.corpus:
        corpus(args.corpus)
        return

    program, ugraph = load(args.fixture)
    start = time.perf_counter()
    verifier = Verifier(program)
    verifier.fingerprint.float_samples()
    fingerprint = time.perf_counter() - start
    variants = {
        "all checks": verifier,
        "finite-field tests only": Verifier(program, VerifierOptions(stability=None)),
        "all checks, without the fingerprint's input products": Verifier(
            program, VerifierOptions(input_products=False)
        ),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    verdict = None
    for _ in range(args.repeat):
        for name, v in variants.items():
            v.fingerprint.cache._entries.clear()  # pyright: ignore[reportPrivateUsage]
            v.fingerprint.cache.bytes = 0
            t = time.perf_counter()
            got = v.verify(ugraph)
            times[name].append(time.perf_counter() - t)
            assert got.equivalent, got
            verdict = verdict or got
    assert verdict is not None

    def ms(xs: list[float]) -> str:
        return f"min {1e3 * min(xs):.1f} ms, median {1e3 * statistics.median(xs):.1f} ms"

    print(f"fixture: {args.fixture}; verdict: {verdict}")
    print(f"fingerprint (tests drawn, reference evaluated, float runs): {fingerprint:.2f} s")
    for name, xs in times.items():
        print(f"verify one candidate, {name}: {ms(xs)}")
    floor = blas_floor(program, verdict.tests, args.repeat)
    if floor is not None:
        print(f"BLAS floor in the same run ({floor[0]}): {ms(floor[1])}")


def corpus(stem: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from corpus import import_program  # pyright: ignore[reportMissingImports, reportUnknownVariableType]

    from mirage.dialects.hardware import SM_90
    from mirage.passes.equivalence.verifier import SEARCH_OPTIONS
    from mirage.passes.superoptimize.fusion import fuse_program
    from mirage.passes.superoptimize.normalize import normalize

    path = ROOT / "benchmarks" / "corpus" / f"{stem}.mlir"
    func = import_program(path, stem.rsplit("_", 1)[0])  # pyright: ignore[reportUnknownVariableType]
    program = graph_from_func(func)  # pyright: ignore[reportUnknownArgumentType]
    norm = normalize(program)
    candidate = norm.restore(fuse_program(norm.program), SM_90) if norm is not None else program
    start = time.perf_counter()
    verdict = Verifier(program, VerifierOptions(stability=SEARCH_OPTIONS)).verify(candidate)
    took = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{stem}: {verdict}")
    print(f"fingerprint and one candidate: {took:.1f} s, peak resident memory {peak:.0f} MiB")


def blas_floor(program: Graph, tests: int, repeat: int) -> tuple[str, list[float]] | None:
    """The bare products a candidate X W of the program's two 2-D arguments needs: per
    test one float64 product with the rows doubled (two limbs), and one float32 product."""
    if len(program.args) != 2 or any(len(t.shape) != 2 for t in program.args):
        return None
    (m, k), (_, n) = (t.shape for t in program.args)
    rng = np.random.default_rng(0)
    x64 = rng.integers(0, 1 << 14, (2 * m, k)).astype(np.float64)
    w64s = [rng.integers(0, 1 << 26, (k, n)).astype(np.float64) for _ in range(tests)]
    x32, w32 = x64[:m].astype(np.float32), w64s[0].astype(np.float32)
    times: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        for w in w64s:
            np.matmul(x64, w)
        np.matmul(x32, w32)
        times.append(time.perf_counter() - t)
    what = f"{tests} x float64 {2 * m}x{k} @ {k}x{n} + float32 {m}x{k} @ {k}x{n}"
    return what, times


if __name__ == "__main__":
    main()
